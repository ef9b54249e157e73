"""The sweep as production runs it, for tests.

Beat's sweep task only finds what is due and queues one task per round and clock; the worker then runs each
in the order queued, after the sweep's commit, each at its own time. `sweep()` does the same here: the
platform's sweep, then the queued tasks (Celery runs them inline in the tests, after the commit they wait
for), and it counts what they did by looking at the rows, as a host would.
"""

from __future__ import annotations

import contextlib

import time_machine
from django.db import connection
from django.test import TestCase

from games.platform.models import Game, Round, TurnClock
from games.platform.services.sweep import sweep as sweep_due


def _clocks() -> dict[int, tuple]:
    return {
        c.game_id: (c.generation, c.deadline, c.increments_used)
        for c in TurnClock.objects.filter(deadline__isnull=False)
    }


def run_queued():
    """Inside a test's transaction, what is queued after a commit runs when the block ends, as after a
    commit (work that work queues included); in a test that commits for real it has run already."""
    if connection.in_atomic_block:
        return TestCase.captureOnCommitCallbacks(execute=True)
    return contextlib.nullcontext()


def sweep(*, now=None) -> dict[str, int]:
    """Run one sweep at `now` (default: the clock as it is) and the work it queued.

    Returns what the queued work did: `resolved` rounds, `clocks` that ran out (a reserve increment drawn,
    or the time-out applied), live matches whose start time was acted on (`starts`), `reminders` claimed;
    and `queued`, the tasks the sweep queued.
    """
    travel = time_machine.travel(now, tick=False) if now is not None else contextlib.nullcontext()
    with travel:
        clocks_before = _clocks()
        open_before = list(Round.objects.filter(status=Round.Status.OPEN).values_list("id", flat=True))
        waiting = Game.objects.filter(clocks_started_at__isnull=True, clocks_start_at__isnull=False)
        starts_before = list(waiting.values_list("id", flat=True))
        with run_queued():
            found = sweep_due()
        resolved = Round.objects.filter(pk__in=open_before, status=Round.Status.RESOLVED).count()
        clocks_after = _clocks()
        started = Game.objects.filter(pk__in=starts_before, clocks_start_at__isnull=True).count()
    ran_out = sum(1 for game_id, was in clocks_before.items() if clocks_after.get(game_id) != was)
    queued = {"rounds": found["rounds"], "clocks": found["clocks"], "starts": found["starts"]}
    return {
        "resolved": resolved,
        "clocks": ran_out,
        "starts": started,
        "reminders": found["reminders"],
        "queued": queued,
    }
