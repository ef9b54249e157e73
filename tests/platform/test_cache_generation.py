"""Every key the site reads or writes carries the generation its process has read, scripts too (issue 28.5).

Each `RedisCache` here is another process's cache: made fresh, it has read nothing yet, as a gunicorn worker
just started after a deploy or a restart. Its first call may be anything, a script included, and must land
where every other process reads.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from genius.cache import GENERATION, RedisCache

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
SET = "redis.call('SET', KEYS[1], ARGV[1])"


@pytest.fixture
def redis_url():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs a Redis (REDIS_URL)")
    return os.environ["REDIS_URL"]


def fresh(url: str) -> RedisCache:
    return RedisCache(url, {})


def test_a_fresh_process_whose_first_call_is_a_script_writes_where_the_others_read(redis_url):
    reader = fresh(redis_url)
    assert reader.get("warm") is None  # a process that has served: it read the generation
    fresh(redis_url).run_script(SET, ["version:9"], [22])
    assert reader.get("version:9") == 22


def test_a_key_made_before_any_call_carries_the_generation(redis_url):
    made = fresh(redis_url).make_key("version:9")
    generation = fresh(redis_url)._cache.get_client().get(GENERATION).decode()
    assert made == f":1:{generation}:version:9"


def test_a_script_under_a_generation_moved_a_moment_ago_runs_under_the_new_one(redis_url):
    # This process read the generation less than a second ago; another saw Redis fail and moved it since, and
    # a reader there may already have written a lower number under the new one. The raise must win there.
    late = fresh(redis_url)
    assert late.get("warm") is None
    other = fresh(redis_url)
    other._failed = True  # it saw a failure: its next call moves the generation
    assert other.set("version:9", 20) is True
    assert late.make_key("x") != other.make_key("x"), "late still holds the old generation"
    late.run_script(SET, ["version:9"], [22])
    assert other.get("version:9") == 22


def test_with_redis_away_a_script_is_a_miss_that_moves_the_generation_after():
    away = RedisCache("redis://127.0.0.1:1/0", {})
    assert away.run_script(SET, ["version:9"], [22], miss="dropped") == "dropped"
    assert away._failed, "a dropped raise is a failure like any dropped write: the generation moves after it"
    with pytest.raises(ValueError):
        away.incr("count")  # as an empty cache: no such key


# What reaches Redis past genius.cache: its client, a key made by hand, a script or a pipeline of one's own.
AROUND_THE_CACHE = re.compile(
    r"get_client\(|\._cache\b|make_and_validate_key|\.eval(sha)?\(|register_script|pipeline\("
)


def test_nothing_in_the_site_reaches_redis_around_the_cache():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for package in ("games", "genius")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "genius" / "cache.py" and "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if AROUND_THE_CACHE.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []
