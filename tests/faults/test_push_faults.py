"""Server push with Redis stopped and restarted under a live uvicorn (issue 32.3, docs/live.md).

A spectator's stream (plain HTTP reading text/event-stream, no browser) hears a move; Redis stops: the
stream ends, a new one is refused (503) and the page's fallback, its poll of the game's live part, still
answers; a move made meanwhile is stored. Redis comes back: a new stream is sent the version it missed at
once, and the next move is pushed again.
"""

from __future__ import annotations

import pytest
import requests
from rest_framework.authtoken.models import Token

from games.platform.models import Game
from games.platform.services import games as game_services
from tests.faults.stack import on_the_tests_database
from tests.faults.test_redis_faults import TIMEOUT, browser
from tests.live_nodes import Node, open_stream

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stack(transactional_db, own_redis, tmp_path):
    """The fault suite's Redis and the tests' database; only its environment is used (no gunicorn)."""
    return on_the_tests_database(own_redis, tmp_path)


@pytest.fixture
def web(stack, tmp_path):
    """The site under uvicorn (the stream's server) on the stack's database and Redis."""
    env = {
        **stack.env(),
        "GENIUS_PUSH_URL": stack.redis.url,  # never the machine's shared Redis
        "GENIUS_PUSH_PREFIX": "faults-push:",
        "GENIUS_STREAM_PING_SECONDS": "1",
    }
    node = Node(env, log=tmp_path / "web.log").start().wait()
    yield node
    node.stop()


@pytest.fixture
def tally(season, hank, alice, bob, charlie):
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


def stream_of(web: Node, session: requests.Session, game: Game, version: int):
    return open_stream(web.url, game.pk, version, session)


def version_of(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def test_with_redis_stopped_the_stream_ends_the_poll_answers_and_after_its_restart_push_resumes(
    stack, web, tally, hank, charlie
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
    stream = stream_of(web, spectator, tally, seen)
    announce("Before the outage")
    moved = version_of(tally)
    assert moved > seen
    assert _shown(stream.next()) == ("part", tally.pk, moved)  # a spectator is sent the public part

    stack.redis.stop()
    assert stream.next() is None, "the open stream ends when Redis goes"
    assert stream_of(web, spectator, tally, moved) == 503  # the page polls at its own interval
    polled = spectator.get(f"{web.url}/games/{tally.pk}/live/", timeout=TIMEOUT)
    assert polled.status_code == 200
    announce("During the outage")  # stored; its push is lost, not the move
    missed = version_of(tally)
    assert missed > moved
    assert "During the outage" in spectator.get(f"{web.url}/games/{tally.pk}/live/", timeout=TIMEOUT).text

    stack.redis.start()  # on the same port, empty
    again = stream_of(web, spectator, tally, moved)  # the version the page last heard
    assert again != 503, "the stream is not offered again once Redis answers"
    assert again.next() == {"event": "version", "game": tally.pk, "v": missed}, "what was missed, at once"
    # At once: the process saw Redis fail a moment ago and still leaves it alone (genius/backoff.py), but
    # the message is held and sent as soon as Redis answers, not left to the page's 45 s safety poll.
    announce("After the outage")
    after = version_of(tally)
    assert after > missed
    assert _shown(again.next()) == ("part", tally.pk, after)
    assert "Internal Server Error" not in stack.log("web")


def test_an_open_stream_holds_no_thread_of_its_own(web, tally):
    # Django's ASGI handler gives each request a thread for its sync code, kept until the request ends: a
    # stream holding one for hours cost most of its memory (games/platform/stream.py, _release_thread).
    def threads() -> int:
        with open(f"/proc/{web.proc.pid}/status") as status:
            return int(status.read().split("Threads:")[1].split()[0])

    visitor = requests.Session()
    stream_of(web, visitor, tally, version_of(tally))  # the process's first: its Hub, its pools
    before = threads()
    streams = [stream_of(web, visitor, tally, version_of(tally)) for _ in range(10)]
    assert all(stream not in (429, 503) for stream in streams)
    # Ten streams held ten threads before; one left over from the last stream's start is allowed.
    assert threads() - before <= 1, "ten open streams, ten threads"  # the streams end with the node


def _shown(heard: dict) -> tuple:
    return heard["event"], heard["game"], heard["v"]
