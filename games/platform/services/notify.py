"""Emails to where the players are, each kind only to those who want it, and each only once.

Every email has a key naming what it is about and to whom; it is recorded as sent right after it went out,
and a key already recorded is skipped. So a notification task may run again (a worker killed halfway, a
retry after a database or mail server error) and sends only what it had not sent yet.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db.models import Q

from ..models import NotificationSent

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
}


def wanting(user_ids, kind: str) -> list[tuple[int, str]]:
    """(user id, address) of those users who did not switch `kind` off (no preferences: everything)."""
    if kind not in KINDS:
        raise ValueError(kind)
    users = get_user_model().objects.filter(pk__in=list(user_ids)).exclude(email="")
    users = users.filter(Q(notification_prefs__isnull=True) | Q(**{f"notification_prefs__{kind}": True}))
    return list(users.order_by("pk").values_list("pk", "email"))


def send(key: str, recipients: list[tuple[int, str]], subject: str, body: str) -> int:
    """Email each (user id, address) once under `key:<user id>`; how many went out now."""
    keys = {uid: f"{key}:{uid}" for uid, _ in recipients}
    done = set(NotificationSent.objects.filter(key__in=keys.values()).values_list("key", flat=True))
    sent = 0
    for uid, email in recipients:
        if keys[uid] in done:
            continue
        EmailMessage(subject, body, to=[email]).send()
        NotificationSent.objects.get_or_create(key=keys[uid])
        sent += 1
    return sent
