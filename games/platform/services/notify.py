"""Emails to where the players are, each kind only to those who want it, and each only once, with the
times in it in each one's own zone.

Every email has a key naming what it is about and to whom; it is recorded as sent right after it went out,
and a key already recorded is skipped. So a notification task may run again (a worker killed halfway, a
retry after a database or mail server error) and sends only what it had not sent yet.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db.models import Q
from django.urls import reverse

from ..models import NotificationPreference, NotificationSent
from ..people import zone_named

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
    "chat_message": "A player wrote to me in a pair chat (one email, then none until I have read it)",
}


def page_link(name: str, *args) -> str:
    """The absolute address of a page, for an email (GENIUS_SITE_URL: an email has no request to ask)."""
    return settings.GENIUS_SITE_URL + reverse(name, args=args)


def wanting(user_ids, kind: str) -> list[tuple[int, str, str]]:
    """(user id, address, time zone) of the users who want `kind` (no preferences: the kind's default)."""
    if kind not in KINDS:
        raise ValueError(kind)
    users = get_user_model().objects.filter(pk__in=list(user_ids)).exclude(email="")
    wants = Q(**{f"notification_prefs__{kind}": True})
    if NotificationPreference._meta.get_field(kind).default:
        wants |= Q(notification_prefs__isnull=True)
    users = users.filter(wants)
    rows = users.order_by("pk").values_list("pk", "email", "profile__time_zone")
    return [(uid, email, zone or "UTC") for uid, email, zone in rows]


def send(key: str, recipients: list[tuple[int, str, str]], subject: str, body) -> int:
    """Email each (user id, address, zone) once under `key:<user id>`; how many went out now. `body` is the
    text, or a function of the recipient's zone giving it (for a time written in it)."""
    keys = {uid: f"{key}:{uid}" for uid, _, _ in recipients}
    done = set(NotificationSent.objects.filter(key__in=keys.values()).values_list("key", flat=True))
    sent = 0
    for uid, email, zone in recipients:
        if keys[uid] in done:
            continue
        text = body(zone_named(zone)) if callable(body) else body
        EmailMessage(subject, text, to=[email]).send()
        NotificationSent.objects.get_or_create(key=keys[uid])
        sent += 1
    return sent
