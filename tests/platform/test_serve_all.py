"""`make run`'s serve_all starts again a process that stops, saying so in the terminal, and stops them all
only on Ctrl-C or SIGTERM (issue 28.2): a worker killed no longer takes the site down with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
import requests

from games.platform.management.commands import serve_all
from games.platform.management.commands.serve_all import Child
from tests.embedded import ROOT, EmbeddedSite, children_of, environment, var_folder

pytestmark = pytest.mark.slow


@pytest.fixture
def site(tmp_path, embedded_database):
    live = EmbeddedSite(var_folder(tmp_path / "var", embedded_database.database))
    live.start()
    yield live
    live.stop()


def test_a_killed_worker_and_web_server_are_started_again_and_the_site_answers_until_a_sigterm(site):
    first = site.children()
    os.kill(first["worker"], signal.SIGKILL)
    os.kill(first["web"], signal.SIGKILL)
    os.kill(first["deadlines"], signal.SIGTERM)
    site.wait_for(r"^\[worker\] stopped \(killed by SIGKILL\) after \d+ s; restarting it in 1 s\.$")
    site.wait_for(r"^\[web\] stopped \(killed by SIGKILL\) after \d+ s; restarting it in 1 s\.$")
    # A worker asked to stop by someone else (a warm shutdown) is started again too.
    site.wait_for(
        r"^\[deadlines\] stopped \((killed by SIGTERM|exit code 0)\) after \d+ s; restarting it in 1 s\.$"
    )
    site.wait_until(
        lambda: (
            (now := site.children()).keys() == first.keys()
            and all(now[role] != first[role] for role in ("worker", "deadlines", "web"))
        ),
        "the three started again",
    )
    assert site.children()["beat"] == first["beat"]
    site.wait_until(lambda: _answers(site.url + "/healthz/"), "the site answering again")
    assert requests.get(site.url + "/", timeout=5).status_code == 200
    assert not site.said("stopping the rest|keeps stopping")

    now = site.children()
    assert site.stop(signal.SIGTERM) == 0
    assert children_of(site.proc.pid) == {}
    for pid in now.values():
        assert not _alive(pid), f"{pid} outlived serve_all"


def test_with_no_redis_a_move_reaches_an_open_event_stream_through_the_database(site, embedded_database):
    # make run's embedded default (SQLite, the file broker, no Redis): uvicorn serves the site, and a move
    # committed by the web process, then one committed by the deadlines worker, reach the stream through the
    # push table. v=999999: the stream owes this page no catch-up, so only a pushed event can bring a move.
    game = embedded_database.game
    assert "uvicorn" in open(f"/proc/{site.children()['web']}/cmdline").read()
    heard: list[str] = []
    listening = threading.Event()

    def listen():
        with requests.get(f"{site.url}/events/?game={game}&v=999999", stream=True, timeout=120) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            try:
                for line in stream.iter_lines(decode_unicode=True):
                    if line.startswith("retry:"):
                        listening.set()
                    if line.startswith("data:"):
                        heard.append(line)
            except requests.RequestException:  # the site stopped at the test's end: its streams end too
                return

    threading.Thread(target=listen, daemon=True).start()
    assert listening.wait(30), "the stream did not open"
    token = requests.post(
        f"{site.url}/api/token/", json={"username": "hank", "password": "pw-hank"}, timeout=30
    ).json()["token"]
    resolved = requests.post(
        f"{site.url}/api/games/{game}/host/resolve/",
        json={},
        headers={"Authorization": f"Token {token}"},
        timeout=30,
    )
    assert resolved.status_code == 200, resolved.text
    version = resolved.json()["version"]
    site.wait_until(
        lambda: f'data: {{"game":{game},"v":{version}}}' in heard, "the host's move on the stream"
    )

    # Round 1 closes now: the sweep finds it and the deadlines worker (another process) resolves it.
    manage_in(
        site,
        f"from django.utils import timezone; from games.platform.models import Round; "
        f"Round.objects.filter(game_id={game}, number=1).update(closes_at=timezone.now())",
    )
    site.wait_for(r"Round 1 of Tally resolved", seconds=60)
    site.wait_until(
        lambda: any(json.loads(line[5:])["v"] > version for line in heard), "the worker's move on the stream"
    )


def manage_in(site, code: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=environment(site.var),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_process_that_keeps_stopping_at_once_is_said_plainly_with_its_last_words(monkeypatch):
    monkeypatch.setattr(serve_all, "FIRST_PAUSE", 0.05)
    said = []
    failing = [sys.executable, "-c", "import sys; print('Error: That port is already in use.'); sys.exit(3)"]

    def relay(child, proc):  # as serve_all's: every line kept, none shown (the quiet terminal hid it)
        for line in proc.stdout:
            child.last_lines.append((time.monotonic(), line.rstrip("\n"), False))

    child = Child("web", failing, env=None, relay=relay)
    child.start()
    pauses = []
    deadline = time.monotonic() + 20
    while len(pauses) < 4 and time.monotonic() < deadline:
        before = child.restart_at
        child.tend(lambda line, error=True: said.append(line))
        if child.restart_at is not None and child.restart_at != before:
            pauses.append(round(child.restart_at - time.monotonic(), 2))
        time.sleep(0.01)
    assert [p > 0 for p in pauses] == [True] * 4
    # Each stop soon after the start doubles the pause.
    assert pauses[1] > pauses[0] * 1.5 and pauses[2] > pauses[1] * 1.5 and pauses[3] > pauses[2] * 1.5
    stops = [line for line in said if "stopped" in line or "keeps stopping" in line]
    assert stops[0].startswith("[web] stopped (exit code 3) after 0 s; restarting it in 0 s.")
    assert stops[2].startswith("[web] keeps stopping as soon as it starts (exit code 3, 3 times in a row)")
    assert "[web]   Error: That port is already in use." in said
    child.stop()


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _alive(pid: int) -> bool:
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"
