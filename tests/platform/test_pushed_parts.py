"""A spectator's stream carries the game's public live part itself; the ping carries the game's version
(issue 32.1 and the idle viewer's cost, docs/live.md "What a spectator's stream carries").

The part sent must be exactly the body the spectator's own fetch would bring, rendered once per version
for all the spectators of a process, and never sent to a player or a host, whose parts are their own.
"""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client

from games.platform import game_parts, pagecache
from games.platform.registry import Viewer
from games.platform.services import games as game_services
from games.platform.services.events import bump_version
from tests.live_support import close_stream, logged_in, open_stream, redis_for_push, stream_chunks

pytestmark = [pytest.mark.django_db, pytest.mark.services]


@pytest.fixture
def push_redis(settings):
    settings.GENIUS_PUSH_URL = redis_for_push()
    settings.GENIUS_PUSH_PREFIX = f"test-{uuid.uuid4().hex[:10]}:"
    settings.GENIUS_STREAM_PING_SECONDS = 0.3


@pytest.fixture
def renders(monkeypatch):
    """The live parts rendered for streams, by whether the spectator was logged in."""
    seen: list[bool] = []
    real = game_parts.spectators_live

    def counted(game_id, request, logged_in):
        part = real(game_id, request, logged_in)
        seen.append(logged_in)
        return part

    monkeypatch.setattr("games.platform.pushed_parts.spectators_live", counted)
    return seen


def _moved(game, django_capture_on_commit_callbacks):
    def move():
        with django_capture_on_commit_callbacks(execute=True):
            bump_version(game)

    return sync_to_async(move)


def _event(text: str) -> tuple[str, dict]:
    fields = dict(line.split(": ", 1) for line in text.strip().splitlines() if ": " in line)
    return fields.get("event", ""), json.loads(fields.get("data") or "{}")


async def _next(response) -> tuple[str, dict]:
    """The stream's next event but its pings (which come every 0.3 s here)."""
    while True:
        kind, data = _event((await stream_chunks(response, 1))[0])
        if kind != "ping":
            return kind, data


def _fetched(game, version: int, user=None) -> str:
    """What the viewer's own fetch of the live part brings, from the version their page had."""
    client = Client()
    if user is not None:
        client.force_login(user)
    answer = client.get(f"/games/{game.pk}/live/", {"v": str(version)}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_spectators_stream_carries_the_part_their_fetch_would_bring_and_a_players_only_the_version(
    push_redis, tally, alice, make_user, renders, django_capture_on_commit_callbacks
):
    dora = make_user("dora")  # a member with no seat
    before = tally.version
    viewers = {"visitor": None, "visitor2": None, "dora": dora, "alice": alice}

    @async_to_sync
    async def run():
        opened = {}
        for label, user in viewers.items():
            client = await logged_in(user) if user is not None else AsyncClient()
            opened[label] = await open_stream(client, f"game={tally.pk}&v={before}")
            await stream_chunks(opened[label], 1)  # retry: listening
        await _moved(tally, django_capture_on_commit_callbacks)()
        heard = {label: await _next(response) for label, response in opened.items()}
        for response in opened.values():
            await close_stream(response)
        return heard

    heard = run()
    tally.refresh_from_db()
    for label, user in (("visitor", None), ("visitor2", None), ("dora", dora)):
        kind, data = heard[label]
        assert kind == "part", label
        assert data["game"] == tally.pk and data["v"] == tally.version
        assert data["html"] == _fetched(tally, before, user), f"{label}'s part is what their fetch brings"
        assert f"/live/?v={tally.version}" in data["html"]
    assert heard["alice"] == ("version", {"game": tally.pk, "v": tally.version}), "a player fetches her own"
    assert sorted(renders) == [False, True], (
        "one render per kind of spectator for all of the process's streams"
    )


def test_a_spectator_seated_since_the_stream_opened_is_told_the_version_not_sent_the_spectators_part(
    push_redis, season, hank, alice, bob, make_user, django_capture_on_commit_callbacks
):
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    game.refresh_from_db()

    def seat_bob():
        with django_capture_on_commit_callbacks(execute=True):
            game_services.game_seat(game=game, user=bob, actor=hank)  # moves the version

    @async_to_sync
    async def run():
        response = await open_stream(await logged_in(bob), f"game={game.pk}&v={game.version}")
        await stream_chunks(response, 1)
        await sync_to_async(seat_bob)()
        heard = [await _next(response), await _next(response)]
        await close_stream(response)
        return heard

    heard = run()
    game.refresh_from_db()
    assert ("version", {"game": game.pk, "v": game.version}) in heard
    assert "part" not in {kind for kind, _ in heard}


def test_the_part_carries_each_spectators_times_in_their_own_zone(
    push_redis, tally, make_user, django_capture_on_commit_callbacks
):
    from games.platform.people import ensure_profile

    berliner = make_user("berliner")
    profile = ensure_profile(berliner)
    profile.time_zone = "Europe/Berlin"
    profile.save()

    @async_to_sync
    async def run():
        streams = [
            await open_stream(AsyncClient(), f"game={tally.pk}&v={tally.version}"),
            await open_stream(await logged_in(berliner), f"game={tally.pk}&v={tally.version}"),
        ]
        for response in streams:
            await stream_chunks(response, 1)
        await _moved(tally, django_capture_on_commit_callbacks)()
        heard = [await _next(response) for response in streams]
        for response in streams:
            await close_stream(response)
        return heard

    (visitor_kind, visitor), (berlin_kind, berlin) = run()
    assert visitor_kind == berlin_kind == "part"
    assert "(UTC)" in visitor["html"] and "(Europe/Berlin)" not in visitor["html"]
    assert "(Europe/Berlin)" in berlin["html"] and "(UTC)" not in berlin["html"]


def test_the_ping_says_the_games_version_and_a_page_without_a_game_is_pinged_too(
    push_redis, tally, alice, make_user
):
    bump_version(tally)
    tally.refresh_from_db()
    dora = make_user("dora")

    @async_to_sync
    async def run():
        pings = []
        for user, query in (
            (dora, f"game={tally.pk}&v={tally.version}"),
            (dora, ""),
            (None, f"game={tally.pk}&v={tally.version}"),
        ):
            response = await open_stream(await logged_in(user) if user else AsyncClient(), query)
            await stream_chunks(response, 1)
            pings.append(_event((await stream_chunks(response, 1))[0]))
            await close_stream(response)
        return pings

    # A spectator's, logged in or not: the version only (their part holds nothing of their own).
    assert run() == [
        ("ping", {"game": tally.pk, "v": tally.version}),
        ("ping", {}),
        ("ping", {"game": tally.pk, "v": tally.version}),
    ]


def test_a_players_ping_carries_her_token_which_her_private_news_moves_and_nobody_elses_does(
    push_redis, tally, alice, bob, django_capture_on_commit_callbacks
):
    def private_news(user):
        def change():
            with django_capture_on_commit_callbacks(execute=True):
                pagecache.private_changed(tally.pk, [user.pk])

        return sync_to_async(change)

    @async_to_sync
    async def run():
        response = await open_stream(await logged_in(alice), f"game={tally.pk}&v={tally.version}")
        await stream_chunks(response, 1)

        async def next_ping():
            while True:
                kind, data = _event((await stream_chunks(response, 1))[0])
                if kind == "ping":
                    return data

        first = await next_ping()
        await private_news(bob)()
        await asyncio.sleep(0.35)  # past half a ping interval: the next ping reads the token again
        after_his = await next_ping()
        await private_news(alice)()
        await asyncio.sleep(0.35)
        after_hers = await next_ping()
        await close_stream(response)
        return first, after_his, after_hers

    first, after_his, after_hers = run()
    token = pagecache.poll_token(tally, Viewer(role="player", user=alice))
    assert first["t"].startswith("p") and first["t"] == after_his["t"], "bob's news is not hers"
    assert after_hers["t"] != first["t"] and after_hers["t"] == token, "her page sees it is behind"


def test_streams_of_one_process_read_a_games_version_once_per_ping_whatever_their_number(
    push_redis, tally, monkeypatch
):
    from games.platform import pushed_parts

    reads = []
    real = pushed_parts.game_row

    def counted(game_id):
        reads.append(game_id)
        return real(game_id)

    monkeypatch.setattr(pushed_parts, "game_row", counted)

    @async_to_sync
    async def run():
        streams = [await open_stream(AsyncClient(), f"game={tally.pk}&v={tally.version}") for _ in range(5)]
        for response in streams:
            await stream_chunks(response, 1)
        pings = await asyncio.gather(*(stream_chunks(response, 1) for response in streams))
        for response in streams:
            await close_stream(response)
        return pings

    pings = run()
    assert all(_event(chunks[0])[0] == "ping" for chunks in pings)
    assert reads == [tally.pk], "five streams' pings, one read"
