"""The fault suite's fixtures: a Redis of its own and a live stack on the tests' database.

Marked `faults` (run alone with `pytest -m faults`). It needs PostgreSQL (the live processes share the
tests' database) and redis-server on the PATH; it skips, saying why, without them. It never stops the
machine's shared Postgres or Redis: the Redis it stops is the one it started.
"""

from __future__ import annotations

import shutil

import pytest
from django.conf import settings
from django.db import connection

from tests.faults.stack import OwnRedis, Stack


@pytest.fixture
def own_redis(tmp_path):
    if not shutil.which("redis-server"):
        pytest.skip("No redis-server on the PATH (apt-get install redis-server).")
    redis = OwnRedis(workdir=tmp_path)
    redis.start()
    yield redis
    redis.stop()


@pytest.fixture
def stack(transactional_db, own_redis, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("The live stack is other processes: it needs the tests' PostgreSQL database.")
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    live = Stack(redis=own_redis, database_url=url, logdir=tmp_path)
    live.start()
    yield live
    live.stop()
