"""What the live-push tests share (docs/live.md): a Redis of the test run's own for pub/sub, and streams
opened in-process (the stream view on an event loop of its own, as AsyncClient runs it in async_to_sync)."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import AsyncClient


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


async def open_stream(client: AsyncClient, query: str, **headers):
    response = await client.get(f"/events/?{query}", headers=headers)
    return response


async def stream_chunks(response, count: int, wait: float = 3.0) -> list[str]:
    stream = response.streaming_content
    out = []
    for _ in range(count):
        out.append((await asyncio.wait_for(anext(stream), wait)).decode())
    return out


async def close_stream(response) -> None:
    """What the ASGI handler does when the browser goes: the stream's generator ends, its slot is freed."""
    if response.streaming:
        await response._iterator.aclose()
    # As the test client closes an answer: the test's database connection stays open.
    request_finished.disconnect(close_old_connections)
    try:
        await sync_to_async(response.close)()
    finally:
        request_finished.connect(close_old_connections)


async def logged_in(user) -> AsyncClient:
    client = AsyncClient()
    await client.aforce_login(user)
    return client


def stream_events(text: str) -> list[tuple[str, dict]]:
    """(kind, data) of each event in a stream's text (pings and comments left out)."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields and fields["event"] != "ping":
            found.append((fields["event"], json.loads(fields.get("data", "{}"))))
    return found


def stream_bodies(text: str) -> list[dict]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


# What a page's script asks of the speaker and of the Notification API, recorded in window.__beeps and
# window.__notes (a test browser has neither a speaker nor a user to grant the permission). A test sets
# RecordedNotification.permission (and requestPermission) after it.
RECORDED_ALERTS = """
window.__beeps = 0;
window.__notes = [];
class RecordedContext {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    return { frequency: {}, connect: (x) => x, start: () => { window.__beeps += 1; }, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (x) => x };
  }
}
window.AudioContext = RecordedContext;
class RecordedNotification {
  constructor(title, options) { window.__notes.push(title + " | " + ((options || {}).body || "")); }
}
window.Notification = RecordedNotification;
"""
