"""The demo greets a newcomer: `make run` keeps its terminal quiet (a line when a round resolves, and any
error) and prints the logins last; the demo's home page lists them, only with DEBUG on (never in
production)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

from games.platform.management.commands.serve_all import Command as ServeAll
from games.platform.management.commands.serve_all import Quiet

pytestmark = pytest.mark.django_db

# What the four processes of `make run` write in a few seconds of a demo, as they write it.
OUTPUT = """\
WARNING: This is a development server. Do not use it in a production setting.
For more information on production servers see: https://docs.djangoproject.com/en/6.1/howto/deployment/
2026-11-24 16:44:30,120 INFO django.server 4711: "GET /games/2/feed/?v=7 HTTP/1.1" 204 0
2026-11-24 16:44:31,002 WARNING django.request 4711: Not Found: /nowhere/
    . logfile -> [stderr]@%WARNING
    . maxinterval -> 5.00 minutes (300s)
[2026-11-24 16:44:35,001: INFO/MainProcess] Scheduler: Sending due task sweep (games.platform.tasks.sweep)
[2026-11-24 16:44:35,010: INFO/MainProcess] Task games.platform.tasks.sweep[ab] received
Content-Type: text/plain; charset="utf-8"
Subject: [genius] Round 3 is open
[2026-11-24 16:44:40,352: INFO/MainProcess] Round 3 of Demo Horse Race resolved
[2026-11-24 16:44:41,000: INFO/MainProcess] Task games.platform.tasks.sweep[cd] succeeded in 0.01s: {}
2026-11-24 16:44:42,500 ERROR games.platform.rounds 4712: Resolving round 9 failed
Traceback (most recent call last):
  File "rounds.py", line 140, in round_resolve
RuntimeError: the rules blew up
2026-11-24 16:44:45,000 INFO django.server 4711: "GET / HTTP/1.1" 200 512
ERROR:    Cancel 2 running task(s), timeout graceful shutdown exceeded
"""


def test_the_terminal_shows_a_resolution_and_an_error_with_its_traceback_and_nothing_else():
    quiet = Quiet()
    shown = [line for line in OUTPUT.splitlines() if quiet.keep(line)]
    assert shown == [
        "[2026-11-24 16:44:40,352: INFO/MainProcess] Round 3 of Demo Horse Race resolved",
        "2026-11-24 16:44:42,500 ERROR games.platform.rounds 4712: Resolving round 9 failed",
        "Traceback (most recent call last):",
        '  File "rounds.py", line 140, in round_resolve',
        "RuntimeError: the rules blew up",
    ]


def test_the_demo_loads_in_one_line_and_the_site_greets_with_the_logins_last():
    out = io.StringIO()
    call_command("load_demo", "--quiet", stdout=out)
    (said,) = out.getvalue().splitlines()
    assert re.fullmatch(r"The demo season is ready: \d+ games\.", said)
    greeting = io.StringIO()
    serve = ServeAll(stdout=greeting, no_color=True)
    serve._greet("http://127.0.0.1:8000/", {"verbose": False, "demo": True}, "var/outbox")
    lines = greeting.getvalue().splitlines()
    assert lines[0].startswith("genius is at http://127.0.0.1:8000/")
    assert "emails are written to var/outbox/" in lines[1]
    assert "  player1    player1-pass" in lines and lines[-1].startswith("  http://127.0.0.1:8000/join/")


def test_the_demo_home_page_lists_its_logins_only_with_debug_on(settings):
    call_command("load_demo", "--quiet", stdout=io.StringIO())
    settings.DEBUG = True
    page = Client().get("/").content.decode()
    assert "Try the demo" in page and "<code>player1 … player10</code>, password <code>player1-pass" in page
    assert "<code>host</code>, password <code>host-demo-pass</code>" in page
    settings.DEBUG = False
    assert "player1-pass" not in Client().get("/").content.decode()


def test_the_emails_of_make_run_link_to_the_port_it_serves_unless_the_site_url_is_set():
    options = {"host": "127.0.0.1", "port": "8001"}
    env = ServeAll().environment(options, base={})
    assert env["GENIUS_SITE_URL"] == "http://127.0.0.1:8001" and env["GENIUS_EMAIL_DIR"].endswith("outbox")
    env = ServeAll().environment(
        options, base={"GENIUS_SITE_URL": "https://genius.example", "DJANGO_EMAIL_HOST": "m"}
    )
    assert env["GENIUS_SITE_URL"] == "https://genius.example" and "GENIUS_EMAIL_DIR" not in env
