"""Django's Redis cache, keeping one Redis client per connection pool instead of building one per call.

Django's RedisCacheClient makes a new `redis.Redis` for every cache call, and redis-py fills a table of
about 170 response callbacks for each: on this site's hot paths (a session read and a page-cache lookup
per page view, a stamp per save) that cost more than the round trip to Redis. A client is safe to share
between threads (it takes a connection from the pool per command), so one per pool is enough.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


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
        super().__init__(server, params)
        self._class = RedisCacheClient
