"""Real Celery processes for the tests that need a real broker: workers and beat on the machine's Redis,
on the tests' PostgreSQL database, stopped (and killed if they must be) when the block ends."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
# A Redis database of the tests' own (GENIUS_TEST_BROKER): flushed before each use.
BROKER = os.environ.get("GENIUS_TEST_BROKER", "redis://127.0.0.1:6379/15")


def needs_broker() -> None:
    """Skip unless PostgreSQL (the workers are other processes) and the tests' Redis are there."""
    if connection.vendor != "postgresql":
        pytest.skip("The worker is another process: it needs the shared PostgreSQL test database.")
    try:
        import redis

        redis.Redis.from_url(BROKER, socket_connect_timeout=1).flushdb()  # nothing of an earlier run
    except Exception:
        pytest.skip(f"No Redis at {BROKER}.")


def env(tmp_path, **extra: str) -> dict[str, str]:
    db = django_settings.DATABASES["default"]
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": BROKER,
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "GENIUS_VAR_DIR": str(tmp_path),
        "TMPDIR": str(tmp_path),  # where a worker leaves its sign of life (genius/alive.py)
        **extra,
    }


def celery(*args: str, log=None, environ=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "genius", *args],
        cwd=ROOT,
        env=environ,
        stdout=log,
        stderr=subprocess.STDOUT if log else None,
    )


@contextlib.contextmanager
def running(*procs: subprocess.Popen):
    try:
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def send(task: str, *args, task_id: str | None = None) -> None:
    """Queue `task` on the tests' broker, as a service's commit would in production (an owed task: with its
    outbox row's id, `outbox-<id>`)."""
    from genius.celery import app

    eager, app.conf.task_always_eager = app.conf.task_always_eager, False  # the tests run tasks inline
    try:
        with app.connection_for_write(BROKER) as conn:
            app.send_task(task, args=args, task_id=task_id, connection=conn)
    finally:
        app.conf.task_always_eager = eager
