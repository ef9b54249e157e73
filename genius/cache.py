"""Django's Redis cache, made cheap per call and harmless when Redis does not answer.

One client per connection pool: Django's RedisCacheClient makes a new `redis.Redis` for every cache call,
and redis-py fills a table of about 170 response callbacks for each; on this site's hot paths (a session
read and a page-cache lookup per page view, a stamp per save) that cost more than the round trip to Redis.
A client is safe to share between threads (it takes a connection from the pool per command).

A Redis that does not answer is an empty cache (issue 18.2): every read misses, every write is dropped and
says so (`set` answers False, `set_many` names every key), and nothing raises. The page cache then renders,
and the sessions (`cached_db`) are read from the database. After a failure the process leaves Redis alone
for GENIUS_CACHE_RETRY_SECONDS (genius/backoff.py, the back-off it shares with the live messages), so an
outage costs each request no connection attempt, and each command waits at most GENIUS_REDIS_TIMEOUT seconds.

Writes dropped during an outage must not leave wrong copies behind when Redis comes back with its old keys
(it was unreachable or hung, not restarted): a session logged out meanwhile would log in again, and a page
stamp a save could not renew would serve the page from before the save. So every key carries the cache's
generation, kept in Redis: a process that saw Redis fail moves the generation when it answers again, and
every process reads it at most GENIUS_CACHE_RETRY_SECONDS old (one GET a second per process). Generations
are random, so one never comes back. Nothing cached before an outage is read
after it; the sessions are read again from the database, the pages rendered again.

The process that saw the failure does not wait for its next request to move the generation: the
back-off's watcher thread asks Redis every GENIUS_CACHE_RETRY_SECONDS and moves it as soon as Redis
answers. Otherwise a worker that saw no failure (it served nothing during the outage) would go on reading
the old generation, and the copies from before, for as long as the worker that did see it got no request.

Every command goes through `_call`, so every key is made with the generation this process has read (issue
28.5): a process just started whose first call was a game's version raise, made outside `_call`, wrote it
under an empty generation, where nobody reads it. So the cache's own methods are the only way in, scripts
included (`run_script`), and a key made before any call (`make_key`) reads the generation first.
"""

from __future__ import annotations

import logging
import secrets
import time

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import RedisError

from genius import backoff

log = logging.getLogger("genius.cache")

GENERATION = "genius:cache-generation"
# What a script answers, instead of running, when the generation it was given is not the one in Redis.
GENERATION_MOVED = "genius:generation-moved"


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
        self._backoff = backoff.for_url(server)  # this Redis's, shared with the live messages
        self._failed = False  # Redis failed since the generation last moved
        self._generation = b""
        self._generation_read = float("-inf")
        self._scripts = {}  # a script's source -> redis-py's Script (sent once, then run by its digest)

    def make_key(self, key, version=None):
        if not self._generation:  # a key made before any call (by a caller of its own): read it first
            self._call(None, lambda: None)
        return super().make_key(f"{self._generation.decode()}:{key}", version)

    def _call(self, miss, method, *args):
        """`method` of Django's Redis cache, or `miss` when Redis does not answer (or failed a moment ago)."""
        if self._backoff.resting():
            return miss
        try:
            self._generation_current(time.monotonic())
            return method(*args)
        except RedisError as exc:
            self._backoff.failed()
            if not self._failed:
                self._failed = True
                log.warning("Redis cache unavailable (%s: %s): serving without it", type(exc).__name__, exc)
            # Moved as soon as Redis answers, asked anything or not (the back-off's watcher). One such task
            # per Redis: another client of this process that failed too moves it again at its next call.
            self._backoff.owe("cache-generation", self._move_when_back)
            return miss

    def _generation_current(self, now: float) -> None:
        """Redis's generation, read at most GENIUS_CACHE_RETRY_SECONDS ago (after a failure: moved)."""
        if self._failed:
            self._generation_move(now)
        elif now - self._generation_read >= backoff.retry_seconds():
            self._generation = self._read_generation()
            self._generation_read = now

    def _generation_move(self, now: float) -> None:
        """Back after a failure: what this process (or any) dropped meanwhile is behind a new generation, and
        so is every copy from before. A random one: a generation never repeats."""
        generation = secrets.token_hex(4).encode()
        self._cache.get_client(write=True).set(GENERATION, generation)
        self._generation, self._generation_read, self._failed = generation, now, False
        log.warning("Redis cache answers again: generation %s", generation.decode())

    def _move_when_back(self) -> None:
        if self._failed:
            self._generation_move(time.monotonic())

    def _read_generation(self) -> bytes:
        client = self._cache.get_client(write=True)
        found = client.get(GENERATION)
        if found is None:  # a Redis started empty: the first process to ask names the generation
            client.set(GENERATION, secrets.token_hex(4), nx=True)
            found = client.get(GENERATION)
        return found

    def run_script(self, source: str, keys, args=(), miss=None):
        """A Lua script on `keys` (made as every other call makes them), in one step: what it returns, or
        `miss` when Redis does not answer, which counts as any call's failure (the generation moves after).

        The script runs only under the generation this process holds: one read up to a second ago may have
        moved since (another process saw Redis fail), and a number raised under the old one would be lost
        while a reader had already written a lower one under the new. Redis checks it in the same step; on
        a move the generation is read again and the script runs under the new one.
        """
        guarded = f"if redis.call('GET', KEYS[#KEYS]) ~= ARGV[#ARGV] then return '{GENERATION_MOVED}' end\n"

        def run():
            client = self._cache.get_client(write=True)
            script = self._scripts.get(source)
            if script is None:
                script = self._scripts[source] = client.register_script(guarded + source)
            for _ in range(2):
                made = [self.make_and_validate_key(key) for key in keys]
                found = script(keys=[*made, GENERATION], args=[*args, self._generation], client=client)
                if found != GENERATION_MOVED.encode():
                    return found
                self._generation, self._generation_read = self._read_generation(), time.monotonic()
            return miss  # moved twice in a moment: Redis is being cleared; a reader writes the number again

        return self._call(miss, run)

    def incr(self, key, delta=1, version=None):
        found = self._call(None, super().incr, key, delta, version)
        if found is None:  # Redis away: as an empty cache answers for a key it does not hold
            raise ValueError(f"Key '{key}' not found")
        return found

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # An empty cache takes every add: with Redis away, a lock taken through add (allauth's rate limit
        # takes one around each login) is granted, as it would be on an empty cache, instead of refused.
        return self._call(True, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # True when stored, False when dropped: Django's own answers None either way.
        return self._call(False, lambda: super(RedisCache, self).set(key, value, timeout, version) or True)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._call(False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._call({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._call(False, super().has_key, key, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        self._call(None, super().delete_many, keys, version)

    def clear(self):
        # The generation goes with everything else: name a new one at the next call, not a second later
        # (keys written meanwhile under the old name would vanish mid-use).
        cleared = self._call(False, super().clear)
        self._generation_read = float("-inf")
        return cleared
