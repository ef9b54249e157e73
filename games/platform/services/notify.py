"""Emails to where the players are, each kind only to those who want it, and each only once, with the
times in it in each one's own zone.

Every email has a key naming what it is about and to whom (`results:<round>:<user>`), and is claimed under
it before it is sent (services/deliveries.py): a notification task may run again, or twice at once (a
worker killed halfway, a broker that delivered it twice, a retry), and sends only what no run sent yet. An
email whose sender died mid-send goes again with the same Message-ID, which mail systems drop as a copy.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db.models import Q
from django.urls import reverse

from ..models import NotificationPreference
from ..people import zone_named
from . import deliveries

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
    "chat_message": "A player wrote to me in a pair chat (one email, then none until I have read it)",
}
# The kinds a player who chose the daily digest reads there instead of in an email each (services/digest.py).
DIGESTED = ("round_opened", "results", "chat_message")


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
    if kind in DIGESTED:  # they read it in their daily digest instead (services/digest.py)
        users = users.exclude(notification_prefs__email_digest=True)
    return _recipients(users)


def wanting_digest(user_ids) -> list[tuple[int, str, str]]:
    """(user id, address, time zone) of the users who chose the daily digest."""
    users = get_user_model().objects.filter(pk__in=list(user_ids), notification_prefs__email_digest=True)
    return _recipients(users.exclude(email=""))


def _recipients(users) -> list[tuple[int, str, str]]:
    rows = users.order_by("pk").values_list("pk", "email", "profile__time_zone")
    return [(uid, email, zone or "UTC") for uid, email, zone in rows]


def send(key: str, recipients: list[tuple[int, str, str]], subject: str, body) -> int:
    """Email each (user id, address, zone) once under `key:<user id>`; how many went out now. `body` is the
    text, or a function of the recipient's zone giving it (for a time written in it).

    Raises `deliveries.Held` once the others are sent if another run is sending one of them right now: the
    task comes back for it when that run's claim runs out (it is then sent, or found sent).
    """
    sent, held = 0, []
    for uid, email, zone in recipients:
        claim = deliveries.claim(f"{key}:{uid}")
        if not claim.mine:
            if claim.held_until is not None:
                held.append(claim.held_until)
            continue
        try:
            text = body(zone_named(zone)) if callable(body) else body
            headers = {"Message-ID": deliveries.message_id(claim.uid)}
            EmailMessage(subject, text, to=[email], headers=headers).send()
        except BaseException:
            claim.release()
            raise
        claim.sent()
        sent += 1
    if held:
        raise deliveries.Held(max(held))
    return sent
