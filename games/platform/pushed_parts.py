"""What a spectator's stream carries besides "moved" (docs/live.md): the game's public live part itself, and
on each ping the game's version.

A seated player's page fetches its own part when told the version moved: it holds what only they see. A
spectator's part is the same for every spectator (one body for visitors, one for logged-in spectators), so
the stream sends it: a thousand spectators cost one render and a thousand writes, not a thousand fetches.
Per process, each (game, kind of spectator) is rendered once per version, by the page cache's
`render_once` (one render across processes), and written once per zone (its times in the viewer's zone).

The ping carries the game's version, read once per game per ping for all the process's streams, and on a
player's (or a host's) stream their private token, what their live part's `v` carries after the version: a
page that missed an event (a message lost between a commit and this process) sees it is behind and fetches.
So the safety net costs a game page no request while its stream is heard.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time

from asgiref.sync import sync_to_async
from django.db import connections

from . import pagecache
from .game_parts import SpectatorsPart, spectators_live
from .models import Game
from .registry import Viewer
from .versions import game_row
from .zones import fill_times, zone_name


def close_connections() -> None:
    """This thread's database connections, closed: no request of Django's ends them in a stream's thread or
    in the thread the streams' shared work runs in. Not one inside a transaction (the tests' streams run
    inside the test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _render(game_id: int, request, logged_in: bool) -> SpectatorsPart | None:
    try:
        return spectators_live(game_id, request, logged_in)
    finally:
        close_connections()


def _token(game_id: int, role: str, user) -> str | None:
    """What a player's (or a host's) live part carries after its version: their private stamps' digest."""
    try:
        row = game_row(game_id)
        if row is None:
            return None
        return pagecache.poll_token(Game(pk=game_id, **row), Viewer(role=role, user=user))
    finally:
        close_connections()


def _version(game_id: int) -> int | None:
    try:
        row = game_row(game_id)
    finally:
        close_connections()
    return None if row is None else row["version"]


class Parts:
    """This process's spectators' parts and game versions, each asked for once whatever the streams."""

    def __init__(self):
        self.rendering: dict[tuple[int, bool], tuple[int, asyncio.Future]] = {}  # (game, logged in)
        self.written_parts: dict[tuple[int, bool, str], tuple[int, bytes]] = {}  # (game, logged in, zone)
        self.fresh: dict[tuple, tuple[float, asyncio.Future]] = {}  # (game, what) -> (when asked, its future)

    async def part(self, game_id: int, version: int, logged_in: bool, request) -> SpectatorsPart | None:
        """The game's public part at `version` (or later) for visitors or logged-in spectators, rendered
        once (`request`: a spectator's of that kind); None when it can't be sent (`spectators_live`). A
        render that failed raises, and the next ask renders again."""
        key = (game_id, logged_in)
        held = self.rendering.get(key)
        if held is None or held[0] < version:
            held = self.rendering[key] = (version, _started(_render, game_id, request, logged_in))
        future = held[1]
        try:
            return await asyncio.shield(future)
        except Exception:
            if self.rendering.get(key, (0, None))[1] is future:
                del self.rendering[key]
            raise

    def written(self, part: SpectatorsPart, game_id: int, logged_in: bool, zone) -> bytes:
        """The `part` event as sent, its times in `zone`: written once per zone and version."""
        key = (game_id, logged_in, zone_name(zone))
        written = self.written_parts.get(key)
        if written is None or written[0] != part.version:
            body = {"game": game_id, "v": part.version, "html": fill_times(part.marked, zone)}
            text = f"id: {part.version}\nevent: part\ndata: {json.dumps(body, separators=(',', ':'))}\n\n"
            written = (part.version, text.encode())
            self.written_parts[key] = written
        return written[1]

    async def version(self, game_id: int, fresh_for: float) -> int | None:
        """The game's version as of at most `fresh_for` seconds ago (one read for all the streams)."""
        return await self._fresh((game_id, "version"), fresh_for, _version, game_id)

    async def token(self, game_id: int, role: str, user, fresh_for: float) -> str | None:
        """A player's private token (a host's: the game's hosts'), as of at most `fresh_for` seconds ago."""
        key = (game_id, "token", role, user.pk if role == "player" else None)
        return await self._fresh(key, fresh_for, _token, game_id, role, user)

    async def _fresh(self, key: tuple, fresh_for: float, step, *args):
        """`step(*args)` as read at most `fresh_for` seconds ago, once for every stream that asks."""
        held = self.fresh.get(key)
        if held is None or time.monotonic() - held[0] > fresh_for or (held[1].done() and held[1].exception()):
            held = self.fresh[key] = (time.monotonic(), _started(step, *args))
        return await asyncio.shield(held[1])

    def forget(self, game_id: int) -> None:
        """No stream of this process follows the game any more."""
        for kept in (self.rendering, self.written_parts, self.fresh):
            for key in [key for key in kept if key[0] == game_id]:
                del kept[key]


def _started(step, *args) -> asyncio.Future:
    """`step(*args)` set going in the process's one shared thread: the future of its result. In a context of
    its own, so not in a stream's request thread (released once the stream opened: stream._release_thread)."""
    future = asyncio.get_running_loop().create_future()
    work = sync_to_async(step)(*args)
    asyncio.get_running_loop().create_task(_settle(future, work), context=contextvars.Context())
    return future


async def _settle(future: asyncio.Future, work) -> None:
    try:
        result = await work
    except Exception as exc:  # every waiter hears it; the next ask tries again
        if not future.done():
            future.set_exception(exc)
        return
    if not future.done():
        future.set_result(result)
