"""The deadline sweep: every due round, clock and reminder found by query and dealt with; safe to re-run."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .. import enqueue
from ..models import Game, Round, Submission, TurnClock
from .clocks import clock_expire
from .rounds import round_resolve


def due_rounds(now) -> list[int]:
    return list(
        Round.objects.filter(
            status=Round.Status.OPEN,
            closes_at__lte=now,
            remaining_when_paused__isnull=True,
            game__status=Game.Status.RUNNING,
            game__paused_at__isnull=True,
        ).values_list("id", flat=True)
    )


def due_clocks(now) -> list[tuple[int, int]]:
    return list(
        TurnClock.objects.filter(
            deadline__lte=now, game__status=Game.Status.RUNNING, game__paused_at__isnull=True
        ).values_list("game_id", "generation")
    )


def due_reminders(now) -> list[int]:
    before = timedelta(hours=float(getattr(settings, "GENIUS_REMINDER_HOURS", 3)))
    return list(
        Round.objects.filter(
            status=Round.Status.OPEN,
            reminder_sent_at__isnull=True,
            closes_at__gt=now,
            closes_at__lte=now + before,
            remaining_when_paused__isnull=True,
            game__paused_at__isnull=True,
        ).values_list("id", flat=True)
    )


def reminder_claim(*, round_id: int, now) -> list[int]:
    """Claim the round's one reminder (a conditional update) and list the users who have not submitted."""
    if not Round.objects.filter(pk=round_id, reminder_sent_at__isnull=True).update(reminder_sent_at=now):
        return []
    rnd = Round.objects.select_related("game").get(pk=round_id)
    submitted = Submission.objects.filter(round=rnd).values_list("seat_id", flat=True)
    return list(rnd.game.seats.exclude(pk__in=submitted).values_list("user_id", flat=True))


def sweep(*, now=None) -> dict[str, int]:
    """Find every due round, clock and reminder by query and deal with each. Re-running it is always safe."""
    now = now or timezone.now()
    resolved = sum(bool(round_resolve(round_id=pk, now=now)) for pk in due_rounds(now))
    expired = sum(clock_expire(game_id=g, generation=gen, now=now) for g, gen in due_clocks(now))
    reminded = 0
    for pk in due_reminders(now):
        users = reminder_claim(round_id=pk, now=now)
        if users:
            enqueue.send_reminder(pk, users)
            reminded += 1
    return {"resolved": resolved, "clocks": expired, "reminders": reminded}
