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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Which of serve_all's processes a command line is.
ROLES = {"runserver": "web", "-Q celery ": "worker", "-Q deadlines ": "deadlines", " beat ": "beat"}


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
        **extra,
    )
    return env


def manage(var: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment(var), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def var_folder(var: Path, database: Path) -> Path:
    """A var/ folder holding a copy of a migrated SQLite database (the `migrated_sqlite` fixture)."""
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

    def __init__(self, var: Path):
        self.var = var
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
            env=environment(self.var),
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
