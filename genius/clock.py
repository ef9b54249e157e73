"""One clock for every process: the database's (issue 28.4).

The web stamps saves and checks them against the deadline; the worker decides that a round is due, that a
clock ran out, that a start time came. Each on its own machine's clock, a worker 30 s ahead closed rounds
30 s early and refused saves sent on time. So whether a deadline has passed is decided by one clock that
every process shares, the database's. `site_now()` is this process's clock plus its skew from the
database's, read with `clock_timestamp()` (the moment of the reading; Postgres's `now()` is the start of the
transaction) at most every READ_EVERY seconds of the monotonic clock: one query per process per
half-minute, none per request. Every deadline decision and every stamp compared with one takes
`site_now()`: a save's check and its time, a resolution's "due" and `resolved_at`, a clock's expiry, a
move's time, the sweep's queries, the pages' "closed, results coming". A clock stepped while a process runs
is followed at the next reading.

On SQLite the database's clock is the machine's (the library runs in the process), which every process on
that machine shares.

The tests move time with time-machine, which moves this process's clock and not the database's: measured
then, the skew would undo the travel. So GENIUS_DATABASE_CLOCK (on by default, and in every process the
fault suite starts) is turned off by the tests' conftest, and a test's travel decides the time as it always
did. tests/platform/test_one_clock.py turns it on and skews this process's clock against the database's;
tests/faults/test_skewed_clock.py runs a live worker 30 s ahead. /readyz/ reports `clock_skew_seconds()`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.utils import timezone

log = logging.getLogger(__name__)

READ_EVERY = 30  # seconds between two readings of the database's clock in one process
RETRY_AFTER = 5  # seconds before trying again when a reading failed (the database away)

SQL = {
    "postgresql": "SELECT clock_timestamp()",
    "sqlite": "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')",
}


@dataclass
class Reading:
    skew: float = 0.0  # seconds the database's clock is ahead of this process's (negative: behind)
    at: float | None = None  # time.monotonic() of the reading, None before the first


last = Reading()


def site_now() -> datetime:
    """The time by the database's clock (this process's, with GENIUS_DATABASE_CLOCK off)."""
    if not settings.GENIUS_DATABASE_CLOCK:
        return timezone.now()
    return timezone.now() + timedelta(seconds=clock_skew_seconds())


def clock_skew_seconds() -> float:
    """Seconds the database's clock is ahead of this process's (negative when behind), at most READ_EVERY
    seconds old; what /readyz/ reports. 0.0 until a first reading succeeds."""
    if last.at is None or time.monotonic() - last.at >= READ_EVERY:
        read_database_clock()
    return last.skew


def read_database_clock() -> float:
    """Read the database's clock now and keep the skew; on failure keep the last one and say so."""
    connection = connections["default"]
    sql = SQL.get(connection.vendor)
    if sql is None:
        last.at = time.monotonic()
        return last.skew
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            before = timezone.now()
            cursor.execute(sql)
            theirs = cursor.fetchone()[0]
            after = timezone.now()
    except DatabaseError as exc:
        log.warning(
            "The database's clock could not be read (%s); the last skew (%.3f s) stays", exc, last.skew
        )
        last.at = time.monotonic() - READ_EVERY + RETRY_AFTER
        return last.skew
    if isinstance(theirs, str):  # SQLite: UTC, as text
        theirs = datetime.fromisoformat(theirs).replace(tzinfo=UTC)
    ours = before + (after - before) / 2
    last.skew = (theirs - ours).total_seconds()
    last.at = time.monotonic()
    return last.skew
