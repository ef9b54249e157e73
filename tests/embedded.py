"""The site as `make run` serves it, for the tests of its embedded default: `manage.py serve_all` with no
DATABASE_URL and no Redis (SQLite and the file broker in a var/ folder of the test's own), its four
processes found by their command lines, and what its terminal says read through a pipe."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Which of serve_all's processes a command line is.
ROLES = {
    "runserver": "web",
    "uvicorn": "web",
    "-Q celery ": "worker",
    "-Q deadlines ": "deadlines",
    " beat ": "beat",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(var: Path, **extra: str) -> dict[str, str]:
    """`make run`'s environment: the machine's, without the services the test suite itself may use."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL", "CELERY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="genius.settings",
        GENIUS_VAR_DIR=str(var),
        GENIUS_GAME_MODULES="tests.toy_game",
        GENIUS_SWEEP_SECONDS="1",
        GENIUS_RESEND_SECONDS="1",
        PYTHONUNBUFFERED="1",
    )
    return {**env, **extra}


def manage(var: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment(var), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@dataclass
class Template:
    """A migrated SQLite database holding a running Tally (the `embedded_database` fixture)."""

    database: Path
    game: int
    round: int


def var_folder(var: Path, database: Path) -> Path:
    """A var/ folder holding a copy of a migrated SQLite database."""
    var.mkdir(parents=True, exist_ok=True)
    shutil.copy(database, var / "genius.sqlite3")
    return var


def children_of(pid: int) -> dict[str, int]:
    """serve_all's processes by role, read from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) != pid:
            continue
        for mark, role in ROLES.items():
            if mark in cmdline:
                found[role] = int(entry.name)
    return found


class EmbeddedSite:
    """`manage.py serve_all` on a var/ folder of its own, its terminal's lines kept as they come."""

    def __init__(self, var: Path, **env: str):
        self.var = var
        self.env = env  # over environment()'s
        self.port = free_port()
        self.lines: list[str] = []
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve_all", "--port", str(self.port)],
            cwd=ROOT,
            env=environment(self.var, **self.env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for("genius is at ", seconds=90)
        self.wait_until(lambda: len(self.children()) == 4, "serve_all's four processes running")

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def children(self) -> dict[str, int]:
        return children_of(self.proc.pid)

    def pids(self) -> list[int]:
        """serve_all's and its processes' (what it starts later inherits from serve_all itself)."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        return [self.proc.pid, *self.children().values()]

    def said(self, pattern: str) -> list[str]:
        return [line for line in list(self.lines) if re.search(pattern, line)]

    def wait_for(self, pattern: str, seconds: float = 30, count: int = 1) -> list[str]:
        self.wait_until(lambda: len(self.said(pattern)) >= count, f"the terminal saying {pattern!r}", seconds)
        return self.said(pattern)

    def wait_until(self, check, what: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.1)
        terminal = "\n".join(self.lines[-60:])
        raise AssertionError(f"{what} did not happen within {seconds} s; the terminal said:\n{terminal}")

    def stop(self, sig=signal.SIGTERM) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        children = self.children()
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        for pid in children.values():  # nothing of this site left behind, whatever the test saw
            try:
                if f"GENIUS_VAR_DIR={self.var}\0".encode() in Path(f"/proc/{pid}/environ").read_bytes():
                    os.kill(pid, signal.SIGKILL)
            except (OSError, ProcessLookupError):
                pass
        return code


TALLY = """
from django.contrib.auth import get_user_model
from games.platform.models import Round, Season
from games.platform.services import games

User = get_user_model()


def user(name, **extra):
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, password="pw-" + name, **extra)


host = user("hank", is_staff=True)
season, _ = Season.objects.get_or_create(name="Season 1")
season.hosts.add(host)
game = games.game_create(season=season, game_type="tally", name="Tally", hosts=[host], actor=host)
for name in ("alice", "bob"):
    games.game_seat(game=game, user=user(name), actor=host)
games.game_start(game=game, actor=host)
print("tally", game.id, Round.objects.get(game=game, number=0).id)
"""


def tally_game(var: Path) -> tuple[int, int]:
    """A running Tally (tests/toy_game.py) in the var/ folder's database: its id and its open round's."""
    said = manage(var, "shell", "-c", TALLY)  # the game's start mails the players too (to the console)
    (game, round_) = re.search(r"^tally (\d+) (\d+)$", said, re.MULTILINE).groups()
    return int(game), int(round_)
