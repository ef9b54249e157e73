"""End to end: a real Celery worker and beat on the machine's Redis close a short round, not the test."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from games.platform.models import Event, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of

ROOT = Path(__file__).resolve().parents[2]
BROKER = os.environ.get("GENIUS_TEST_BROKER", "redis://127.0.0.1:6379/15")


def redis_up() -> bool:
    try:
        import redis

        client = redis.Redis.from_url(BROKER, socket_connect_timeout=1)
        client.flushdb()  # a test database of its own: stale tasks of an earlier run must not linger
        return True
    except Exception:
        return False


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_beat_closes_a_round_of_a_few_seconds_through_the_worker(season, hank, alice, bob, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("The worker is another process: it needs the shared PostgreSQL test database.")
    if not redis_up():
        pytest.skip(f"No Redis at {BROKER}.")
    game = game_services.game_create(
        season=season,
        game_type="tally",
        name="Quick",
        hosts=[hank],
        settings={"window_minutes": 0.05, "rounds": 1},
        actor=hank,
    )
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    submission_save(seat=seat_of(game, alice), round_number=0, payload={"number": 6})
    db = django_settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": BROKER,
        "GENIUS_SWEEP_SECONDS": "1",
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "GENIUS_VAR_DIR": str(tmp_path),
    }
    celery = [sys.executable, "-m", "celery", "-A", "genius"]
    procs = [
        subprocess.Popen([*celery, "worker", "--pool", "solo", "--loglevel", "WARNING"], cwd=ROOT, env=env),
        subprocess.Popen([*celery, "beat", "--loglevel", "WARNING"], cwd=ROOT, env=env),
    ]
    try:
        rnd = Round.objects.get(game=game, number=0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rnd.refresh_from_db()
            if rnd.status == Round.Status.RESOLVED:
                break
            time.sleep(0.5)
        assert rnd.status == Round.Status.RESOLVED, "beat and the worker did not close the round in time"
        assert rnd.resolved_at >= rnd.closes_at
        assert Event.objects.filter(game=game, text="Round 0 total: 6.").count() == 1
        game.refresh_from_db()
        assert game.status == "finished"
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
