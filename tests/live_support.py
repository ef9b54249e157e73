"""What the live-push tests share (docs/live.md): a Redis of the test run's own for pub/sub."""

from __future__ import annotations

import os

import pytest
import redis


def redis_for_push() -> str:
    """The Redis named by REDIS_URL, or 127.0.0.1:6379 at database GENIUS_TEST_REDIS_DB; skips without one.
    Pub/sub ignores database numbers: each test gives its channels a prefix of its own."""
    db = os.environ.get("GENIUS_TEST_REDIS_DB", "0")
    url = os.environ.get("REDIS_URL") or f"redis://127.0.0.1:6379/{db}"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except (redis.RedisError, OSError):
        pytest.skip("needs a Redis (REDIS_URL)")
    return url
