"""Logged-in streams on one uvicorn process with the database pool (issue 32, docs/live.md).

The benchmark found that a logged-in viewer's stream kept the pooled connection its request took to read
the user (`request.auser()`) for as long as the stream stayed open: Django gives it back on
`request_finished`, which for a streaming answer comes when the stream ends. With production's pool
(`GENIUS_DB_POOL`, 8 connections a process) the 9th logged-in stream waited the pool's timeout and got a
503, and so did every page the process served after it. `stream._forget_database` closes the request's
connections once the stream is open (with the pool, closing gives the connection back).

Here 20 logged-in streams (more than twice the pool) are opened at once on ONE uvicorn process on
PostgreSQL with the pool on, as production runs it. Each must get its `retry:` line, pages that read the
database must still answer, and a move committed by another process must reach every stream.
"""

from __future__ import annotations

import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.conf import settings
from django.db import connection

from games.platform.services import games as game_services
from tests.live_nodes import Node, logged_in, move, open_stream
from tests.live_support import redis_for_push

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

POOL = 8  # genius/settings.py's max_size: the streams below are more than twice as many
VIEWERS = 4  # logged-in spectators, each with STREAMS_EACH tabs open on the game (the cap is 8 a user)
STREAMS_EACH = 5


@pytest.fixture
def game(season, hank, alice, bob):
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


@pytest.fixture
def pooled(transactional_db, tmp_path):
    """The site under one uvicorn process on the tests' PostgreSQL database, with production's pool."""
    if connection.vendor != "postgresql":
        pytest.skip("The pool is PostgreSQL's: run with DATABASE_URL naming a PostgreSQL server.")
    db = settings.DATABASES["default"]
    redis_url = redis_for_push()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("CELERY_")},
        # The tests' users are made with the fast hasher; these settings let the live site read it.
        "DJANGO_SETTINGS_MODULE": "tests.faults.settings",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "GENIUS_DB_POOL": "1",
        "GENIUS_DB_POOL_TIMEOUT": "5",  # production's: a request waits that long for a connection
        "REDIS_URL": redis_url,
        "GENIUS_PUSH_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "GENIUS_PUSH_PREFIX": f"test-{uuid.uuid4().hex[:10]}:",
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "GENIUS_VAR_DIR": str(tmp_path),
        "PYTHONUNBUFFERED": "1",
    }
    node = Node(env, log=tmp_path / "uvicorn.log").start().wait()
    yield env, node
    node.stop()


def test_logged_in_streams_beyond_the_pool_all_open_and_hear_a_move(pooled, game, make_user):
    env, node = pooled
    viewers = [make_user(f"viewer{n}") for n in range(VIEWERS)]
    sessions = [logged_in(node.url, viewer.username) for viewer in viewers]
    tabs = [session for session in sessions for _ in range(STREAMS_EACH)]
    assert len(tabs) > 2 * POOL

    # All at once, as the benchmark's viewers arrive: each stream reads its user from the database.
    with ThreadPoolExecutor(len(tabs)) as opening:
        streams = list(opening.map(lambda session: open_stream(node.url, game.pk, 999999, session), tabs))
    refused = [stream for stream in streams if isinstance(stream, int)]
    assert not refused, f"{len(refused)} of {len(streams)} streams refused: {refused}"

    # With every stream still open, pages that read the database answer: a connection is free.
    assert requests.get(f"{node.url}/readyz/", timeout=30).status_code == 200
    home = sessions[0].get(f"{node.url}/", timeout=30)
    assert home.status_code == 200 and "viewer0" in home.text

    _, version = move(env, game.pk)
    for n, stream in enumerate(streams):
        heard = stream.next()  # spectators all: each is sent the game's public part itself
        assert (heard["event"], heard["game"], heard["v"]) == ("part", game.pk, version), f"stream {n}"
        assert f"/live/?v={version}" in heard["html"]
