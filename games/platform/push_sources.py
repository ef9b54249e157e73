"""Where a web process hears the live pages' messages: Redis pub/sub, or the database's push table.

The Hub (games/platform/stream.py) holds one source per process and fans what it hears out to its
streams; only the source differs between the two channels (live_push.backend()). A source is opened once,
told which channels gained their first stream (`listen`) and lost their last (`forget`), and read as one
stream of (channel, message). Anything it raises ends every stream (their pages reconnect and catch up).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import Error
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from . import live_push, push_table

log = logging.getLogger(__name__)

# A row id the poller has not seen while it saw later ones (PostgreSQL hands out ids before the commit, so a
# later id can commit first) is waited for this long, then taken as never coming (an insert rolled back).
GAP_WAIT_SECONDS = 5.0


class SourceDown(Exception):
    """The channel does not answer: new streams are refused (503), and the pages poll."""


def for_this_site():
    return TableSource() if live_push.backend() == "database" else RedisSource()


class RedisSource:
    """One pub/sub connection, subscribed to a channel while a stream of this process listens to it."""

    def __init__(self):
        self.redis: Redis | None = None
        self.pubsub = None

    async def open(self) -> None:
        try:
            self.redis = Redis.from_url(
                settings.GENIUS_PUSH_URL,
                socket_connect_timeout=settings.GENIUS_REDIS_TIMEOUT,
                # No silent reconnect: what was published meanwhile would be lost to the open streams. A
                # lost connection ends them instead; each reconnects and is sent what it missed.
                retry=Retry(NoBackoff(), 0),
                # CLIENT LIST tells whose it is. Redis refuses a name with a space (a prefix may have one),
                # and a refused name would look like a Redis that does not answer.
                client_name="".join(live_push.channel("hub", os.getpid()).split()),
            )
            self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            # Subscribed from the start, so the reader always has a connection to read from.
            await self.pubsub.subscribe(live_push.channel("hub", 0))
        except (RedisError, OSError) as exc:
            raise SourceDown("Redis does not answer") from exc

    async def listen(self, names: list[str]) -> None:
        try:
            await self.pubsub.subscribe(*names)
        except (RedisError, OSError) as exc:
            raise SourceDown("Redis did not take a subscription") from exc

    async def forget(self, names: list[str]) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.pubsub.unsubscribe(*names)

    async def messages(self):
        async for message in self.pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
            except ValueError:
                continue
            yield message["channel"].decode(), data

    async def close(self) -> None:
        pubsub, redis, self.pubsub, self.redis = self.pubsub, self.redis, None, None
        with contextlib.suppress(Exception):
            if pubsub is not None:
                await pubsub.aclose()
        with contextlib.suppress(Exception):
            if redis is not None:
                await redis.aclose()


class TableSource:
    """The push table, read every GENIUS_PUSH_POLL_SECONDS while a stream of this process listens: one query
    per poll for all the process's streams. A poll that fails is tried again at the next: the rows wait in
    the table, so nothing is lost and the streams stay open."""

    def __init__(self):
        self.heard: set[str] = set()
        self.last: int | None = None  # every row up to this id was relayed (or given up on); None: no row yet
        self.relayed: set[int] = set()  # ids past `last` already relayed
        self.gaps: dict[int, float] = {}  # ids past `last` not seen yet, since when (monotonic)
        self.failing = False

    async def open(self) -> None:
        """Nothing to connect to: the first `listen` starts from the newest row."""

    async def listen(self, names: list[str]) -> None:
        if not self.heard:
            # Nobody listened, so nothing was read meanwhile: start from the newest row. This runs before
            # the stream reads its game's version, so a move committed after that read comes after this row.
            try:
                self._start_after(await sync_to_async(push_table.newest)())
            except Error as exc:
                raise SourceDown("the database does not answer") from exc
        self.heard.update(names)

    async def forget(self, names: list[str]) -> None:
        self.heard.difference_update(names)

    async def messages(self):
        while True:
            await asyncio.sleep(settings.GENIUS_PUSH_POLL_SECONDS)
            if self.heard:
                for item in await self.poll():
                    yield item

    async def poll(self) -> list[tuple[str, dict]]:
        """One query: the rows this process has not relayed yet, as (channel, message)."""
        try:
            rows = await sync_to_async(push_table.after)(self.last or 0)
        except Error:
            if not self.failing:
                log.warning("Live streams: the push table cannot be read; trying again at each poll")
            self.failing = True
            return []
        if self.failing:
            log.warning("Live streams: the push table can be read again")
            self.failing = False
        return self.take(rows)

    def take(self, rows: list[tuple[int, str, dict]]) -> list[tuple[str, dict]]:
        """The rows not relayed before, and `last` moved past every id settled: relayed, or missing longer
        than GAP_WAIT_SECONDS."""
        now = time.monotonic()
        if self.last is None:  # the table was empty when the first stream came: every row is new
            if not rows:
                return []
            self.last = rows[0][0] - 1
        fresh = []
        for ident, name, data in rows:
            if ident > self.last and ident not in self.relayed:
                self.relayed.add(ident)
                self.gaps.pop(ident, None)
                fresh.append((name, data))
        top = max(self.relayed, default=self.last)
        for ident in range(self.last + 1, top):
            if ident not in self.relayed:
                self.gaps.setdefault(ident, now)
        while self.last < top:
            following = self.last + 1
            if following in self.relayed:
                self.relayed.discard(following)
            elif now - self.gaps.get(following, now) >= GAP_WAIT_SECONDS:
                del self.gaps[following]
            else:
                break
            self.last = following
        return fresh

    def _start_after(self, newest: int) -> None:
        if not newest:  # an empty table: the first row read is the first new one
            return
        if self.last is None or newest > self.last:
            self.last = newest
            self.relayed = {ident for ident in self.relayed if ident > newest}
            self.gaps = {ident: since for ident, since in self.gaps.items() if ident > newest}

    async def close(self) -> None:
        """Nothing held: the poll's connection is its thread's, as a view's is."""
