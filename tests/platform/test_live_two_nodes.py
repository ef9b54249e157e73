"""Two web nodes, one Redis (issue 32.4): a move committed by another process reaches the streams held by
both uvicorn processes at once. The site runs as `make run` serves it (tests/embedded.py: SQLite in a var/
folder of the test's own), under uvicorn, with a Redis and a channel prefix of the test's own."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
import urllib.request
import uuid

import pytest

from tests.embedded import ROOT, environment, free_port, var_folder
from tests.live_support import redis_for_push

pytestmark = pytest.mark.services

MOVE = """
import time
from django.db import transaction
from games.platform.models import Game
from games.platform.services.events import bump_version
game = Game.objects.get(pk={game})
began = time.time()
with transaction.atomic():
    bump_version(game)
print("moved", began, Game.objects.get(pk={game}).version)
"""


@pytest.fixture
def push_url():
    return redis_for_push()


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=1) as answer:
            return answer.status == 200
    except OSError:
        return False


def _listen(port: int, game: int, heard: list, ready: threading.Event):
    stream = urllib.request.urlopen(f"http://127.0.0.1:{port}/events/?game={game}&v=999999", timeout=20)
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    while True:
        line = stream.readline().decode()
        if line.startswith("retry:"):
            ready.set()
        if line.startswith("data:"):
            heard.append((time.time(), line.strip()))
            return


def test_a_move_reaches_the_streams_of_both_web_nodes_at_once(tmp_path, embedded_database, push_url):
    var = var_folder(tmp_path / "var", embedded_database.database)
    env = environment(
        var, REDIS_URL=push_url, GENIUS_PUSH_PREFIX=f"test-{uuid.uuid4().hex[:10]}:", GENIUS_PAGE_CACHE="0"
    )
    ports = [free_port(), free_port()]
    nodes = [
        subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(port)]
            + ["--log-level", "warning", "--timeout-graceful-shutdown", "1"],
            cwd=ROOT,
            env=env,
        )
        for port in ports
    ]
    try:
        until = time.monotonic() + 30
        while not all(_answers(port) for port in ports):
            assert time.monotonic() < until, "the two nodes did not answer"
            time.sleep(0.2)
        heard = {port: [] for port in ports}
        readies = {port: threading.Event() for port in ports}
        for port in ports:
            threading.Thread(
                target=_listen, args=(port, embedded_database.game, heard[port], readies[port]), daemon=True
            ).start()
        assert all(ready.wait(10) for ready in readies.values())
        moved = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MOVE.format(game=embedded_database.game)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert moved.returncode == 0, moved.stderr
        at, version = re.search(r"^moved (\S+) (\d+)$", moved.stdout, re.MULTILINE).groups()
        until = time.monotonic() + 5
        while not all(heard.values()) and time.monotonic() < until:
            time.sleep(0.05)
        for port in ports:
            assert heard[port], f"the node on {port} relayed nothing"
            when, line = heard[port][0]
            assert line == f'data: {{"game":{embedded_database.game},"v":{version}}}'
            # From before the transaction to the line read: the bound is 200 ms to the screen; a
            # loaded CI machine gets a second here (the benchmark measures, this test only checks).
            assert when - float(at) < 1.0, f"{(when - float(at)) * 1000:.0f} ms"
    finally:
        for node in nodes:
            node.terminate()
        for node in nodes:
            node.wait(10)
