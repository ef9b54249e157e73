"""A full disk under `make run`'s embedded default (issue 28.2): serve_all on SQLite and the file broker, all
in a var/ folder on a small disk of the test's own (tests/disk.py), which the test fills to the last byte
while a round falls due, then frees.

On main, beat's sweep left an empty `.msg` file at the first publish the disk refused; both workers died
decoding such files, serve_all stopped the whole site, and every restart died on the same files. Now every
refused publish leaves nothing in the queue, files left by the old broker are moved aside with a warning
naming them, no process stops, the terminal says the disk is full, and the round that fell due meanwhile
resolves once, as soon as there is room, and its page shows it.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
import requests

from tests.disk import small_disk
from tests.embedded import EmbeddedSite, var_folder

pytestmark = pytest.mark.faults

# Beat's line when the broker refuses the sweep: ENOSPC on the tmpfs, EFBIG under the file-size limit.
REFUSED = r"Couldn't apply scheduled task games\.platform\.tasks\.sweep\(\).*(No space left|File too large)"


@pytest.fixture
def site(tmp_path, embedded_database):
    with small_disk(tmp_path / "disk") as disk:
        live = EmbeddedSite(var_folder(disk.path / "var", embedded_database.database))
        live.disk = disk
        live.game, live.round = embedded_database.game, embedded_database.round
        live.start()
        try:
            yield live
        finally:
            disk.free(live.pids())
            live.stop()


def test_a_full_disk_stops_no_process_leaves_nothing_in_the_queue_and_the_round_resolves_once_there_is_room(
    site,
):
    queue = site.var / "broker" / "queue"
    before = site.children()
    # What kombu's own transport left on a full disk: an empty message in each worker's queue.
    (queue / "1_left.deadlines.msg").write_bytes(b"")
    (queue / "2_left.celery.msg").write_bytes(b"")
    site.wait_for(
        r"\[deadlines\] .* A broken message file was moved to .*/broker/corrupt/1_left\.deadlines\.msg"
    )
    site.wait_for(r"\[worker\] .* A broken message file was moved to .*/broker/corrupt/2_left\.celery\.msg")

    closes_at = due_in(site, seconds=3)
    site.disk.fill(site.pids())
    refused_before = len(site.said(REFUSED))
    # The round falls due while the disk is full, and a few sweeps after it (one a second here) are refused.
    site.wait_until(lambda: datetime.now(UTC) > closes_at + timedelta(seconds=2), "the round falling due")
    site.wait_for(REFUSED, count=refused_before + 3)
    assert os.listdir(queue) == [], "a refused publish left a file in the queue"
    if site.disk.kind == "tmpfs":
        site.wait_for(r"^The disk holding .*/var has 0 MB left\. When it is full, saves are refused")
    page = requests.get(f"{site.url}/games/{site.game}/", timeout=10)
    assert page.status_code == 200 and "Round 0 total" not in page.text
    assert site.children() == before and not site.said(r"stopped|keeps stopping|Unrecoverable")

    site.disk.free(site.pids())
    site.wait_for(r"Round 0 of Tally resolved")
    assert requests.get(f"{site.url}/games/{site.game}/", timeout=10).text.count("Round 0 total: 0.") >= 1
    if site.disk.kind == "tmpfs":
        site.wait_for(r"^The disk holding .*/var has room again\.")
    site.wait_until(lambda: status(site) == "resolved", "the round stored as resolved")
    assert len(site.said(r"Round 0 of Tally resolved")) == 1
    assert site.children() == before and not site.said(r"stopped|keeps stopping|Unrecoverable")
    assert sorted(os.listdir(site.var / "broker" / "corrupt")) == [
        "1_left.deadlines.msg",
        "2_left.celery.msg",
    ]


def due_in(site, seconds: float) -> datetime:
    """The round falls due in `seconds` (written as Django writes a time to SQLite: UTC, no offset)."""
    closes_at = datetime.now(UTC) + timedelta(seconds=seconds)
    with sqlite3.connect(site.var / "genius.sqlite3", timeout=20) as db:
        db.execute(
            "UPDATE platform_round SET closes_at = ? WHERE id = ?",
            (closes_at.strftime("%Y-%m-%d %H:%M:%S.%f"), site.round),
        )
    return closes_at


def status(site) -> str:
    with sqlite3.connect(site.var / "genius.sqlite3", timeout=20) as db:
        return db.execute("SELECT status FROM platform_round WHERE id = ?", (site.round,)).fetchone()[0]
