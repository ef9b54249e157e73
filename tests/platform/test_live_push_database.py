"""Server push with no Redis (issue 32.3, docs/live.md): the messages go through the database's push table,
and one poller per web process relays them to its streams as Redis's are relayed.

The streams run as in test_live_push.py (AsyncClient under async_to_sync): the poller's queries come back
to the test's thread, inside the test's transaction, except in the test whose writer is another thread
with a connection of its own (a transactional test: what it commits, the poller reads).
"""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection, transaction
from django.test import AsyncClient
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.platform import live_push, push_sources, push_table
from games.platform.models import Game, PushMessage
from games.platform.services.events import bump_version
from games.platform.stream import hub
from tests.live_support import close_stream as _close
from tests.live_support import logged_in as _logged_in
from tests.live_support import open_stream as _open
from tests.live_support import stream_bodies as _bodies
from tests.live_support import stream_chunks as _chunks

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_push(settings):
    settings.GENIUS_PUSH_URL = ""
    settings.GENIUS_PUSH_BACKEND = ""  # derived: no Redis named, so the database
    settings.GENIUS_STREAM_PING_SECONDS = 0.3
    settings.GENIUS_PUSH_POLL_SECONDS = 0.05
    assert live_push.backend() == "database"


async def _heard(response, seconds: float = 15.0, until: str = "") -> str:
    """What the stream sent within `seconds`, or up to the first chunk holding `until`."""
    out, loop = [], asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            chunk = (await asyncio.wait_for(anext(response.streaming_content), left)).decode()
        except TimeoutError:
            break
        out.append(chunk)
        if until and until in chunk:
            break
    return "".join(out)


def test_a_move_is_written_after_the_commit_and_a_rolled_back_one_never(
    table_push, tally, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            bump_version(tally)
            raise RuntimeError("rolled back")
    assert not PushMessage.objects.exists()
    with django_capture_on_commit_callbacks(execute=False) as owed:
        bump_version(tally)
    assert owed and not PushMessage.objects.exists(), "nothing is written inside the transaction"
    for callback in owed:
        callback()
    tally.refresh_from_db()
    row = PushMessage.objects.get(channel=live_push.channel("game", tally.pk))  # the seats hear `counts` too
    assert row.payload == {"event": "version", "game": tally.pk, "v": tally.version}
    seated = {live_push.channel("user", uid) for uid in tally.seats.values_list("user_id", flat=True)}
    assert set(PushMessage.objects.exclude(pk=row.pk).values_list("channel", flat=True)) == seated


def test_old_messages_are_deleted_by_the_next_writer(table_push, settings, tally, monkeypatch):
    live_push.send([(live_push.channel("game", tally.pk), {"event": "version", "game": tally.pk, "v": 1})])
    PushMessage.objects.update(
        created=timezone.now() - timedelta(seconds=settings.GENIUS_PUSH_KEEP_SECONDS + 1)
    )
    monkeypatch.setattr(push_table, "_pruned_at", 0.0)  # this process has not pruned for a while
    live_push.send([(live_push.channel("game", tally.pk), {"event": "version", "game": tally.pk, "v": 2})])
    assert [row.payload["v"] for row in PushMessage.objects.all()] == [2], "the newest row stays"


@pytest.mark.django_db(transaction=True)
def test_a_move_committed_by_another_connection_reaches_the_stream(table_push, tally, alice):
    tally.refresh_from_db()

    def move_elsewhere():
        # Another thread: a connection of its own, which commits for real (as another process would).
        def move():
            try:
                with transaction.atomic():
                    bump_version(Game.objects.get(pk=tally.pk))
            finally:
                connection.close()

        writer = threading.Thread(target=move)
        writer.start()
        writer.join(30)

    @async_to_sync
    async def run():
        response = await _open(await _logged_in(alice), f"game={tally.pk}&v={tally.version}")
        assert response.status_code == 200
        await _chunks(response, 1)  # retry: the stream is open and listening
        await sync_to_async(move_elsewhere)()
        heard = await _heard(response, until="event: version")
        await _close(response)
        return heard

    heard = run()
    tally.refresh_from_db()
    assert f'id: {tally.version}\nevent: version\ndata: {{"game":{tally.pk},"v":{tally.version}}}' in heard


def test_one_poll_is_one_query_however_many_streams_listen(table_push, settings, tally, alice, bob, hank):
    settings.GENIUS_PUSH_POLL_SECONDS = 600  # no poll runs by itself: the test polls, and counts

    async def counted_poll() -> tuple[int, list]:
        counting = CaptureQueriesContext(connection)
        await sync_to_async(counting.__enter__)()  # in the test's thread, whose connection the poll uses
        try:
            relayed = await hub.source.poll()
        finally:
            await sync_to_async(counting.__exit__)(None, None, None)
        return await sync_to_async(lambda: len(counting.captured_queries))(), relayed

    def move():
        live_push.send(
            [(live_push.channel("game", tally.pk), {"event": "version", "game": tally.pk, "v": 9})]
        )

    @async_to_sync
    async def run():
        opened = [await _open(await _logged_in(alice), f"game={tally.pk}")]
        await sync_to_async(move)()
        one = await counted_poll()
        for user in (alice, bob, hank, None, None, None, None, None, None, None):
            client = await _logged_in(user) if user is not None else AsyncClient()
            opened.append(await _open(client, f"game={tally.pk}"))
        assert [r.status_code for r in opened] == [200] * 11
        await sync_to_async(move)()
        await sync_to_async(move)()
        eleven = await counted_poll()
        idle = await counted_poll()
        for response in opened:
            await _close(response)
        return one, eleven, idle

    one, eleven, idle = run()
    assert one[0] == 1 and len(one[1]) == 1
    assert eleven[0] == 1 and len(eleven[1]) == 2, "eleven streams, two new messages: still one query"
    assert idle == (1, []), "nothing new: the same one query, nothing relayed again"


def test_access_is_checked_as_with_redis_and_a_user_hears_only_their_own_channel(
    table_push, tally, alice, bob, charlie
):
    Game.objects.filter(pk=tally.pk).update(public=False)

    def news():
        live_push.send([(live_push.channel("user", bob.pk), {"event": "mine", "game": tally.pk})])
        live_push.send([(live_push.channel("user", alice.pk), {"event": "chat", "game": tally.pk})])

    @async_to_sync
    async def run():
        visitor = await _open(AsyncClient(), f"game={tally.pk}")
        visitor_named = await _open(AsyncClient(), f"game={tally.pk}&user={bob.pk}")
        nameless = await _open(AsyncClient(), "game=99999")
        member = await _open(await _logged_in(charlie), f"game={tally.pk}")
        hers = await _open(await _logged_in(alice), f"user={bob.pk}")  # a client cannot name a user
        statuses = [r.status_code for r in (visitor, visitor_named, nameless, member, hers)]
        await _chunks(hers, 1)
        await sync_to_async(news)()
        heard = await _heard(hers, seconds=3)
        for response in (member, hers):
            await _close(response)
        return statuses, heard

    statuses, heard = run()
    assert statuses == [404, 404, 404, 200, 200]
    assert "event: chat" in heard and [body for body in _bodies(heard) if body] == [{"game": tally.pk}]
    assert "event: mine" not in heard, "bob's news never reaches alice's stream"


def test_a_row_committed_late_with_a_lower_id_is_still_relayed_and_a_lost_one_given_up(monkeypatch):
    # PostgreSQL hands out ids before the commit: row 11 can become visible after row 12.
    clock = [100.0]
    monkeypatch.setattr(push_sources.time, "monotonic", lambda: clock[0])
    source = push_sources.TableSource()
    source._start_after(10)
    row = lambda ident: (ident, "c", {"n": ident})  # noqa: E731
    assert source.take([row(12)]) == [("c", {"n": 12})] and source.last == 10
    assert source.take([row(11), row(12)]) == [("c", {"n": 11})] and source.last == 12
    assert source.take([row(15)]) == [("c", {"n": 15})] and source.last == 12
    clock[0] += push_sources.GAP_WAIT_SECONDS
    assert source.take([row(15)]) == [] and source.last == 15, "13 and 14 never came: given up"
    assert source.take([row(14), row(16)]) == [("c", {"n": 16})], "nothing at or below `last` again"


def test_polls_that_fail_keep_the_streams_open_and_lose_nothing(
    table_push, tally, alice, monkeypatch, caplog
):
    from django.db import OperationalError

    real_after, failures = push_table.after, []

    def after_failing_three_times(last):
        if len(failures) < 3:
            failures.append(last)
            raise OperationalError("database is locked")
        return real_after(last)

    monkeypatch.setattr(push_table, "after", after_failing_three_times)
    tally.refresh_from_db()

    @async_to_sync
    async def run():
        response = await _open(await _logged_in(alice), f"game={tally.pk}&v={tally.version}")
        await _chunks(response, 1)
        await sync_to_async(live_push.send)(
            [(live_push.channel("game", tally.pk), {"event": "version", "game": tally.pk, "v": 77})]
        )
        heard = await _heard(response, until="event: version")
        await _close(response)
        return heard

    heard = run()
    assert len(failures) == 3 and f'data: {{"game":{tally.pk},"v":77}}' in heard
    assert "cannot be read" in caplog.text and "can be read again" in caplog.text
