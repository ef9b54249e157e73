"""A database outage neither hangs the site nor hides which dependency is down (issue 18.12), and /readyz/
is 503 only when the site cannot serve: Redis down is "degraded", still 200 (issue 28.6).

/livez/ answers while the process runs; /readyz/ asks Postgres and Redis and names the one that is down.
The database cases start the settings in a fresh interpreter aimed at a "black hole": a port that takes the
connection and never answers, as a Postgres behind a dropped network does. Without a connect timeout the
driver would wait there for ever.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]

ASK = """
import json, django
django.setup()
from django.test import Client
client = Client()
answers = {path: client.get(path) for path in ("/livez/", "/healthz/", "/readyz/", "/healthz/deep/")}
print(json.dumps({path: [a.status_code, a.content.decode()] for path, a in answers.items()}))
"""


@pytest.fixture
def black_hole():
    """A listening socket that is never accepted from: connections complete, and nothing ever answers."""
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(16)
    yield hole.getsockname()[1]
    hole.close()


@pytest.mark.parametrize("pool", ["0", "1"])
def test_readyz_names_the_database_when_it_does_not_answer_and_livez_stays_up(black_hole, pool):
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{black_hole}/genius",
        "GENIUS_DB_POOL": pool,
        "GENIUS_DB_CONNECT_TIMEOUT": "1",
        "GENIUS_DB_POOL_TIMEOUT": "1",
        "DJANGO_SETTINGS_MODULE": "genius.settings",
    }
    # The timeout only guards this test against a hang; the site must answer well before it.
    done = subprocess.run(
        [sys.executable, "-c", ASK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert answers["/livez/"][0] == 200 and answers["/healthz/"][0] == 200
    status, body = answers["/readyz/"]
    assert status == 503
    said = json.loads(body)
    assert said["database"].startswith("down") and said["ready"] is False and said["status"] == "down"
    status, body = answers["/healthz/deep/"]
    assert status == 200 and json.loads(body) == {"ok": False, "database": said["database"]}


@pytest.mark.django_db
def test_with_redis_down_readyz_is_200_and_says_degraded_naming_redis(client, settings):
    # Every page is served and every save stored without Redis (genius/cache.py, enqueue.py): a load
    # balancer must keep sending traffic; the body says what is missing.
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/1"
    answer = client.get(reverse("readyz"))
    assert answer.status_code == 200
    said = answer.json()
    assert said["ready"] is True and said["status"] == "degraded" and said["database"] == "ok"
    assert said["redis"].startswith("down") and said["broker"].startswith("down")


@pytest.mark.django_db
def test_readyz_is_200_when_the_database_and_redis_answer(client, settings):
    if not settings.REDIS_URL:
        pytest.skip("no REDIS_URL: only the database is asked")
    answer = client.get(reverse("readyz"))
    assert answer.status_code == 200
    said = answer.json()
    assert said["ready"] is True and said["status"] == "ok"
    assert said["database"] == "ok" and said["redis"] == "ok"


def test_a_worker_s_own_check_answers_only_while_its_sign_of_life_is_fresh(tmp_path, monkeypatch):
    import tempfile
    import time

    from genius import alive

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    node = "deadlines@box"
    assert alive.main(["alive.py", node]) == 1  # not started yet
    alive.touch(node)
    assert alive.main(["alive.py", node]) == 0
    stale = time.time() - alive.STALE_SECONDS - 1
    os.utime(alive.path(node), (stale, stale))  # a worker whose loop stopped a minute ago
    assert alive.main(["alive.py", node]) == 1
