"""The deadline sweep: every due round, clock, start time and reminder found by query and handed on; safe to
re-run.

The sweep itself resolves nothing: it queues one task per due round and per due clock, earliest deadline
first, and each runs in a transaction of its own with bounded lock waits (services/locks.py). A round or
clock whose row another transaction holds right now is skipped (SKIP LOCKED) and found again by the next
sweep, so one stuck game delays only itself; so is one whose game row is held.
"""

from __future__ import annotations

from django.db import transaction

from genius.clock import site_now

from .. import enqueue, heartbeats
from ..models import Game, Round, Submission, TurnClock
from .leads import due_last_calls, due_reminders
from .reminders import asked

# Whose rows another transaction holds right now, the round's (or clock's) or its game's, is passed by:
# a task queued for it would only wait GENIUS_LOCK_WAIT_SECONDS and give up, and one such task per sweep
# for a game held for minutes would fill the deadlines queue. FOR NO KEY UPDATE: the rows a resolution
# would lock, without clashing with the key-share locks that inserting its events or submissions take.
HELD_ROWS = {"skip_locked": True, "no_key": True, "of": ("self", "game")}


@transaction.atomic
def due_rounds(now) -> list[int]:
    """Overdue open rounds of running, unpaused games, earliest deadline first; held rows left for later."""
    due = (
        Round.objects.select_for_update(**HELD_ROWS)
        .select_related("game")
        .only("id", "game__id")
        .filter(
            status=Round.Status.OPEN,
            closes_at__lte=now,
            remaining_when_paused__isnull=True,
            game__status=Game.Status.RUNNING,
            game__paused_at__isnull=True,
        )
        .order_by("closes_at", "id")
    )
    return [rnd.pk for rnd in due]


@transaction.atomic
def due_clocks(now) -> list[tuple[int, int]]:
    """(game, generation) of every clock out of time, earliest deadline first; held rows left for later."""
    due = (
        TurnClock.objects.select_for_update(**HELD_ROWS)
        .select_related("game")
        .only("id", "generation", "game__id")
        .filter(deadline__lte=now, game__status=Game.Status.RUNNING, game__paused_at__isnull=True)
        .order_by("deadline", "id")
    )
    return [(clock.game_id, clock.generation) for clock in due]


@transaction.atomic
def due_starts(now) -> list[int]:
    """Live matches whose start time came while their players sit down, earliest first (issue 20.1)."""
    due = (
        Game.objects.select_for_update(skip_locked=True, no_key=True)
        .only("id")
        .filter(
            status=Game.Status.RUNNING,
            clocks_started_at__isnull=True,
            clocks_start_at__lte=now,
            paused_at__isnull=True,
        )
        .order_by("clocks_start_at", "id")
    )
    return [game.pk for game in due]


@transaction.atomic
def reminder_claim(*, round_id: int, now) -> list[int]:
    """Claim the round's one reminder and queue it to the users who have not submitted (listed).

    The reminder's task is an outbox row of the claim's own transaction: a claim never commits without it.
    A round whose row another transaction holds is passed by, like a due round: an update would wait for that
    transaction (forever, for one left open), and the whole sweep with it. The next sweep claims it.
    """
    rnd = (
        Round.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
        .select_related("game")
        .filter(pk=round_id, reminder_sent_at__isnull=True)
        .first()
    )
    if rnd is None:
        return []
    Round.objects.filter(pk=rnd.pk).update(reminder_sent_at=now)
    users = owing(rnd)
    if users:
        enqueue.send_reminder(rnd.pk, users)
    return users


@transaction.atomic
def last_call_claim(*, round_id: int, now) -> list[int]:
    """Claim the round's last call (an hour before it closes) and queue it to those who still owe. A reminder
    not sent yet (the sweep did not run meanwhile) is not sent after it: the last call says it all."""
    rnd = (
        Round.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
        .select_related("game")
        .filter(pk=round_id, last_call_sent_at__isnull=True)
        .first()
    )
    if rnd is None:
        return []
    reminded = rnd.reminder_sent_at or now
    Round.objects.filter(pk=rnd.pk).update(last_call_sent_at=now, reminder_sent_at=reminded)
    users = owing(rnd)
    if users:
        enqueue.send_last_call(rnd.pk, users)
    return users


def owing(rnd: Round) -> list[int]:
    """Who the round still waits for: no submission, not excused by the hosts, and among those it asks."""
    submitted = Submission.objects.filter(round=rnd).values_list("seat_id", flat=True)
    waited = rnd.game.seats.exclude(pk__in=submitted).exclude(excused_rounds__round=rnd)
    return [seat.user_id for seat in asked(rnd.game, rnd, waited)]


def sweep(*, now=None) -> dict[str, int]:
    """Queue a task for every due round and clock, in deadline order, and claim the due reminders.

    Each resolution and expiry takes its own time when it runs (a slow one shortens no other's window).
    Re-running the sweep is always safe: each task re-checks under its locks that its work is still due.
    """
    now = now or site_now()
    rounds = due_rounds(now)
    for pk in rounds:
        enqueue.resolve_round(pk)
    clocks = due_clocks(now)
    for game_id, generation in clocks:
        enqueue.expire_clock(game_id, generation)
    starts = due_starts(now)
    for game_id in starts:
        enqueue.start_clocks(game_id)
    # The last call first: where both fell due at once (no sweep ran meanwhile), it is the one that goes.
    called = sum(1 for pk in due_last_calls(now) if last_call_claim(round_id=pk, now=now))
    reminded = 0
    for pk in due_reminders(now):
        if reminder_claim(round_id=pk, now=now):
            reminded += 1
    # The trace of this run, in the database (it outlives a Redis outage): deadlines are late without it.
    heartbeats.beat(heartbeats.SWEEP)
    found = {"rounds": len(rounds), "clocks": len(clocks), "starts": len(starts), "reminders": reminded}
    return {**found, "last_calls": called}
