"""Serve the site with Celery workers and beat beside it, so rounds close on time; Ctrl-C stops them all.

The terminal stays quiet: of what the four processes write, it shows a line when a round resolves and
every warning or error (with its traceback), nothing else (no sweep every 5 s, no request lines). Emails
go to files in var/outbox/ unless an SMTP host is set. With --demo the demo's logins come last, once the
site answers, so nothing scrolls them away.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand

# A line worth showing: a round resolved (games.platform.rounds says so), or something wrong. Lines that
# follow a shown warning or error without a record's own start (a traceback) are shown with it.
RESOLVED = re.compile(r"\bRound \d+ of .+ resolved\b")
WRONG = re.compile(r"(^|[\s:\[])(WARNING|ERROR|CRITICAL)[\s/:]|^Traceback")
# 4xx answers are the players' own mistakes (a wrong URL, a refused save), not the server's; and runserver
# says at every start that it is a development server.
EXPECTED = re.compile(r"WARNING django\.(request|server)|^WARNING: This is a development server")
RECORD_START = re.compile(r"^(\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\S+ \[\d)")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def worker_of(queue: str) -> list[str]:
    return ["-Q", queue, "-n", f"{queue}@%h", "--loglevel", "WARNING", "--pool", "solo"]


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


class Command(BaseCommand):
    help = (
        "Run the web server, a Celery worker for notifications, one for deadlines and Celery beat together "
        "(the embedded default of make run), showing only resolutions, warnings and errors."
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
            "web": [python, "manage.py", "runserver", f"{options['host']}:{options['port']}", "--noreload"],
            # One process per queue: on SQLite, writers take turns anyway. Deadlines have their own, so a
            # slow webhook receiver or mail server never holds up a round's close.
            "worker": [*celery, "worker", *worker_of("celery")],
            "deadlines": [*celery, "worker", *worker_of("deadlines")],
            "beat": [*celery, "beat", "--loglevel", "WARNING"],
        }
        env = self.environment(options)
        procs = {
            name: subprocess.Popen(
                cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
            )
            for name, cmd in commands.items()
        }
        lock = threading.Lock()
        for name, proc in procs.items():
            threading.Thread(
                target=self._relay, args=(name, proc, lock, options["verbose"]), daemon=True
            ).start()
        # A SIGTERM (a service manager, `kill`) stops everything as Ctrl-C does.
        signal.signal(signal.SIGTERM, _interrupt)
        url = f"http://{options['host']}:{options['port']}/"
        try:
            self._wait_for(url + "healthz/", procs)
            with lock:
                self._greet(url, options, env.get("GENIUS_EMAIL_DIR"))
            while all(p.poll() is None for p in procs.values()):
                time.sleep(0.5)
            dead = [name for name, p in procs.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(dead)} stopped; stopping the rest.")
        except KeyboardInterrupt:
            pass
        finally:
            for p in procs.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in procs.values():
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()

    def environment(self, options, base=None) -> dict:
        """The four processes' environment: emails to files unless an SMTP host is set, and the links in
        them to the address this command serves (`make run PORT=8001` included) unless GENIUS_SITE_URL
        says where players reach the site."""
        env = {**(os.environ if base is None else base), "PYTHONUNBUFFERED": "1"}
        if not env.get("DJANGO_EMAIL_HOST"):
            env.setdefault("GENIUS_EMAIL_DIR", str(settings.VAR_DIR / "outbox"))
        env.setdefault("GENIUS_SITE_URL", f"http://{options['host']}:{options['port']}")
        return env

    def _relay(self, name: str, proc, lock, verbose: bool) -> None:
        quiet = Quiet()
        for line in proc.stdout:
            line = line.rstrip("\n")
            if verbose or quiet.keep(line):
                with lock:
                    self.stdout.write(f"[{name}] {line}")

    def _wait_for(self, url: str, procs) -> None:
        """Until the web server answers (at most a minute), or one of the processes stopped."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and all(p.poll() is None for p in procs.values()):
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:  # noqa: S310 (our own address)
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.3)

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
