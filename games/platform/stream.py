"""GET /events/: a page's event stream (Server-Sent Events), served by an async view under ASGI.

Notify-then-fetch (docs/live.md): the stream says only that something moved, with ids and numbers
(`version` {"game", "v"}, `mine` {"game"} or {"season"}, `chat` {"game"}, `counts` {}); the page then
fetches what moved through the views it already polls, which check who may see what. A spectator's stream
is sent the game's public live part itself instead of `version` (`part` {"game", "v", "html"}: the body
their fetch would bring, pushed_parts.py), and every `ping` says the game's version. A stream hears:
- `game=G`: the game's public channel, if the user may see the game exactly as its page decides
  (`viewer_or_404`: a game closed to them is a 404), and its hosts' channel if they host it;
- a logged-in user: their own channel, implied by the session (a client cannot name a user).
On connect it sends `retry:` and, at once, the game's version if it is above the one the page has (`v=` or
the Last-Event-ID header of a reconnect): an update is never lost, only late.

Each process holds ONE channel source for all its streams (the Hub): a Redis pub/sub connection,
subscribed to a channel while some stream of this process listens to it, or with no Redis one poller of the
database's push table (games/platform/push_sources.py). It fans each message out to the streams' queues.
With Redis away the streams end (the pages fall back to their own poll) and new ones are refused (503) until
it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
from collections import defaultdict
from dataclasses import dataclass

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse

from . import live_push, push_sources
from .models import Game
from .observation import viewer_or_404
from .people import zone_of
from .pushed_parts import Parts, close_connections
from .versions import game_row

log = logging.getLogger(__name__)

QUEUE_SIZE = 64  # messages a stream may fall behind by before it is closed (the page reconnects, catching up)
VISITOR_STREAMS_FACTOR = 8  # visitors with no session share an address (a household, a school): more of them


class Listener:
    """One open stream's inbox: messages (dicts), or a spectator's part ready to write (bytes)."""

    def __init__(self, channels: list[str], watching=None):
        self.channels = channels
        self.spectator = watching if watching is not None and watching.role == "spectator" else None
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.closed = False
        self.released = False

    def deliver(self, item) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # too slow a reader: it reconnects and catches up from its version
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)


class Hub:
    """This process's one channel source (Redis pub/sub, or the push table's poller), shared by all its
    streams: it fans each message out to the queues of the streams listening to its channel."""

    def __init__(self):
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self.streams: dict[str, int] = defaultdict(int)  # open streams per owner (user, session or address)
        self.loop = None
        self.source = None
        self.reader: asyncio.Task | None = None
        self.up = False
        self.starting: asyncio.Lock | None = None
        self.parts = Parts()  # the spectators' parts and the games' versions its streams are sent

    async def join(self, listener: Listener) -> bool:
        """Listen to the listener's channels; False when the channel does not answer (the page polls)."""
        if not await self._started():
            return False
        new = [name for name in listener.channels if not self.listeners[name]]
        for name in listener.channels:
            self.listeners[name].add(listener)
        if new:
            try:
                await self.source.listen(new)
            except push_sources.SourceDown:
                self.leave(listener)
                self._down("subscribing")
                return False
        return True

    def leave(self, listener: Listener) -> None:
        gone = []
        for name in listener.channels:
            here = self.listeners.get(name)
            if here is not None:
                here.discard(listener)
                if not here:
                    del self.listeners[name]
                    gone.append(name)
                    if name.startswith(live_push.channel("game", "")):
                        self.parts.forget(int(name.rpartition(":")[2]))
        if gone and self.up and self.source is not None and not self.loop.is_closed():
            self.loop.create_task(self._forget(gone))

    async def _forget(self, names: list[str]) -> None:
        names = [name for name in names if name not in self.listeners]  # unless someone came back meanwhile
        if names and self.source is not None:
            await self.source.forget(names)

    def here(self) -> None:
        """On this process's event loop. A new loop (tests run several) holds nothing of the old one's."""
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self.__init__()
            self.loop = loop

    async def _started(self) -> bool:
        self.here()
        loop = self.loop
        if self.up:
            return True
        if self.starting is None:
            self.starting = asyncio.Lock()
        async with self.starting:  # the first streams of a process arrive together: one source
            return self.up or await self._connect(loop)

    async def _connect(self, loop) -> bool:
        source = push_sources.for_this_site()
        try:
            await source.open()
        except push_sources.SourceDown as down:
            log.warning("%s: live streams are refused, pages poll", down)
            await source.close()
            return False
        self.source = source
        self.up = True
        # In a context of its own, not the first stream's request's: the poller's queries must not run in
        # that request's thread, which ends with it.
        self.reader = loop.create_task(self._read(), context=contextvars.Context())
        return True

    async def _read(self) -> None:
        try:
            async for name, data in self.source.messages():
                listeners = list(self.listeners.get(name, ()))
                spectators = [one for one in listeners if one.spectator is not None]
                if spectators and data.get("event") == "version" and type(data.get("game")) is int:
                    # Their part is rendered first, while their streams sleep: a thousand streams woken to
                    # wait for one render slowed it (they share the process's one interpreter lock).
                    listeners = [one for one in listeners if one.spectator is None]
                    self.loop.create_task(self._parts_to(data, spectators), context=contextvars.Context())
                for listener in listeners:
                    listener.deliver(data)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("Lost the live channel: open streams end, their pages poll until they reconnect")
        self._down("reading")

    async def _parts_to(self, data: dict, spectators: list[Listener]) -> None:
        """Each spectator's stream is sent the game's public part at the message's version, or, where it
        can't be sent (pushed_parts), the message itself: their page fetches."""
        game_id, version = data["game"], data.get("v", 0)
        firsts = {}
        for listener in spectators:
            firsts.setdefault(listener.spectator.user_id is not None, listener.spectator.request)
        # Two web processes each render the kinds in another order (by their pid's parity): side by side,
        # one the visitors' part, the other the logged-in spectators', each then finding the other's kept in
        # the page cache (render_once) instead of rendering both in turn.
        kinds = sorted(firsts, key=lambda logged_in: (logged_in + os.getpid()) % 2)
        try:
            found = await asyncio.gather(
                *(self.parts.part(game_id, version, logged_in, firsts[logged_in]) for logged_in in kinds)
            )
        except Exception:
            log.warning(
                "Game %s's part for its spectators failed; their pages fetch it", game_id, exc_info=True
            )
            found = [None] * len(kinds)
        parts = dict(zip(kinds, found, strict=True))
        for listener in spectators:
            watching = listener.spectator
            part = parts[watching.user_id is not None]
            if part is None or watching.user_id in part.members:
                listener.deliver(data)
            else:
                listener.deliver(
                    self.parts.written(part, game_id, watching.user_id is not None, watching.zone)
                )

    def _down(self, doing: str) -> None:
        """The channel failed: every stream ends (its page falls back to polling, and reconnects)."""
        if not self.up:
            return
        self.up = False
        log.warning("Live streams: the channel failed while %s", doing)
        for here in list(self.listeners.values()):
            for listener in list(here):
                listener.close()
        self.listeners.clear()
        source, self.source = self.source, None
        if source is not None:
            asyncio.get_running_loop().create_task(source.close())


hub = Hub()


def _access(game_id: int | None, user) -> tuple[str | None, object]:
    """(the viewer's role, the zone they read times in) after the game page's own check; 404 if closed."""
    if game_id is None:
        return None, None
    row = game_row(game_id)
    if row is None or (not row["public"] and not user.is_authenticated):
        raise Http404("No such game.")
    viewer = viewer_or_404(Game(pk=game_id, **row), user)
    # A spectator is sent the public part, with its times in their zone (pushed_parts).
    return viewer.role, zone_of(user) if viewer.role == "spectator" else None


def _released(step):
    """`step` in the request's thread, then that thread's database connections closed: a stream opening
    holds one (the session's user, the access check) only while it reads. Held until the stream's first
    write, a burst of pages opening at once (a move announced to a thousand, who reload) ran the pool out:
    1,000 streams opening 200 at a time on two processes of 8 connections each had 21 refused."""

    def released(*args):
        try:
            return step(*args)
        finally:
            close_connections()

    return released


def _current(game_id: int) -> int | None:
    row = game_row(game_id)
    return None if row is None else row["version"]


def _number(text: str | None) -> int | None:
    text = (text or "").partition("-")[0]  # a page's `v` may carry its private token after a dash
    return int(text) if text.isdigit() and len(text) < 12 else None


def _owner(request, user) -> tuple[str, int]:
    """Who the cap on open streams counts, and their cap."""
    cap = settings.GENIUS_STREAMS_PER_USER
    if user.is_authenticated:
        return f"user:{user.pk}", cap
    if request.session.session_key:
        return f"session:{request.session.session_key}", cap
    return f"address:{request.META.get('REMOTE_ADDR', '')}", cap * VISITOR_STREAMS_FACTOR


def _event(data: dict) -> str:
    """The message as an SSE event: its kind, and its ids and numbers only (nothing else is relayed).
    A version event carries its number as the id, which a reconnecting browser sends back."""
    kind = data.get("event")
    if kind not in {"version", "mine", "chat", "counts"}:
        return ""
    # In one order whatever the channel's (PostgreSQL's jsonb keeps keys in an order of its own).
    body = {k: data[k] for k in ("game", "season", "v") if type(data.get(k)) is int}
    lines = f"id: {body['v']}\n" if kind == "version" and "v" in body else ""
    return f"{lines}event: {kind}\ndata: {json.dumps(body, separators=(',', ':'))}\n\n"


async def events(request):
    if request.method != "GET":
        return HttpResponse(status=405)
    if not live_push.enabled() or not isinstance(request, ASGIRequest):
        # Push off (GENIUS_PUSH_BACKEND=off): nothing to relay. Under WSGI (gunicorn) a stream would hold a
        # worker for as long as the page stays open: the proxy sends /events/ to the ASGI service
        # (docker-compose's `stream`). 204 tells EventSource not to reconnect; the page keeps its poll.
        return HttpResponse(status=204)
    user = await request.auser()
    game_id = _number(request.GET.get("game"))
    if request.GET.get("game") and game_id is None:
        raise Http404("No such game.")
    role, zone = await sync_to_async(_released(_access))(game_id, user)
    request.user = user  # what a spectator's part is rendered with (pushed_parts): read once, not again
    channels = []
    if game_id is not None:
        channels.append(live_push.channel("game", game_id))
        if role == "host":
            channels.append(live_push.channel("hosts", game_id))
    if user.is_authenticated:
        channels.append(live_push.channel("user", user.pk))
    if not channels:
        return HttpResponse("Nothing to follow here.", status=400, content_type="text/plain")
    owner, cap = _owner(request, user)
    hub.here()
    if hub.streams[owner] >= cap:
        answer = HttpResponse("Too many open live pages.", status=429, content_type="text/plain")
        answer["Retry-After"] = "30"
        return answer
    hub.streams[owner] += 1
    watching = Watching(role, request, zone, user.pk if user.is_authenticated else None)
    listener = Listener(channels, watching)
    try:
        joined = await hub.join(listener)
        # Read after subscribing: a move committed before the subscription is in this number.
        known = _number(request.headers.get("Last-Event-ID")) or _number(request.GET.get("v")) or 0
        current = (
            await sync_to_async(_released(_current))(game_id) if joined and game_id is not None else None
        )
    except BaseException:
        _closed(owner, listener)
        raise
    if not joined:
        _closed(owner, listener)
        answer = HttpResponse("Live updates are down; the page polls.", status=503, content_type="text/plain")
        answer["Retry-After"] = "10"
        return answer
    response = Stream(
        _relay(
            listener, owner, game_id, current if current is not None and current > known else None, watching
        ),
        content_type="text/event-stream",
    )
    response.release = lambda: _closed(owner, listener)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class Stream(StreamingHttpResponse):
    """The stream's answer: its slot is freed when it is closed, even if it was never read (the browser
    went before the first byte); the server closes every answer, in a thread of its own."""

    release = None

    def close(self):
        super().close()
        if self.release is not None:
            loop = hub.loop
            try:
                here = asyncio.get_running_loop()
            except RuntimeError:
                here = None
            if loop is None or here is loop or loop.is_closed():
                self.release()
            else:
                loop.call_soon_threadsafe(self.release)


def _closed(owner: str, listener: Listener) -> None:
    """A stream ended: its channels and its slot freed (once, however many ways it ends)."""
    if listener.released:
        return
    listener.released = True
    listener.closed = True
    hub.leave(listener)
    hub.streams[owner] -= 1
    if hub.streams[owner] <= 0:
        hub.streams.pop(owner, None)


def _forget_caches() -> None:
    """Under ASGI Django keeps a cache client per request (its handler follows the request's context),
    and with it a Redis connection for as long as the request lives: an open stream would hold one for
    hours, a thousand streams a thousand connections. Once the stream is open it needs none: this
    request's clients are dropped (their connections close), and the stream holds only the Hub's."""
    for alias in list(settings.CACHES):
        client = getattr(caches._connections, alias, None)
        if client is None:
            continue
        delattr(caches._connections, alias)
        pools = getattr(client.__dict__.get("_cache"), "_pools", {})  # Django's RedisCache's, if made
        for pool in list(pools.values()):
            with contextlib.suppress(Exception):
                pool.disconnect()


def _release_thread() -> None:
    """Django's ASGI handler gives each request a thread of its own for its sync code (the middleware's,
    the database's): asgiref's ThreadSensitiveContext, whose one-thread executor lives until the request
    ends. For a stream that is hours of an idle OS thread (its stack, its malloc arena): most of a
    stream's memory. Once the middleware is done, the executor is shut down (its thread ends when idle);
    the little sync work at the stream's end (closing the answer) gets a new one, which the handler shuts
    down as before. asgiref's own bookkeeping (3.13): without it, nothing is released."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    executors = getattr(SyncToAsync, "context_to_thread_executor", None)
    executor = executors.pop(context, None) if context is not None and executors is not None else None
    if executor is not None:
        executor.shutdown(wait=False)


@dataclass
class Watching:
    """Who the stream is for. A spectator is sent the public part itself (pushed_parts), rendered with
    their request, its times in their zone; a player's or a host's ping carries their private token."""

    role: str | None  # None: no game (a page following only the user's own news)
    request: object
    zone: object
    user_id: int | None


async def _relay(
    listener: Listener, owner: str, game_id: int | None, catch_up: int | None, watching: Watching
):
    try:
        # The middleware is done with the request (the session was read, and saved): what it held goes.
        # Its database connection closes now, in the request's own thread, whose the connections are, not
        # when the stream ends hours later (each open stream held one of PostgreSQL's few).
        _forget_caches()
        await sync_to_async(close_connections)()
        _release_thread()
        yield f"retry: {settings.GENIUS_STREAM_RETRY_MS}\n\n"
        if catch_up is not None:
            yield _event({"event": "version", "game": game_id, "v": catch_up})
        while True:
            try:
                item = await asyncio.wait_for(listener.queue.get(), settings.GENIUS_STREAM_PING_SECONDS)
            except TimeoutError:
                yield await _ping(game_id, watching)
                continue
            if item is None:  # the channel failed or the reader fell behind: the page reconnects
                return
            if type(item) is bytes:  # a spectator's part, written for them by the hub (Hub._parts_to)
                yield item
                continue
            text = _event(item)
            if text:
                yield text
    finally:
        _closed(owner, listener)


async def _ping(game_id: int | None, watching: Watching) -> str:
    """An event that keeps proxies from closing the stream and tells the page its stream is alive (a
    comment would not reach the page's script). On a game's stream it carries the game's version, and on a
    player's or a host's their private token (what their live part's `v` carries after the dash): a page
    that missed an event sees it is behind and fetches (its safety net, which so costs no request)."""
    said = {}
    if game_id is not None:
        try:
            said["v"] = await hub.parts.version(game_id, settings.GENIUS_STREAM_PING_SECONDS / 2)
            if watching.role in ("player", "host"):
                said["t"] = await hub.parts.token(
                    game_id, watching.role, watching.request.user, settings.GENIUS_STREAM_PING_SECONDS / 2
                )
        except Exception:
            log.warning("Game %s's version could not be read for the ping", game_id, exc_info=True)
            said = {}
        if said.get("v") is not None:
            said = {"game": game_id, **said}
        else:
            said = {}
    return f"event: ping\ndata: {json.dumps(said, separators=(',', ':'))}\n\n"
