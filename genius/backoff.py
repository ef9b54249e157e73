"""One back-off per Redis, shared by everything of this process that talks to it.

After a failure the process leaves that Redis alone for GENIUS_CACHE_RETRY_SECONDS, so an outage costs
each request (or each commit's live message) no connection attempt: the cache (genius/cache.py) answers
as an empty one, and the live messages (games/platform/live_push.py) are held back. One back-off for both,
since both talk to the same Redis by default (REDIS_URL): what one saw fail, the other does not try.

What was held back is owed, not lost: a watcher thread asks Redis every GENIUS_CACHE_RETRY_SECONDS (half
a second at least) and, as soon as it answers, runs what is owed to it (the cache moves its generation,
live_push sends the messages it held) and ends the back-off at once. So a move made in the moment after
Redis comes back reaches the open pages within about a second, not at their 45 s safety poll.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings
from redis.exceptions import RedisError

WATCH_SECONDS = 600  # how long a watcher waits for Redis (longer: the next request or commit tries again)

_backoffs: dict[str, Backoff] = {}
_made = threading.Lock()


def retry_seconds() -> float:
    return getattr(settings, "GENIUS_CACHE_RETRY_SECONDS", 1.0)


class Backoff:
    """When one Redis may be asked again, and what is owed to it once it answers."""

    def __init__(self):
        self.down_until = 0.0  # monotonic time before which Redis is not asked
        self._owed: dict[str, Callable[[], None]] = {}
        self._watching = False
        self._lock = threading.Lock()

    def resting(self) -> bool:
        return time.monotonic() < self.down_until

    def failed(self) -> None:
        self.down_until = time.monotonic() + retry_seconds()

    def owe(self, name: str, task: Callable[[], None]) -> None:
        """Run `task` (in the watcher's thread) once Redis answers; a RedisError from it: asked again later.
        One task per name: the latest replaces an earlier one not run yet."""
        with self._lock:
            self._owed[name] = task
            if self._watching:
                return
            self._watching = True
        threading.Thread(target=self._watch, name="redis-watch", daemon=True).start()

    def _watch(self) -> None:
        until = time.monotonic() + WATCH_SECONDS
        try:
            while True:
                time.sleep(max(retry_seconds(), 0.5))
                with self._lock:  # the same lock as owe(): a task owed now is run, or starts a new watcher
                    if not self._owed or time.monotonic() >= until:
                        self._owed.clear()  # past WATCH_SECONDS: each owner tries again at its next call
                        self._watching = False
                        return
                    owed = list(self._owed.items())
                self._run(owed)
        except BaseException:
            with self._lock:
                self._owed.clear()
                self._watching = False
            raise

    def _run(self, owed: list[tuple[str, Callable[[], None]]]) -> None:
        try:
            for name, task in owed:
                task()
                with self._lock:
                    if self._owed.get(name) is task:
                        del self._owed[name]
        except (RedisError, OSError):
            return  # not yet: asked again in a moment
        self.down_until = 0.0  # it answers: nobody need wait out the rest of the back-off


def for_url(url) -> Backoff:
    """The back-off of the Redis at `url` (a cache's LOCATION, or GENIUS_PUSH_URL)."""
    key = str(url)
    found = _backoffs.get(key)
    if found is None:
        with _made:
            found = _backoffs.setdefault(key, Backoff())
    return found
