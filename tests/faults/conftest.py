"""The fault suite's fixtures: a Redis of its own and a live stack on the tests' database.

Marked `faults` (run alone with `pytest -m faults`). It needs PostgreSQL (the live processes share the
tests' database) and redis-server on the PATH; it skips, saying why, without them. It never stops the
machine's shared Postgres or Redis: the Redis it stops is the one it started.
"""

from __future__ import annotations

import shutil

import pytest

from tests.faults.stack import OwnRedis, on_the_tests_database


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
    live = on_the_tests_database(own_redis, tmp_path)
    live.start()
    yield live
    live.stop()
