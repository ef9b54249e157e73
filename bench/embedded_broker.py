"""The embedded default's broker, measured as `make run` runs it (issue 28.2): files (genius/filebroker.py)
against the database (kombu's SQLAlchemy transport on SQLite), each under `manage.py serve_all` on SQLite.

For each broker: a few Tally rounds fall due one after another, and the time from each deadline until the
game's page (polled every 0.1 s, as a visitor) shows the result is taken: the sweep's period (5 s) plus the
broker's two hops. Then, with the site idle, 300 short write transactions on the site's SQLite file (a
save takes the same lock) are timed, and what the broker keeps after the run is counted.

    python bench/embedded_broker.py [--rounds 4] [--sqlalchemy PATH]

`--sqlalchemy` is a folder holding SQLAlchemy (`pip install --target PATH sqlalchemy`), which the project
does not depend on; without it only the files are measured.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.embedded import EmbeddedSite, manage, tally_game, var_folder  # noqa: E402


def due_now(db: Path, round_id: int, seconds: float = 1.0) -> datetime:
    closes_at = datetime.now(UTC) + timedelta(seconds=seconds)
    with sqlite3.connect(db, timeout=30) as conn:
        conn.execute(
            "UPDATE platform_round SET closes_at = ? WHERE id = ?",
            (closes_at.strftime("%Y-%m-%d %H:%M:%S.%f"), round_id),
        )
    return closes_at


def resolution_delays(site: EmbeddedSite, games: list[tuple[int, int]]) -> list[float]:
    delays = []
    for game, round_id in games:
        closes_at = due_now(site.var / "genius.sqlite3", round_id)
        while True:
            page = requests.get(f"{site.url}/games/{game}/", timeout=30).text
            if "Round 0 total" in page:
                delays.append((datetime.now(UTC) - closes_at).total_seconds())
                break
            time.sleep(0.1)
    return delays


def write_waits(db: Path, count: int = 300) -> list[float]:
    """Milliseconds each short write transaction took, one every 20 ms."""
    waits = []
    with sqlite3.connect(db, timeout=30, isolation_level=None) as conn:
        for n in range(count):
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(
                "UPDATE platform_season SET name = ? WHERE id = (SELECT MIN(id) FROM platform_season)",
                (f"S{n}",),
            )
            conn.execute("COMMIT")
            waits.append((time.perf_counter() - start) * 1000)
            time.sleep(0.02)
    return waits


def kept(var: Path, url: str) -> str:
    if url.startswith("sqla+"):
        db = url.removeprefix("sqla+sqlite:///")
        with sqlite3.connect(db, timeout=30) as conn:
            rows = conn.execute("SELECT COUNT(*), SUM(visible = 0) FROM kombu_message").fetchone()
        return f"{rows[0]} message rows kept ({rows[1]} already delivered)"
    left = list((var / "broker" / "queue").iterdir())
    return f"{len(left)} message files in the queue"


def measure(name: str, url: str | None, template: Path, rounds: int, extra: dict) -> None:
    var = var_folder(Path(tempfile.mkdtemp(prefix="embedded-broker-")) / "var", template)
    games = [tally_game(var) for _ in range(rounds)]
    if url is not None:
        url = url.format(var=var)
    env = {"GENIUS_SWEEP_SECONDS": "5", "GENIUS_RESEND_SECONDS": "10", **extra}
    if url:
        env["CELERY_BROKER_URL"] = url
    site = EmbeddedSite(var, **env)
    site.start()
    try:
        time.sleep(5)  # past the start's first sweeps
        delays = resolution_delays(site, games)
        time.sleep(2)
        waits = write_waits(var / "genius.sqlite3")
        start, idle = time.monotonic(), 60
        time.sleep(idle)
        note = kept(var, url or "files")
    finally:
        site.stop()
    waits.sort()
    print(
        f"{name}: deadline to page {statistics.median(delays):.1f} s median, {max(delays):.1f} s max "
        f"({', '.join(f'{d:.1f}' for d in delays)}); a write on the site's SQLite "
        f"p50 {waits[len(waits) // 2]:.1f} ms, p99 {waits[int(len(waits) * 0.99)]:.1f} ms, "
        f"max {waits[-1]:.1f} ms; after {time.monotonic() - start:.0f} s more idle: {note}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--sqlalchemy", help="a folder holding SQLAlchemy, for the database broker")
    args = parser.parse_args()
    template = Path(tempfile.mkdtemp(prefix="embedded-template-"))
    manage(template, "migrate", "--no-input", "-v0")
    database = template / "genius.sqlite3"
    measure("files (genius-files://)", None, database, args.rounds, {})
    if args.sqlalchemy:
        path = {"PYTHONPATH": os.pathsep.join([args.sqlalchemy, str(ROOT)])}
        measure(
            "database, the site's SQLite file (sqla+sqlite)",
            "sqla+sqlite:///{var}/genius.sqlite3",
            database,
            args.rounds,
            path,
        )
        measure(
            "database, a SQLite file of its own (sqla+sqlite)",
            "sqla+sqlite:///{var}/broker.sqlite3",
            database,
            args.rounds,
            path,
        )


if __name__ == "__main__":
    main()
