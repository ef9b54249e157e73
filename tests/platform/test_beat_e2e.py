"""End to end: a real Celery worker and beat on the machine's Redis close a short round, not the test."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from games.platform.models import Event, Round, Webhook
from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of

pytestmark = pytest.mark.services

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
        subprocess.Popen(
            [*celery, "worker", "-Q", "celery,deadlines", "--pool", "solo", "--loglevel", "WARNING"],
            cwd=ROOT,
            env=env,
        ),
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


class ReceiverThatNeverAnswers:
    """A webhook receiver that takes each connection and never answers it (each delivery waits its 10 s)."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/hook"
        self.taken: list[socket.socket] = []
        threading.Thread(target=self._take, daemon=True).start()

    def _take(self):
        while True:
            try:
                peer, _ = self.server.accept()
            except OSError:
                return
            self.taken.append(peer)

    def close(self):
        for peer in self.taken:
            peer.close()
        self.server.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_webhook_receiver_that_never_answers_delays_no_deadline(season, hank, alice, bob, tmp_path):
    """The first game's results go to three webhooks that hang; the second game's round closes meanwhile,
    on the deadlines queue's own worker, while the webhooks' worker is still waiting on the receiver."""
    if connection.vendor != "postgresql":
        pytest.skip("The workers are other processes: they need the shared PostgreSQL test database.")
    if not redis_up():
        pytest.skip(f"No Redis at {BROKER}.")
    receiver = ReceiverThatNeverAnswers()

    def quick(name, minutes):
        game = game_services.game_create(
            season=season,
            game_type="tally",
            name=name,
            hosts=[hank],
            settings={"window_minutes": minutes, "rounds": 1},
            actor=hank,
        )
        for player in (alice, bob):
            game_services.game_seat(game=game, user=player, actor=hank)
        game_services.game_start(game=game, actor=hank)
        return game

    first = quick("Loud", 0.02)
    before = Event.objects.filter(game=first).order_by("-id").values_list("id", flat=True)[0]
    for _ in range(3):
        Webhook.objects.create(game=first, url=receiver.url)
    second = quick("Quiet", 0.15)
    db = django_settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": BROKER,
        "GENIUS_SWEEP_SECONDS": "1",
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "GENIUS_VAR_DIR": str(tmp_path),
        "GENIUS_WEBHOOKS_HTTP": "1",
        "GENIUS_WEBHOOKS_TO_LOOPBACK": "1",
    }
    celery = [sys.executable, "-m", "celery", "-A", "genius"]
    solo = ["--pool", "solo", "--loglevel", "WARNING"]
    procs = [
        subprocess.Popen([*celery, "worker", "-Q", "celery", "-n", "w1@%h", *solo], cwd=ROOT, env=env),
        subprocess.Popen([*celery, "worker", "-Q", "deadlines", "-n", "w2@%h", *solo], cwd=ROOT, env=env),
        subprocess.Popen([*celery, "beat", "--loglevel", "WARNING"], cwd=ROOT, env=env),
    ]
    try:
        rnd = Round.objects.get(game=second, number=0)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and rnd.status != Round.Status.RESOLVED:
            time.sleep(0.2)
            rnd.refresh_from_db()
        waiting = len(receiver.taken)
        assert rnd.status == Round.Status.RESOLVED, "the second game's round never closed"
        assert Round.objects.get(game=first, number=0).status == Round.Status.RESOLVED
        # Each hung delivery holds the webhooks' worker 10 s; the deadline did not wait for all of them.
        posted = Event.objects.filter(game=first, kind="announcement", id__gt=before).count()
        assert 1 <= waiting < 3 * posted
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        receiver.close()
