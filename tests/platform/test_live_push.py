"""Server push (issue 32, docs/live.md): what is published after a commit, and what GET /events/ relays.

The stream view runs on an event loop of its own here (AsyncClient under async_to_sync: its database work
comes back to the test's thread, inside the test's transaction). Tests that need a Redis use the one named
by REDIS_URL (or 127.0.0.1:6379, database GENIUS_TEST_REDIS_DB) with a channel prefix of their own, since
pub/sub ignores database numbers.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from django.test import AsyncClient

from games.platform import live_push, pagecache
from games.platform.models import Game
from games.platform.registry import Viewer
from games.platform.services.chat import chat_post
from games.platform.services.events import bump_version
from tests.conftest import seat_of
from tests.live_support import close_stream as _close
from tests.live_support import logged_in as _logged_in
from tests.live_support import open_stream as _open
from tests.live_support import redis_for_push
from tests.live_support import stream_bodies as _bodies
from tests.live_support import stream_chunks as _chunks
from tests.live_support import stream_events as _events

pytestmark = pytest.mark.django_db


@pytest.fixture
def push_redis(settings):
    url = redis_for_push()
    settings.GENIUS_PUSH_URL = url
    settings.GENIUS_PUSH_PREFIX = f"test-{uuid.uuid4().hex[:10]}:"
    settings.GENIUS_STREAM_PING_SECONDS = 0.3
    return url


@pytest.fixture
def listen(push_redis):
    """A plain subscriber to some channels: what was published on them, as dicts."""
    opened = []

    def subscribe(*names):
        pubsub = redis.Redis.from_url(push_redis).pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(*[live_push.channel(*name) for name in names])
        opened.append(pubsub)

        def heard(wait=0.5) -> list[dict]:
            found, until = [], time.monotonic() + wait
            while time.monotonic() < until:
                message = pubsub.get_message(timeout=0.05)
                if message and message["type"] == "message":
                    found.append(json.loads(message["data"]))
            return found

        return heard

    yield subscribe
    for pubsub in opened:
        pubsub.close()


# --- publishing -------------------------------------------------------------------------------------------


@pytest.mark.services
def test_a_move_is_published_on_the_games_channel_after_the_commit_only(
    tally, listen, django_capture_on_commit_callbacks
):
    heard = listen(("game", tally.pk))
    with django_capture_on_commit_callbacks(execute=False) as owed:
        bump_version(tally)
    assert owed, "the version is announced after the commit"
    assert heard(0.3) == [], "nothing is published inside the transaction"
    for callback in owed:
        callback()
    tally.refresh_from_db()
    assert heard() == [{"event": "version", "game": tally.pk, "v": tally.version}]


@pytest.mark.services
def test_a_rolled_back_move_is_never_published(tally, listen, django_capture_on_commit_callbacks):
    heard = listen(("game", tally.pk))
    with django_capture_on_commit_callbacks(execute=True) as owed:
        with pytest.raises(RuntimeError), transaction.atomic():
            bump_version(tally)
            raise RuntimeError("rolled back")
    assert owed == []
    assert heard(0.3) == []


@pytest.mark.services
def test_private_news_goes_to_the_players_own_channels_and_the_hosts_not_the_games(
    tally, alice, bob, listen, django_capture_on_commit_callbacks
):
    public, hers, his, hosts = (
        listen(("game", tally.pk)),
        listen(("user", alice.pk)),
        listen(("user", bob.pk)),
        listen(("hosts", tally.pk)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.private_changed(tally.pk, [alice.pk])
    assert hers() == [{"event": "mine", "game": tally.pk}]
    assert hosts() == [{"event": "mine", "game": tally.pk}]
    assert his(0.2) == [] and public(0.2) == []
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.ledger_changed(tally.season_id, [bob.pk])
    assert his() == [{"event": "mine", "season": tally.season_id}]


@pytest.mark.services
def test_a_chat_message_tells_both_players_chats_and_the_readers_counts_only_them(
    tally, alice, bob, charlie, listen, django_capture_on_commit_callbacks
):
    hers, his, others, public = (
        listen(("user", alice.pk)),
        listen(("user", bob.pk)),
        listen(("user", charlie.pk)),
        listen(("game", tally.pk)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        chat_post(game=tally, author_seat=seat_of(tally, alice), other_seat=seat_of(tally, bob), text="psst")
    assert {"event": "chat", "game": tally.pk} in hers()
    heard_by_bob = his()
    assert {"event": "chat", "game": tally.pk} in heard_by_bob and {"event": "counts"} in heard_by_bob
    assert {"event": "mine", "game": tally.pk} in heard_by_bob  # his page's unread count moved
    assert others(0.2) == [] and public(0.2) == [], "nobody else can count the messages"


def test_private_news_is_published_only_once_the_stamps_have_moved(
    settings, tally, alice, monkeypatch, django_capture_on_commit_callbacks
):
    # A page told "yours moved" fetches at once: under the old stamps it would be told "nothing new".
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"  # on; what is sent is looked at, not sent
    keys = pagecache._player_keys(tally.pk, tally.season_id, alice.pk)
    before = pagecache._stamps(keys)
    at_send = []
    monkeypatch.setattr(live_push, "send", lambda messages: at_send.append(pagecache._stamps(keys)))
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.private_changed(tally.pk, [alice.pk])
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.seat_changed(seat_of(tally, alice))
    assert len(at_send) == 2 and before != at_send[0] != at_send[1]


def test_publishing_never_raises_with_redis_away(settings, caplog):
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"
    live_push.send([(live_push.channel("game", 1), {"event": "version", "game": 1, "v": 2})])
    assert "did not take" in caplog.text


@pytest.mark.services
def test_a_move_made_just_after_redis_comes_back_is_published_not_left_to_the_safety_poll(
    push_redis, listen, monkeypatch
):
    # A publish fails (Redis away); Redis answers again at once, and a page's stream is open again. The
    # next move, made inside the moment Redis is left alone after a failure, must still reach it: held,
    # then sent when the watcher finds Redis back (not dropped, leaving the page to its 45 s poll).
    heard = listen(("game", 7))
    client = live_push._redis()
    publish = client.publish

    def away(*args):
        raise redis.ConnectionError("Connection refused")

    monkeypatch.setattr(client, "publish", away)
    live_push.send([(live_push.channel("game", 7), {"event": "version", "game": 7, "v": 1})])
    monkeypatch.setattr(client, "publish", publish)  # Redis is back
    live_push.send([(live_push.channel("game", 7), {"event": "version", "game": 7, "v": 2})])
    # The watcher asks every second: 15 s is generous on a loaded machine. The first move's message was
    # replaced by the second's (a page needs only the latest version).
    found, until = [], time.monotonic() + 15
    while not found and time.monotonic() < until:
        found += heard(0.2)
    assert found + heard(0.3) == [{"event": "version", "game": 7, "v": 2}]


# --- the stream -------------------------------------------------------------------------------------------


def test_a_game_closed_to_the_user_is_refused_as_its_page_is(settings, client, tally, charlie):
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"  # a refusal comes before Redis is asked (503)
    Game.objects.filter(pk=tally.pk).update(public=False)
    bump_version(tally)

    @async_to_sync
    async def run():
        visitor = await _open(AsyncClient(), f"game={tally.pk}")
        visitor_named = await _open(AsyncClient(), f"game={tally.pk}&user=1")
        member = await _open(await _logged_in(charlie), f"game={tally.pk}")
        nameless = await _open(AsyncClient(), "game=99999")
        garbled = await _open(AsyncClient(), "game=1x")
        return [r.status_code for r in (visitor, visitor_named, member, nameless, garbled)]

    # A game closed to visitors is open to every member (the page's own rule): charlie passes the check.
    assert client.get(f"/games/{tally.pk}/").status_code == 404
    client.force_login(charlie)
    assert client.get(f"/games/{tally.pk}/").status_code == 200
    assert run() == [404, 404, 503, 404, 404]


def test_with_push_off_or_under_wsgi_the_stream_says_no_content_and_the_page_polls(settings, client, tally):
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"
    # gunicorn (WSGI) would hold a worker per open stream: it answers at once, as with push off.
    assert client.get(f"/events/?game={tally.pk}").status_code == 204
    settings.GENIUS_PUSH_BACKEND = "off"

    @async_to_sync
    async def run():
        return (await _open(AsyncClient(), f"game={tally.pk}")).status_code

    assert run() == 204


@pytest.mark.services
def test_the_stream_sends_the_current_version_at_once_to_a_page_behind(push_redis, tally, alice):
    bump_version(tally)
    tally.refresh_from_db()

    @async_to_sync
    async def run():
        client = await _logged_in(alice)
        behind = await _open(client, f"game={tally.pk}&v={tally.version - 1}-ptoken")
        behind_chunks = await _chunks(behind, 2)
        await _close(behind)
        level = await _open(client, f"game={tally.pk}", **{"Last-Event-ID": str(tally.version)})
        level_chunks = await _chunks(level, 2)
        await _close(level)
        return behind, behind_chunks, level_chunks

    behind, behind_chunks, level_chunks = run()
    assert behind["Content-Type"].startswith("text/event-stream")
    assert "no-cache" in behind["Cache-Control"] and behind["X-Accel-Buffering"] == "no"
    assert behind_chunks[0].startswith("retry: ")
    assert behind_chunks[1] == (
        f'id: {tally.version}\nevent: version\ndata: {{"game":{tally.pk},"v":{tally.version}}}\n\n'
    )
    # A page that has the version is sent nothing but the ping, which says the version and, to a player,
    # her private token (its safety net).
    token = pagecache.poll_token(tally, Viewer(role="player", user=alice))
    assert (
        level_chunks[1] == f'event: ping\ndata: {{"game":{tally.pk},"v":{tally.version},"t":"{token}"}}\n\n'
    )


@pytest.mark.services
def test_the_stream_relays_a_move_and_private_news_with_ids_and_numbers_only(
    push_redis, tally, alice, bob, django_capture_on_commit_callbacks
):
    tally.refresh_from_db()
    seen = {}

    def move():
        with django_capture_on_commit_callbacks(execute=True):
            bump_version(tally)
            pagecache.private_changed(tally.pk, [alice.pk])
        # What no event may carry: whatever else a message holds is dropped on the way.
        live_push.send([(live_push.channel("user", alice.pk), {"event": "mine", "game": tally.pk, "x": "s"})])

    @async_to_sync
    async def run():
        client = await _logged_in(alice)
        response = await _open(client, f"game={tally.pk}&v={tally.version}")
        await _chunks(response, 1)  # retry: the stream is open and listening
        await sync_to_async(move)()
        seen["alice"] = "".join(await _chunks(response, 4))  # version, counts (she is seated), mine, mine
        await _close(response)
        other = await _open(await _logged_in(bob), f"game={tally.pk}&v={tally.version + 1}")
        await _chunks(other, 1)
        await sync_to_async(pagecache.private_changed)(tally.pk, [alice.pk])
        await sync_to_async(live_push.send)(
            [(live_push.channel("user", alice.pk), {"event": "mine", "game": tally.pk})]
        )
        seen["bob"] = (await _chunks(other, 1))[0]
        await _close(other)

    run()
    tally.refresh_from_db()
    assert "event: version" in seen["alice"] and f'"v":{tally.version}' in seen["alice"]
    assert seen["alice"].count("event: mine") == 2 and seen["alice"].count("event: counts") == 1
    for body in _bodies(seen["alice"]):
        assert set(body) <= {"game", "v", "season"} and all(type(v) is int for v in body.values())
    # Another player's private news never reaches bob's stream: the next thing on it is the ping.
    token = pagecache.poll_token(tally, Viewer(role="player", user=bob))
    assert seen["bob"] == f'event: ping\ndata: {{"game":{tally.pk},"v":{tally.version},"t":"{token}"}}\n\n'


@pytest.mark.services
def test_a_lost_pubsub_connection_ends_the_streams_and_the_next_one_catches_up(
    push_redis, tally, alice, django_capture_on_commit_callbacks
):
    tally.refresh_from_db()
    admin = redis.Redis.from_url(push_redis)

    def kill_the_hubs_connection():
        name = live_push.channel("hub", os.getpid())
        ids = [c["id"] for c in admin.client_list() if c.get("name") == name]  # ours only: a shared Redis
        assert ids
        for ident in ids:
            admin.client_kill_filter(_id=ident)
        with django_capture_on_commit_callbacks(execute=True):
            bump_version(tally)  # published while no stream of this process can hear it

    @async_to_sync
    async def run():
        client = await _logged_in(alice)
        first = await _open(client, f"game={tally.pk}&v={tally.version}")
        await _chunks(first, 1)
        await sync_to_async(kill_the_hubs_connection)()
        with pytest.raises(StopAsyncIteration):  # ended: the browser reconnects
            while True:
                await asyncio.wait_for(anext(first.streaming_content), 3)
        await _close(first)
        again = await _open(client, f"game={tally.pk}", **{"Last-Event-ID": str(tally.version)})
        caught_up = await _chunks(again, 2)
        await _close(again)
        return again.status_code, caught_up

    status, caught_up = run()
    tally.refresh_from_db()
    assert status == 200
    assert f'"v":{tally.version}' in caught_up[1], "the move made during the break is sent on reconnecting"


@pytest.mark.services
def test_streams_per_user_are_capped(push_redis, settings, tally, alice):
    settings.GENIUS_STREAMS_PER_USER = 2

    @async_to_sync
    async def run():
        client = await _logged_in(alice)
        first = await _open(client, f"game={tally.pk}")
        second = await _open(client, "")
        third = await _open(client, f"game={tally.pk}")
        await _close(first)
        fourth = await _open(client, f"game={tally.pk}")
        for response in (second, fourth):
            await _close(response)
        return [r.status_code for r in (first, second, third, fourth)]

    assert run() == [200, 200, 429, 200]


# --- the page ---------------------------------------------------------------------------------------------


def test_the_game_page_opens_the_stream_and_keeps_a_slow_safety_net_poll(
    settings, client, tally, alice, django_capture_on_commit_callbacks
):
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"
    settings.GENIUS_STREAM_SAFETY_POLL_SECONDS = 45
    client.force_login(alice)
    page = client.get(f"/games/{tally.pk}/").content.decode()
    live = re.search(r'<div id="live"[^>]*>', page).group(0)
    assert f'data-stream="/events/?game={tally.pk}"' in live
    assert 'data-safety-poll="45"' in live and f'data-game="{tally.pk}"' in live
    # The game's own interval stays the poll's (the page falls back to it while the stream is down), and an
    # event's "refresh" fetches at once.
    assert re.search(r'hx-trigger="every \d+s, refresh"', live)
    settings.GENIUS_PUSH_BACKEND = "off"  # no push: no stream, and the poll as before
    with django_capture_on_commit_callbacks(execute=True):
        bump_version(tally)  # a body rendered afresh (the page cache keeps them per version)
    page = client.get(f"/games/{tally.pk}/").content.decode()
    live = re.search(r'<div id="live"[^>]*>', page).group(0)
    assert "data-stream" not in live and "data-safety-poll" not in live


def test_the_chat_and_home_pages_follow_the_users_stream(settings, client, tally, alice, bob):
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"
    client.force_login(alice)
    a, b = seat_of(tally, alice).number, seat_of(tally, bob).number
    chat = client.get(f"/games/{tally.pk}/chats/{min(a, b)}-{max(a, b)}/").content.decode()
    part = re.search(r'<section class="card" id="chat-messages"[^>]*>', chat).group(0)
    assert 'data-stream="/events/"' in part and 'data-follow="chat"' in part and "every 2s, refresh" in part
    assert 'data-safety-poll="45"' in part
    home = client.get("/").content.decode()
    part = re.search(r'<section class="card awaiting"[^>]*>', home).group(0)
    assert 'data-stream="/events/"' in part and 'data-follow="counts mine"' in part
    settings.GENIUS_PUSH_BACKEND = "off"
    assert "data-stream" not in client.get("/").content.decode()


@pytest.mark.services
def test_streams_carry_no_canary_and_each_users_news_reaches_that_user_alone(
    push_redis, season, hank, alice, bob, charlie, make_user, django_capture_on_commit_callbacks
):
    # The leak crawl (tests/proof/test_no_leaks.py) opens every game's stream as every viewer; here one
    # game's streams while a reveal and a pair chat move, and who hears which news.
    from games.platform.kit import Reveal
    from games.platform.services import games as game_services
    from games.platform.services.events import events_write

    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob, charlie):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    dora = make_user("dora")  # a member with no seat: a spectator
    viewers = {"alice": alice, "bob": bob, "charlie": charlie, "hank": hank, "dora": dora, "visitor": None}
    heard = {}

    def secrets():
        seats = {s.user_id: s for s in game.seats.all()}
        with django_capture_on_commit_callbacks(execute=True):
            events_write(game=game, events=[Reveal(seats[alice.pk].number, "CANARY-STREAM-REVEAL")])
            pagecache.private_changed(game.pk, [alice.pk])
        with django_capture_on_commit_callbacks(execute=True):
            chat_post(
                game=game, author_seat=seats[alice.pk], other_seat=seats[bob.pk], text="CANARY-STREAM-CHAT"
            )

    async def gather(response, seconds: float = 1.5) -> str:
        out, until = [], time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            try:
                out.append((await asyncio.wait_for(anext(response.streaming_content), left)).decode())
            except TimeoutError:
                break
        return "".join(out)

    @async_to_sync
    async def run():
        opened = {}
        for label, user in viewers.items():
            client = await _logged_in(user) if user is not None else AsyncClient()
            opened[label] = await _open(client, f"game={game.pk}&v={game.version}")
            assert opened[label].status_code == 200, label
            await _chunks(opened[label], 1)  # retry: listening
        await sync_to_async(secrets)()
        texts = await asyncio.gather(*(gather(response) for response in opened.values()))
        heard.update(zip(opened, texts, strict=True))
        for response in opened.values():
            await _close(response)

    run()
    for label, text in heard.items():
        assert "CANARY" not in text, label
        for kind, body in _events(text):
            # A spectator's stream carries the public live part itself (checked for canaries above).
            numbers = {k: v for k, v in body.items() if not (kind == "part" and k == "html")}
            assert set(numbers) <= {"game", "v", "season"} and all(
                type(v) is int for v in numbers.values()
            ), label
    assert {kind for kind, _ in _events(heard["dora"]) + _events(heard["visitor"])} == {"part"}
    assert "part" not in {
        kind for label in ("alice", "bob", "charlie", "hank") for kind, _ in _events(heard[label])
    }
    events = {label: set(re.findall(r"^event: (\w+)$", text, re.MULTILINE)) for label, text in heard.items()}
    assert {"mine", "chat"} <= events["alice"] and "chat" in events["bob"]
    assert "mine" in events["hank"], "the hosts hear that a player's private part moved"
    for label in ("charlie", "dora", "visitor"):
        assert not {"mine", "chat"} & events[label], f"{label} heard another user's news"
    # A seated player hears "counts" as the game's public version moves (what awaits them may have moved),
    # once for each version every viewer hears: nothing private. Those with no seat hear none.
    assert heard["charlie"].count("event: counts") == heard["charlie"].count("event: version") > 0
    assert "counts" not in events["dora"] | events["visitor"]
