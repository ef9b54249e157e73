"""Django's Redis cache, made cheap per call and harmless when Redis does not answer.

One client per connection pool: Django's RedisCacheClient makes a new `redis.Redis` for every cache call,
and redis-py fills a table of about 170 response callbacks for each; on this site's hot paths (a session
read and a page-cache lookup per page view, a stamp per save) that cost more than the round trip to Redis.
A client is safe to share between threads (it takes a connection from the pool per command).

A Redis that does not answer is an empty cache (issue 18.2): every read misses, every write is dropped and
says so (`set` answers False, `set_many` names every key), and nothing raises. The page cache then renders,
the sessions (`cached_db`) are read from the database, and a write that cached a page's stamp knows to fall
back (games/platform/pagecache.py). After a failure the process leaves Redis alone for
GENIUS_CACHE_RETRY_SECONDS, so an outage costs each request no connection attempt, and each command waits
at most GENIUS_REDIS_TIMEOUT seconds. Keys whose delete was dropped (a session logged out during the outage)
are deleted again when Redis answers: a stale copy of a deleted session must not come back with it.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger("genius.cache")


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        timeout = getattr(settings, "GENIUS_REDIS_TIMEOUT", 1.0)
        options = {"socket_connect_timeout": timeout, "socket_timeout": timeout, **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = RedisCacheClient
        self._down_until = 0.0  # monotonic time before which Redis is not asked
        self._down = False
        self._undeleted: set[tuple[str, int | None]] = set()  # (key, version)
        self._lock = threading.Lock()

    def _call(self, miss, method, *args):
        """`method` of Django's Redis cache, or `miss` when Redis does not answer (or failed a moment ago)."""
        if time.monotonic() < self._down_until:
            return miss
        try:
            if self._undeleted:
                self._delete_again()
            answer = method(*args)
        except RedisError as exc:
            self._down_until = time.monotonic() + getattr(settings, "GENIUS_CACHE_RETRY_SECONDS", 1.0)
            if not self._down:
                self._down = True
                log.warning("Redis cache unavailable (%s: %s): serving without it", type(exc).__name__, exc)
            return miss
        if self._down:
            self._down = False
            log.warning("Redis cache answers again")
        return answer

    def _forget_later(self, keys, version) -> None:
        with self._lock:
            self._undeleted.update((key, version) for key in keys)

    def _delete_again(self) -> None:
        with self._lock:
            pending, self._undeleted = self._undeleted, set()
        try:
            for version in {v for _, v in pending}:
                super().delete_many([k for k, v in pending if v == version], version)
        except RedisError:
            with self._lock:
                self._undeleted |= pending
            raise
        log.warning("Redis cache: %d keys deleted during the outage are deleted now", len(pending))

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # True when stored, False when dropped: Django's own answers None either way.
        return self._call(False, lambda: super(RedisCache, self).set(key, value, timeout, version) or True)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        deleted = self._call(None, super().delete, key, version)
        if deleted is None:
            self._forget_later([key], version)
            return False
        return deleted

    def get_many(self, keys, version=None):
        return self._call({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._call(False, super().has_key, key, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        keys = list(keys)
        if self._call(None, lambda: super(RedisCache, self).delete_many(keys, version) or True) is None:
            self._forget_later(keys, version)

    def clear(self):
        return self._call(False, super().clear)
