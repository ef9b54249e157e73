"""The daily digest (issue 30.2): one email a day with what awaits the player, for those who chose it instead
of an email each time a round opens, results come or a pair chat speaks.

It goes at GENIUS_DIGEST_HOUR in the player's own zone (or at the first check after: beat asks every
GENIUS_DIGEST_CHECK_SECONDS), once per player and local day: its delivery key names the day
(`digest:<yyyy-mm-dd>:<user>`, services/deliveries.py), so a check run twice, a retry or a second copy of
the task sends nothing more. A day with nothing awaiting sends nothing, and is done all the same: the digest
says what awaits at its hour, not whenever something comes later that day.

Only the news emails give way to it (notify.DIGESTED): a reminder before a deadline and a live match's
"your turn" cannot wait a day, and still come as the player chose them.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from ..models import Delivery, NotificationPreference
from ..people import zone_named
from ..zones import local_text
from . import notify


def key(day: str) -> str:
    return f"digest:{day}"


def due(now: datetime) -> list[tuple[int, str]]:
    """(user id, local day) of each player who chose the digest, whose digest hour came today in their zone,
    and whose digest of that day is not done."""
    chose = (
        NotificationPreference.objects.filter(email_digest=True)
        .exclude(user__email="")
        .values_list("user_id", "user__profile__time_zone")
    )
    days = []
    for user_id, zone in chose:
        local = now.astimezone(zone_named(zone))
        if local.hour >= settings.GENIUS_DIGEST_HOUR:
            days.append((user_id, local.date().isoformat()))
    keys = [f"{key(day)}:{user_id}:email" for user_id, day in days]  # as reach/dispatch claims it
    done = set(Delivery.objects.filter(key__in=keys, sent_at__isnull=False).values_list("key", flat=True))
    return [(user_id, day) for user_id, day in days if f"{key(day)}:{user_id}:email" not in done]


def text(items, zone) -> str:
    lines = ["What awaits you today, the soonest deadline first:", ""]
    for item in items:
        when = ""
        if item.paused_seconds is not None:
            when = " (the game is paused)"
        elif item.deadline is not None:
            when = f", by {local_text(item.deadline, zone)}"
        lines += [f"- {item.game_name}: {item.text}{when}", f"  {settings.GENIUS_SITE_URL}{item.url}"]
    lines += [
        "",
        "You get this once a day instead of an email for each round, result and message. "
        f"Change it on {notify.page_link('notification-settings')}",
    ]
    return "\n".join(lines)
