"""The benchmark runs end to end in its smoke mode and writes its JSON (its figures are not judged here).

It runs on a database and a Redis database of its own: named after the test database (GENIUS_TEST_DB) and
the tests' Redis database when those are set, so helpers running the suite side by side never share them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.faults.stack import free_port

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.slow
def test_bench_smoke_runs_and_writes_its_results(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("The benchmark runs on Postgres (gunicorn with the pool); DATABASE_URL is not Postgres.")
    output = tmp_path / "smoke.json"
    database = f"{os.environ.get('GENIUS_TEST_DB') or 'test_genius'}_bench_smoke"
    own = ["--database", database]
    redis_path = urlsplit(os.environ.get("REDIS_URL", "")).path.strip("/")
    if redis_path.isdigit():  # the tests' own Redis database: the tests empty it before each test anyway
        own += ["--redis-db", redis_path]
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--smoke", "--seconds", "1", "--port", str(free_port())]
        + ["--stream-port", str(free_port())]  # not the port after: another bench may hold it
        + own
        + ["--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=480,  # every part, the stream part with its uvicorn included, on a loaded machine
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads(output.read_text())
    assert set(report["results"]) == {
        "ceiling_healthz",
        "feed_poll_204",
        "player_game_page",
        "api_submission_save",
        "spectator_game_page",
    }
    # Every type is timed: the test games, and the host-run ones whose rounds wait for the hosts' results.
    timed = {"tally", "tally_30", "tally_duel", "host_run", "host_run_death"}
    assert timed <= set(report["resolution"]), report["resolution"]
    assert all(row["median_ms"] > 0 and row["queries"] > 0 for row in report["resolution"].values())
    for case, by_clients in report["results"].items():
        for clients, row in by_clients.items():
            assert row["requests"] > 0, (case, clients, row)
            assert row["errors"] == 0, (case, clients, row)
    assert report["not_started"] == {}, report["not_started"]
    # The open-loop capacity of each case, stepped at Poisson arrival rates, with its ratio to the ceiling.
    assert set(report["capacity"]) == {
        "ceiling_healthz",
        "feed_poll_204",
        "player_game_page",
        "api_submission_save",
    }
    for case, row in report["capacity"].items():
        assert row["steps"] and all(step["requests"] > 0 for step in row["steps"]), (case, row)
        assert row["capacity_rps"] > 0 and row["ratio_to_ceiling"] is not None, (case, row)
    # Live moves of Middle Marathon reached the opponent's polling page.
    move = report["live_move"]
    assert move["moves"] >= 4 and move["errors"] == 0, move
    assert 0 < move["seen_p50_ms"] <= move["seen_p95_ms"], move
    # The same viewers of one match pushed (uvicorn's event streams, then a fetch) and polling: every screen,
    # players and spectators, showed every move, and the stream server's memory was read.
    stream = report["stream"]
    rows = stream["poll"] + [row for by_workers in stream["push"].values() for row in by_workers]
    assert stream["push"] and all(row["mode"] == "push" for row in stream["push"]["1"]), stream
    for row in rows:
        assert row["moves"] >= 1 and row["screens_lost"] == 0 and row["errors"] == 0, row
        assert row["players"]["screens_seen"] == 2 * row["moves"], row
        assert row["spectators"]["screens_seen"] == (row["viewers"] - 2) * row["moves"], row
    assert all(row["stream_server_rss_mb"][1] > 0 for row in stream["push"]["1"]), stream
