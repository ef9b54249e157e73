"""The benchmark runs end to end in its smoke mode and writes its JSON (its figures are not judged here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.slow
def test_bench_smoke_runs_and_writes_its_results(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("The benchmark runs on Postgres (gunicorn with the pool); DATABASE_URL is not Postgres.")
    output = tmp_path / "smoke.json"
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--smoke", "--seconds", "1", "--port", "8766"]
        + ["--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
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
    assert {"tally", "tally_30"} <= set(report["resolution"]), report["resolution"]
    assert all(row["median_ms"] > 0 and row["queries"] > 0 for row in report["resolution"].values())
    for case, by_clients in report["results"].items():
        for clients, row in by_clients.items():
            assert row["requests"] > 0, (case, clients, row)
            assert row["errors"] == 0, (case, clients, row)
    assert report["not_started"] == {}, report["not_started"]
