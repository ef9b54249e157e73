"""Emails to where the players are, each kind only to those who want it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db.models import Q

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
}


def wanting(user_ids, kind: str) -> list[str]:
    """The email addresses of those users who did not switch `kind` off (no preferences: everything)."""
    if kind not in KINDS:
        raise ValueError(kind)
    users = get_user_model().objects.filter(pk__in=list(user_ids)).exclude(email="")
    users = users.filter(Q(notification_prefs__isnull=True) | Q(**{f"notification_prefs__{kind}": True}))
    return list(users.values_list("email", flat=True))


def send(emails: list[str], subject: str, body: str) -> int:
    return send_mass_mail([(subject, body, None, [email]) for email in emails])
