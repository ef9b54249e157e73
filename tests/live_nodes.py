"""The site under uvicorn, as the stream's server runs it (docs/live.md), for the tests of server push: one
node or several on ports of their own, started and stopped here. Each test gives the environment (its
database, its Redis, its channel prefix); `move` makes a move from another process, as a worker would."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import requests

from tests.embedded import ROOT, free_port

# A move committed by another process (`manage.py shell`): it prints when it began and the new version.
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


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez/", timeout=1) as answer:
            return answer.status == 200
    except OSError:
        return False


@dataclass
class Node:
    """One uvicorn process serving the whole site (genius.asgi), with `env` as its environment."""

    env: dict[str, str]
    port: int = field(default_factory=free_port)
    log: Path | None = None  # where its output goes (appended); by default the test's own output
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Node:
        out = open(self.log, "a") if self.log else None  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(self.port)]
            + ["--log-level", "warning", "--timeout-graceful-shutdown", "1"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT if out else None,
        )
        if out:
            out.close()  # the process holds its own copy
        return self

    def wait(self, seconds: float = 30) -> Node:
        """Until it answers (/livez/); its start-up (Django's and the games') takes seconds on a busy CI."""
        until = time.monotonic() + seconds
        while not answers(self.port):
            assert self.proc.poll() is None, f"uvicorn on {self.port} exited ({self.proc.returncode})"
            assert time.monotonic() < until, f"uvicorn on {self.port} did not answer within {seconds} s"
            time.sleep(0.2)
        return self

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def started(env: dict[str, str], count: int = 1, **options) -> list[Node]:
    """`count` nodes on ports of their own, all answering (started together: their start-ups overlap)."""
    nodes = [Node(env, **options).start() for _ in range(count)]
    try:
        for node in nodes:
            node.wait()
    except BaseException:
        for node in nodes:
            node.stop()
        raise
    return nodes


def shell(env: dict[str, str], code: str) -> str:
    """`code` run by `manage.py shell` in a process of its own, on the nodes' site: what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def move(env: dict[str, str], game: int) -> tuple[float, int]:
    """A move of `game` committed by another process: when it began (time.time()) and the new version."""
    printed = shell(env, MOVE.format(game=game))
    began, version = re.search(r"^moved (\S+) (\d+)$", printed, re.MULTILINE).groups()
    return float(began), int(version)


class Listening:
    """One open stream, read line by line in a thread: its events (dicts with `event` and the data's ids),
    each with the time.time() it was read; None at the stream's end."""

    def __init__(self, answer):
        self.answer = answer
        self.heard: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = None
        try:
            while line := self.answer.readline().decode():
                line = line.strip()
                if line.startswith("retry:"):
                    self.ready.set()
                elif line.startswith("event:"):
                    kind = line.partition(":")[2].strip()
                elif line.startswith("data:") and kind != "ping":  # a ping only keeps the stream open
                    self.heard.put(({"event": kind, **json.loads(line.partition(":")[2])}, time.time()))
        except OSError:
            pass
        self.heard.put((None, time.time()))

    def next(self, seconds: float = 15):
        """The next event, skipping none; None once the stream has ended."""
        return self.heard.get(timeout=seconds)[0]

    def next_at(self, seconds: float = 15):
        """The next event and when it was read."""
        return self.heard.get(timeout=seconds)


def open_stream(url: str, game: int, version: int, session: requests.Session | None = None):
    """A page's EventSource on the node at `url` (with the session's cookies): Listening once its `retry:`
    line came, or the refusal's status code."""
    cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items()) if session else ""
    request = urllib.request.Request(
        f"{url}/events/?game={game}&v={version}",
        headers={"Cookie": cookie, "Accept": "text/event-stream"},
    )
    try:
        answer = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as refused:
        return refused.code
    assert answer.headers["Content-Type"].startswith("text/event-stream")
    stream = Listening(answer)
    assert stream.ready.wait(15), "no retry: line"
    return stream


def logged_in(url: str, username: str) -> requests.Session:
    """A browser logged in through the site's login form (the test users' password is pw-<name>)."""
    session = requests.Session()
    page = session.get(f"{url}/login/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = session.post(
        f"{url}/login/",
        {"username": username, "password": f"pw-{username}", "csrfmiddlewaretoken": token},
        headers={"Referer": f"{url}/login/"},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302, f"logging {username} in: {answer.status_code}"
    return session
