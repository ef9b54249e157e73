"""Server push with Redis stopped and restarted under a live uvicorn (issue 32.3, docs/live.md).

A spectator's stream (plain HTTP reading text/event-stream, no browser) hears a move; Redis stops: the
stream ends, a new one is refused (503) and the page's fallback, its poll of the game's live part, still
answers; a move made meanwhile is stored. Redis comes back: a new stream is sent the version it missed at
once, and the next move is pushed again.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field

import pytest
import requests
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from games.platform.models import Game
from games.platform.services import games as game_services
from tests.faults.stack import ROOT, Stack, free_port, wait_until
from tests.faults.test_redis_faults import TIMEOUT, browser

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


@dataclass
class AsgiWeb:
    """The site under uvicorn (the stream's server) on the fault stack's database and Redis."""

    stack: Stack
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.stack.logdir / "web.log", "a")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(self.port)]
            + ["--log-level", "warning", "--timeout-graceful-shutdown", "1"],
            cwd=ROOT,
            env={
                **self.stack.env(),
                "GENIUS_PUSH_URL": self.stack.redis.url,  # never the machine's shared Redis
                "GENIUS_PUSH_PREFIX": "faults-push:",
                "GENIUS_STREAM_PING_SECONDS": "1",
            },
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_until(lambda: requests.get(f"{self.url}/livez/", timeout=2).ok, "uvicorn answering")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def web(transactional_db, own_redis, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("The live stack is other processes: it needs the tests' PostgreSQL database.")
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    node = AsgiWeb(Stack(redis=own_redis, database_url=url, logdir=tmp_path))
    node.start()
    yield node
    node.stop()


@pytest.fixture
def tally(season, hank, alice, bob, charlie):
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


class Listening:
    """One open stream, read line by line in a thread: its events (dicts with `event`), None at its end."""

    def __init__(self, answer):
        self.answer = answer
        self.heard: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = None
        try:
            while line := self.answer.readline().decode():
                line = line.strip()
                if line.startswith("retry:"):
                    self.ready.set()
                elif line.startswith("event:"):
                    kind = line.partition(":")[2].strip()
                elif line.startswith("data:"):
                    self.heard.put({"event": kind, **json.loads(line.partition(":")[2])})
        except OSError:
            pass
        self.heard.put(None)

    def next(self, seconds: float = 10):
        """The next event, skipping none; None once the stream has ended."""
        return self.heard.get(timeout=seconds)


def open_stream(web: AsgiWeb, session: requests.Session, game: Game, version: int):
    """A page's EventSource: Listening, or the refusal's status code."""
    cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
    request = urllib.request.Request(
        f"{web.url}/events/?game={game.pk}&v={version}",
        headers={"Cookie": cookie, "Accept": "text/event-stream"},
    )
    try:
        answer = urllib.request.urlopen(request, timeout=20)
    except urllib.error.HTTPError as refused:
        return refused.code
    assert answer.headers["Content-Type"].startswith("text/event-stream")
    stream = Listening(answer)
    assert stream.ready.wait(10), "no retry: line"
    return stream


def version_of(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def test_with_redis_stopped_the_stream_ends_the_poll_answers_and_after_its_restart_push_resumes(
    web, tally, hank, charlie
):
    token = Token.objects.create(user=hank).key
    spectator = browser(web, "charlie")
    assert spectator.get(f"{web.url}/games/{tally.pk}/", timeout=TIMEOUT).status_code == 200

    def announce(text: str) -> None:
        told = requests.post(
            f"{web.url}/api/games/{tally.pk}/host/announce/",
            json={"text": text},
            headers={"Authorization": f"Token {token}"},
            timeout=TIMEOUT,
        )
        assert told.status_code == 201, told.text

    seen = version_of(tally)
    stream = open_stream(web, spectator, tally, seen)
    announce("Before the outage")
    moved = version_of(tally)
    assert moved > seen
    assert stream.next() == {"event": "version", "game": tally.pk, "v": moved}

    web.stack.redis.stop()
    assert stream.next() is None, "the open stream ends when Redis goes"
    assert open_stream(web, spectator, tally, moved) == 503  # the page polls at its own interval
    polled = spectator.get(f"{web.url}/games/{tally.pk}/live/", timeout=TIMEOUT)
    assert polled.status_code == 200
    announce("During the outage")  # stored; its push is lost, not the move
    missed = version_of(tally)
    assert missed > moved
    assert "During the outage" in spectator.get(f"{web.url}/games/{tally.pk}/live/", timeout=TIMEOUT).text

    web.stack.redis.start()  # on the same port, empty
    again = open_stream(web, spectator, tally, moved)  # the version the page last heard
    assert again != 503, "the stream is not offered again once Redis answers"
    assert again.next() == {"event": "version", "game": tally.pk, "v": missed}, "what was missed, at once"
    # At once: the process saw Redis fail a moment ago and still leaves it alone (genius/backoff.py), but
    # the message is held and sent as soon as Redis answers, not left to the page's 45 s safety poll.
    announce("After the outage")
    after = version_of(tally)
    assert after > missed
    assert again.next() == {"event": "version", "game": tally.pk, "v": after}
    assert "Internal Server Error" not in web.stack.log("web")
