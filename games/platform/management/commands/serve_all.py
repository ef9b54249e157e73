"""Serve the site with Celery workers and beat beside it, so rounds close on time; Ctrl-C stops them all.

A process that stops (a crash, a kill, the machine short of memory) is started again, after a pause that
grows while it keeps stopping soon after each start, with a line saying which stopped, how, and when it
comes back: `make run` users look only at this terminal, so one that keeps failing is said plainly, with
the lines it wrote last. Only Ctrl-C or a SIGTERM stops them all.

The terminal stays quiet: of what the four processes write, it shows a line when a round resolves and
every warning or error (with its traceback), nothing else (no sweep every 5 s, no request lines). Emails
go to files in var/outbox/ unless an SMTP host is set. With --demo the demo's logins come last, once the
site answers, so nothing scrolls them away.
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand

from games.platform import live_push

# A line worth showing: a round resolved (games.platform.rounds says so), or something wrong. Lines that
# follow a shown warning or error without a record's own start (a traceback) are shown with it.
RESOLVED = re.compile(r"\bRound \d+ of .+ resolved\b")
WRONG = re.compile(r"(^|[\s:\[])(WARNING|ERROR|CRITICAL)[\s/:]|^Traceback")
# 4xx answers are the players' own mistakes (a wrong URL, a refused save), not the server's; runserver
# says at every start that it is a development server; and uvicorn, stopping, ends the open pages' event
# streams (they never end by themselves) and calls that an error.
EXPECTED = re.compile(
    r"WARNING django\.(request|server)|^WARNING: This is a development server"
    r"|^ERROR:\s+Cancel \d+ running task\(s\), timeout graceful shutdown exceeded"
)
RECORD_START = re.compile(r"^(\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\S+ \[\d)")
# A process that stops within this many seconds of its start stopped "at once": each such stop in a row
# doubles the pause before the next start, from FIRST_PAUSE up to LAST_PAUSE; one that ran longer is
# started again after FIRST_PAUSE. After FAILING_AT_ONCE such stops in a row, the terminal says so plainly.
AT_ONCE = 30.0
FIRST_PAUSE = 1.0
LAST_PAUSE = 60.0
FAILING_AT_ONCE = 3
# What a process wrote in its last seconds is shown when it stops, even lines the quiet terminal hid.
LAST_WORDS = 2.0
# The terminal warns when the disk holding var/ has less than this left: SQLite and the broker's messages
# need it. Checked every DISK_CHECK seconds.
LOW_DISK_BYTES = 20 * 1024 * 1024
DISK_CHECK = 5.0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def worker_of(queue: str) -> list[str]:
    return ["-Q", queue, "-n", f"{queue}@%h", "--loglevel", "WARNING", "--pool", "solo"]


def how_it_stopped(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Quiet:
    """Decides, line by line, what of a process's output reaches the terminal."""

    def __init__(self):
        self.following_trouble = False

    def keep(self, line: str) -> bool:
        if RESOLVED.search(line):
            self.following_trouble = False
            return True
        if EXPECTED.search(line):
            self.following_trouble = False
            return False
        if WRONG.search(line):
            self.following_trouble = True
            return True
        if RECORD_START.match(line):
            self.following_trouble = False
            return False
        return self.following_trouble and bool(line.strip())


class Child:
    """One of the processes serve_all runs: started again whenever it stops, until everything stops."""

    def __init__(self, name: str, command: list[str], env: dict, relay):
        self.name = name
        self.command = command
        self.env = env
        self.relay = relay  # (child, process) -> None: shows its output, in a thread of its own
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.restart_at: float | None = None
        self.stops_at_once = 0  # stops in a row, each within AT_ONCE seconds of its start
        self.last_lines: collections.deque = collections.deque(maxlen=12)  # (when, line, shown)

    def start(self) -> None:
        self.last_lines.clear()
        self.proc = subprocess.Popen(
            self.command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        self.started = time.monotonic()
        self.restart_at = None
        self.relaying = threading.Thread(target=self.relay, args=(self, self.proc), daemon=True)
        self.relaying.start()

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tend(self, say) -> None:
        """Start it again if it stopped and its pause is over; say once that it stopped, and how."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.start()
            return
        if self.proc is None or self.proc.poll() is None:
            return
        code = self.proc.returncode
        # What the process wrote last is shown before the line that says it stopped.
        self.relaying.join(timeout=1)
        lived = now - self.started
        self.stops_at_once = self.stops_at_once + 1 if lived < AT_ONCE else 0
        pause = min(LAST_PAUSE, FIRST_PAUSE * 2 ** max(0, self.stops_at_once - 1))
        self.restart_at = now + pause
        how = how_it_stopped(code)
        if self.stops_at_once >= FAILING_AT_ONCE:
            say(
                f"[{self.name}] keeps stopping as soon as it starts ({how}, {self.stops_at_once} times in a "
                f"row): it is not working. Trying again in {pause:.0f} s; Ctrl-C stops everything.",
            )
        else:
            say(f"[{self.name}] stopped ({how}) after {lived:.0f} s; restarting it in {pause:.0f} s.")
        # Why it ended, if it ended by itself and the quiet terminal left its last words out (runserver's
        # "That port is already in use"). A process killed said nothing about it.
        for line in self.last_words(now) if code >= 0 else ():
            say(f"[{self.name}]   {line}")

    def last_words(self, stopped: float) -> list[str]:
        return [
            line
            for at, line, shown in self.last_lines
            if not shown and line.strip() and at > stopped - LAST_WORDS
        ]

    def stop(self) -> None:
        if self.running():
            self.proc.send_signal(signal.SIGTERM)

    def wait(self) -> None:
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Command(BaseCommand):
    help = (
        "Run the web server, a Celery worker for notifications, one for deadlines and Celery beat together "
        "(the embedded default of make run), starting again any that stops, and showing only resolutions, "
        "warnings and errors."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument(
            "--demo", action="store_true", help="Print the demo's logins once the site answers."
        )
        parser.add_argument("--verbose", action="store_true", help="Show everything the processes write.")

    def handle(self, *args, **options):
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "genius"]
        commands = {
            "web": self.web_server(python, options),
            # One process per queue: on SQLite, writers take turns anyway. Deadlines have their own, so a
            # slow webhook receiver or mail server never holds up a round's close.
            "worker": [*celery, "worker", *worker_of("celery")],
            "deadlines": [*celery, "worker", *worker_of("deadlines")],
            # Beat's schedule is two intervals (the sweep, the resend), nothing worth remembering between
            # starts: kept in memory, not in a file a full disk would make beat die writing.
            "beat": [*celery, "beat", "--loglevel", "WARNING", "--scheduler", "celery.beat:Scheduler"],
        }
        env = self.environment(options)
        self.lock = threading.Lock()
        self.verbose = options["verbose"]
        children = [Child(name, command, env, self._relay) for name, command in commands.items()]
        # A SIGTERM (a service manager, `kill`) stops everything as Ctrl-C does.
        signal.signal(signal.SIGTERM, _interrupt)
        url = f"http://{options['host']}:{options['port']}/"
        try:
            for child in children:
                child.start()
            self._supervise(children, url, options, env.get("GENIUS_EMAIL_DIR"))
        except KeyboardInterrupt:
            pass
        finally:
            for child in children:
                child.stop()
            for child in children:
                child.wait()

    def web_server(self, python: str, options) -> list[str]:
        """The whole site under ASGI (uvicorn), so the pages' event streams show a move at once
        (docs/live.md): relayed by Redis if one is named, else by the database's push table. runserver only
        with push off (GENIUS_PUSH_BACKEND=off)."""
        if not live_push.enabled():
            return [python, "manage.py", "runserver", f"{options['host']}:{options['port']}", "--noreload"]
        return [
            *(python, "-m", "uvicorn", "genius.asgi:application"),
            *("--host", options["host"], "--port", str(options["port"])),
            *("--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "2"),
        ]

    def _supervise(self, children, url: str, options, outbox: str | None) -> None:
        """Until Ctrl-C: start again what stopped, greet once the site answers, watch the disk."""
        greet_by = time.monotonic() + 60
        greeted = False
        disk_checked = 0.0
        disk_low = False
        while True:
            for child in children:
                child.tend(self._say)
            if not greeted and children[0].running() and self._answers(url + "healthz/"):
                greeted = True
                with self.lock:
                    self._greet(url, options, outbox)
            elif not greeted and time.monotonic() > greet_by:
                greeted = True
                self._say(f"The site does not answer at {url} yet: the lines above may say why.")
            if time.monotonic() - disk_checked > DISK_CHECK:
                disk_checked = time.monotonic()
                disk_low = self._watch_disk(disk_low)
            time.sleep(0.2)

    def _watch_disk(self, was_low: bool) -> bool:
        """Say once when the disk holding var/ runs low, and once when it has room again."""
        try:
            free = shutil.disk_usage(settings.VAR_DIR).free
        except OSError:
            return was_low
        low = free < LOW_DISK_BYTES
        if low and not was_low:
            self._say(
                f"The disk holding {settings.VAR_DIR} has {free // 1024 // 1024} MB left. When it is full, "
                "saves are refused and rounds wait to resolve; free some space and they go on by themselves."
            )
        elif was_low and not low:
            self._say(f"The disk holding {settings.VAR_DIR} has room again.", error=False)
        return low

    def _say(self, line: str, error: bool = True) -> None:
        with self.lock:
            (self.stderr if error else self.stdout).write(line)

    def environment(self, options, base=None) -> dict:
        """The four processes' environment: emails to files unless an SMTP host is set, and the links in
        them to the address this command serves (`make run PORT=8001` included) unless GENIUS_SITE_URL
        says where players reach the site."""
        env = {**(os.environ if base is None else base), "PYTHONUNBUFFERED": "1"}
        if not env.get("DJANGO_EMAIL_HOST"):
            env.setdefault("GENIUS_EMAIL_DIR", str(settings.VAR_DIR / "outbox"))
        env.setdefault("GENIUS_SITE_URL", f"http://{options['host']}:{options['port']}")
        return env

    def _relay(self, child: Child, proc) -> None:
        quiet = Quiet()
        for line in proc.stdout:
            line = line.rstrip("\n")
            shown = self.verbose or quiet.keep(line)
            child.last_lines.append((time.monotonic(), line, shown))
            if shown:
                with self.lock:
                    self.stdout.write(f"[{child.name}] {line}")

    def _answers(self, url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:  # noqa: S310 (our own address)
                return answer.status == 200
        except OSError:
            return False

    def _greet(self, url: str, options, outbox: str | None) -> None:
        self.stdout.write(
            self.style.SUCCESS(f"genius is at {url} with workers and beat. Ctrl-C stops everything.")
        )
        quiet = (
            "" if options["verbose"] else "This terminal shows a line when a round resolves, and any error"
        )
        if quiet:
            self.stdout.write(quiet + (f"; emails are written to {outbox}/." if outbox else "."))
        if options["demo"]:
            from django.contrib.auth import get_user_model

            from games.platform.demo import DEMO_SEASON, greeting
            from games.platform.models import Season

            season = Season.objects.filter(name=DEMO_SEASON).first()
            host = get_user_model().objects.filter(username="host").first()
            if season is not None and host is not None:
                for line in greeting(season, host, url):
                    self.stdout.write(line)
        from games.platform.services.host_role import site_is_empty

        if site_is_empty():
            first_run = url.rstrip("/") + "/first-run/"
            self.stdout.write(
                f"No account yet: open {first_run} to make the first host (or manage.py make_host)."
            )
