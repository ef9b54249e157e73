"""Emails to where the players are, each kind only to those who want it, with times in each one's zone."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db.models import Q

from ..people import zone_named

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
}


def wanting(user_ids, kind: str) -> list[tuple[str, str]]:
    """(email address, time zone) of those users who did not switch `kind` off (no preferences: all)."""
    if kind not in KINDS:
        raise ValueError(kind)
    users = get_user_model().objects.filter(pk__in=list(user_ids)).exclude(email="")
    users = users.filter(Q(notification_prefs__isnull=True) | Q(**{f"notification_prefs__{kind}": True}))
    return [(email, zone or "UTC") for email, zone in users.values_list("email", "profile__time_zone")]


def send(recipients: list[tuple[str, str]], subject: str, body) -> int:
    """`body` is the text, or a function of the recipient's zone giving it (for a time written in it)."""
    return send_mass_mail(
        [
            (subject, body(zone_named(zone)) if callable(body) else body, None, [email])
            for email, zone in recipients
        ]
    )
