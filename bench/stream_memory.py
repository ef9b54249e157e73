"""Memory per open event stream (GET /events/, docs/live.md): a measurement, never a test.

    .venv/bin/python bench/stream_memory.py [--streams N] [--trace]

Makes a migrated SQLite site with one running Tally in a temporary var/ folder (as `make run`'s embedded
default, tests/embedded.py), then:
- by default, serves it under uvicorn (one process, with the Redis of REDIS_URL and a channel prefix of its
  own) and opens N visitors' streams to the game over plain sockets: the process's resident memory (VmRSS)
  before and after, per stream;
- with --trace, runs the site's ASGI application in this process instead, driven by hand (no server), and
  prints what tracemalloc finds held per stream, by the line that allocated it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.embedded import environment, free_port, manage, tally_game  # noqa: E402


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def open_streams(port: int, game: int, count: int) -> list:
    """`count` streams, each read up to its `retry:` line (open and listening); their writers, to close."""
    held = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /events/?game={game}&v=999999 HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        while not (await reader.readline()).startswith(b"retry:"):
            pass
        held.append((reader, writer))
    return held


def settle(pid: int) -> int:
    time.sleep(2)
    return rss_kb(pid)


def under_uvicorn(env: dict, game: int, count: int) -> None:
    import subprocess
    import urllib.request

    port = free_port()
    node = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(port)]
        + ["--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )
    try:
        until = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/livez/", timeout=1)
                break
            except OSError:
                assert time.monotonic() < until, "uvicorn did not answer"
                time.sleep(0.2)

        async def run():
            await open_streams(port, game, 20)  # the first streams load what every later one shares
            before = settle(node.pid)
            started = time.monotonic()
            await open_streams(port, game, count)
            opened = time.monotonic() - started
            after = settle(node.pid)
            print(f"{count} streams on one uvicorn process, opened in {opened:.1f} s")
            each = (after - before) / count
            print(f"RSS {before / 1024:.1f} MB -> {after / 1024:.1f} MB: {each:.1f} kB per stream")

        asyncio.run(run())
    finally:
        node.terminate()
        node.wait(15)


def traced(env: dict, game: int, count: int) -> None:
    import tracemalloc

    os.environ.clear()  # env is the whole environment (environment() left out the suite's services)
    os.environ.update(env)
    import django

    django.setup()
    from genius.asgi import application

    async def stream(ready: asyncio.Event, gone: asyncio.Event):
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/events/",
            "raw_path": b"/events/",
            "query_string": f"game={game}&v=999999".encode(),
            "root_path": "",
            "headers": [(b"host", b"localhost")],
            "client": ("127.0.0.1", 40000),
            "server": ("127.0.0.1", 8000),
        }
        sent_body = False

        async def receive():
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start" and message["status"] != 200:
                raise RuntimeError(f"the stream answered {message['status']}")
            if message["type"] == "http.response.body" and message.get("body", b"").startswith(b"retry:"):
                ready.set()

        await application(scope, receive, send)

    async def open_many(n: int, gone: asyncio.Event) -> list:
        tasks = []
        for _ in range(n):
            ready = asyncio.Event()
            task = asyncio.create_task(stream(ready, gone))
            tasks.append(task)
            waiting = asyncio.create_task(ready.wait())
            await asyncio.wait([task, waiting], timeout=30, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # it ended before its first event: say why
            assert ready.is_set(), "no retry: line within 30 s"
        return tasks

    async def run():
        gone = asyncio.Event()
        warm = await open_many(20, gone)
        tracemalloc.start(25)
        before = tracemalloc.take_snapshot()
        tasks = await open_many(count, gone)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        stats = after.compare_to(before, "traceback")
        total = sum(stat.size_diff for stat in stats)
        print(f"{count} streams in this process: {total / count / 1024:.1f} kB of Python objects per stream")
        for stat in stats[:25]:
            frames = [f"{Path(f.filename).name}:{f.lineno}" for f in stat.traceback]
            print(f"{stat.size_diff / count:8.0f} B/stream  {' < '.join(reversed(frames[-4:]))}")
        gone.set()
        await asyncio.gather(*warm, *tasks, return_exceptions=True)

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    with tempfile.TemporaryDirectory() as folder:
        var = Path(folder)
        manage(var, "migrate", "--no-input", "-v0")
        game, _ = tally_game(var)
        env = environment(
            var,
            REDIS_URL=redis_url,
            GENIUS_PUSH_PREFIX=f"bench-{uuid.uuid4().hex[:8]}:",
            GENIUS_PAGE_CACHE="0",
            GENIUS_STREAMS_PER_USER=str(args.streams * 2),  # one address holds them all
        )
        (traced if args.trace else under_uvicorn)(env, game, args.streams)


if __name__ == "__main__":
    main()
