"""Serve the site with Celery workers and beat beside it, so rounds close on time; Ctrl-C stops them all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand


def worker_of(queue: str) -> list[str]:
    return ["-Q", queue, "-n", f"{queue}@%h", "--loglevel", "INFO", "--pool", "solo"]


class Command(BaseCommand):
    help = (
        "Run the web server, a Celery worker for notifications, one for deadlines and Celery beat together "
        "(the embedded default of make run)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")
        parser.add_argument("--host", default="127.0.0.1")

    def handle(self, *args, **options):
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "genius"]
        commands = {
            "web": [python, "manage.py", "runserver", f"{options['host']}:{options['port']}", "--noreload"],
            # One process per queue: on SQLite, writers take turns anyway. Deadlines have their own, so a
            # slow webhook receiver or mail server never holds up a round's close.
            "worker": [*celery, "worker", *worker_of("celery")],
            "deadlines": [*celery, "worker", *worker_of("deadlines")],
            "beat": [*celery, "beat", "--loglevel", "INFO"],
        }
        procs = {name: subprocess.Popen(cmd, env=os.environ.copy()) for name, cmd in commands.items()}
        self.stdout.write(
            self.style.SUCCESS(
                f"genius is at http://{options['host']}:{options['port']}/ with workers and beat "
                "(the sweep closes due rounds every few seconds). Ctrl-C stops everything."
            )
        )
        try:
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
