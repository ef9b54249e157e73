"""`make run`'s serve_all starts again a process that stops, saying so in the terminal, and stops them all
only on Ctrl-C or SIGTERM (issue 28.2): a worker killed no longer takes the site down with it."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest
import requests

from games.platform.management.commands import serve_all
from games.platform.management.commands.serve_all import Child
from tests.embedded import EmbeddedSite, children_of, var_folder

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
