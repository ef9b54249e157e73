"""When a round's players are warned before it closes (issue 30.3): the lead grows with the window.

The reminder goes an eighth of the window before the close: 3 h before a 24-hour round, 6 h before a 48-hour
one, about 4 minutes before a 30-minute demo round. A window longer than LAST_CALL_FROM (4 h) also gets a last
call LAST_CALL (1 h) before it closes; its reminder then comes at least twice that early (2 h), so the two
never cross (a 6-hour round: 2 h, then 1 h, not 45 min after the last call). The window is the round's as
it stands (opens_at to closes_at: a pause or a host's extension lengthens it).

GENIUS_REMINDER_HOURS, set, replaces the eighth with a fixed lead for every round (0: no reminders and no
last calls, as a test that counts emails wants).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from ..models import Round

SHARE = 8
LAST_CALL = timedelta(hours=1)
LAST_CALL_FROM = timedelta(hours=4)


def _fixed() -> float | None:
    hours = getattr(settings, "GENIUS_REMINDER_HOURS", None)
    return None if hours in (None, "") else float(hours)


def has_last_call(window: timedelta) -> bool:
    return _fixed() != 0 and window > LAST_CALL_FROM


def reminder_lead(window: timedelta) -> timedelta | None:
    """How long before the close the reminder goes; None: no reminder."""
    fixed = _fixed()
    if fixed is not None:
        return timedelta(hours=fixed) if fixed > 0 else None
    lead = window / SHARE
    return max(lead, 2 * LAST_CALL) if has_last_call(window) else lead


def _open_rounds(now: datetime, **unsent):
    return Round.objects.filter(
        status=Round.Status.OPEN,
        closes_at__gt=now,
        remaining_when_paused__isnull=True,
        game__paused_at__isnull=True,
        **unsent,
    ).values_list("id", "opens_at", "closes_at")


def due_reminders(now: datetime) -> list[int]:
    """Open rounds whose reminder is due and not sent (one small row per open round: the lead is computed
    here, the same on every database)."""
    due = []
    for pk, opens, closes in _open_rounds(now, reminder_sent_at__isnull=True):
        lead = reminder_lead(closes - opens)
        if lead is not None and closes - now <= lead:
            due.append(pk)
    return due


def due_last_calls(now: datetime) -> list[int]:
    """Open rounds of a window longer than LAST_CALL_FROM closing within LAST_CALL, not called yet."""
    return [
        pk
        for pk, opens, closes in _open_rounds(now, last_call_sent_at__isnull=True)
        if has_last_call(closes - opens) and closes - now <= LAST_CALL
    ]
