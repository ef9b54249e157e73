"""Web Push: a note to each of the player's devices that allow notifications (phones, desktops, tab closed).

Each push is encrypted to the device's own keys (RFC 8291, aes128gcm) and signed with the site's VAPID key
(RFC 8292), by pywebpush. Its payload is the note alone ({title, body, url, tag}: that player's own words and
link), so nothing another person may not see travels in it, and the push service reads none of it.

What the push service answers decides the rest:
- 201 (or another 2xx): accepted for that device; the note reached the player if any device accepted it;
- 404 or 410: the subscription is gone (the player revoked it, the browser was reset): the device is deleted;
- 429 or 5xx, or no answer: try again later, raised only when no device accepted the note (else the devices
  that did take it would show it twice): PushRateLimited (a deliveries.Held: the outbox task comes back
  when the push services said, counting no failure) when each 429 came with its Retry-After, else PushLater
  (the task fails and the outbox retries with its backoff);
- anything else (400, 401/403 for a key the subscription was not made with, 413): not reached, with why.

Web Push has no idempotency key. A note sent again after a retry carries the same `tag`, so the device
replaces the one it shows instead of showing two, and the same Topic header, so a push service still holding
the first for an offline device keeps only the newer.

The requests go through requests-hardened as webhooks do (destinations.py): the endpoint came from a browser,
so the server never follows it inside its own network or through a redirect.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import NamedTuple

import requests
from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from pywebpush import WebPushException, webpush
from requests_hardened import Config, Manager
from requests_hardened.ip_filter import InvalidIPAddress

from ..models import PushSubscription
from ..services.deliveries import Held
from . import vapid
from .note import Note, Outcome

NAME = "push"
LABEL = "Push notification"

# How long a push service keeps a note for a device that is offline, by kind: a turn is stale in minutes, a
# reminder once its round has closed; the rest can wait a day.
TTL_SECONDS = {"your_turn": 15 * 60, "reminder": 3 * 3600}
DEFAULT_TTL_SECONDS = 24 * 3600
# Urgency (RFC 8030): "high" wakes a sleeping phone at once; the others may wait for the phone's next wake.
HIGH_URGENCY = {"your_turn", "reminder"}
# A push's payload may be 4 kB once encrypted: the note's text is shortened to fit well inside.
MAX_PAYLOAD_BYTES = 3000

_manager = Manager(
    Config(
        ip_filter_enable=True,
        ip_filter_allow_loopback_ips=False,
        never_redirect=True,
        default_timeout=(3, 10),
    )
)


class PushLater(Exception):
    """The push services could not take the note now (5xx, no answer): the outbox tries again."""


class PushRateLimited(Held):
    """The push services asked the site to slow down (429, Retry-After): the task comes back at `until`."""

    def __init__(self, until: datetime, words: str):
        Exception.__init__(self, f"{words}; again at {until.isoformat()}")
        self.until = until


# Why a push cannot reach a player, in the short words a host's "remind" answer and the account page's grid
# put after a name or beside the column ("ivy: no way to reach them: ..., no device allows notifications").
OFF = "this site has not set up push notifications"
NO_DEVICE = "no device allows notifications"


# What can_reach reads, fetched for many players at once by the dispatch; a player not read this way is read
# afresh each time.
PREFETCH = (Prefetch("push_devices", to_attr="push_devices_read"),)


def can_reach(user) -> str:
    """Empty if a push can reach this player now, else why not."""
    if vapid.problem():
        return OFF
    devices = getattr(user, "push_devices_read", None)
    if not (devices if devices is not None else user.push_devices.exists()):
        return NO_DEVICE
    return ""


def payload(note: Note) -> bytes:
    """The note as the service worker reads it (static/sw.js), shortened to fit a push."""
    text = note.text
    while True:
        body = {"title": note.subject, "body": text, "url": note.link, "tag": f"{note.kind}:{note.link}"}
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        if len(data) <= MAX_PAYLOAD_BYTES or not text:
            return data
        text = text[: len(text) * 4 // 5].rstrip() + "…"


def topic(tag: str) -> str:
    # A Topic header is at most 32 characters of the base64url alphabet.
    return base64.urlsafe_b64encode(hashlib.sha256(tag.encode()).digest()[:24]).decode()


def send(device: PushSubscription, data: bytes, *, ttl: int, topic: str, urgency: str) -> requests.Response:
    """POST one encrypted push to one device; the push service's answer (requests' errors raise)."""
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    with _manager.get_session() as session:
        try:
            response = webpush(
                info,
                data=data,
                vapid_private_key=vapid.signer(),
                # A fresh dict each time: pywebpush writes the audience (the endpoint's origin) into it.
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=ttl,
                headers={"Topic": topic, "Urgency": urgency},
                timeout=10,
                requests_session=session,
            )
        except WebPushException as exc:
            if exc.response is None:
                raise
            return exc.response
    return response


class Answer(NamedTuple):
    result: str  # "sent" | "gone" | "later" | "refused"
    words: str
    wait: float | None = None  # a 429's Retry-After, in seconds


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds from now: a number of seconds or an HTTP date (RFC 9110)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, (parsedate_to_datetime(value) - timezone.now()).total_seconds())
    except (TypeError, ValueError):
        return None


def answer(device: PushSubscription, data: bytes, *, ttl: int, topic: str, urgency: str) -> Answer:
    """Send to one device and read what its push service answered."""
    try:
        response = send(device, data, ttl=ttl, topic=topic, urgency=urgency)
    except InvalidIPAddress:
        return Answer("refused", "its push address now leads inside the server's network")
    except requests.RequestException as exc:
        return Answer("later", f"its push service did not answer ({type(exc).__name__})")
    status = response.status_code
    if 200 <= status < 300:
        PushSubscription.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
        return Answer("sent", "accepted by its push service")
    if status in (404, 410):
        device.delete()
        return Answer(
            "gone", "its push service says the device no longer takes notifications; it was removed"
        )
    if status == 429:
        wait = _retry_after(response.headers.get("Retry-After"))
        return Answer("later", "its push service asks the site to slow down (429)", wait)
    if status >= 500:
        return Answer("later", f"its push service is down ({status})")
    if status in (401, 403):
        return Answer(
            "refused", f"its push service refused the site's key ({status}); allow notifications again"
        )
    return Answer("refused", f"its push service refused the notification ({status})")


def deliver(user, note: Note, uid: str) -> Outcome:
    """Push the note to each of the user's devices. Reached if any device's push service accepted it."""
    why = can_reach(user)
    if why:
        return Outcome(NAME, False, why)
    devices = list(PushSubscription.objects.filter(user=user).order_by("pk"))
    data = payload(note)
    urgency = "high" if note.kind in HIGH_URGENCY else "normal"
    options = {
        "ttl": TTL_SECONDS.get(note.kind, DEFAULT_TTL_SECONDS),
        "topic": topic(f"{note.kind}:{note.link}"),
        "urgency": urgency,
    }
    answers = [(device.label or "a device", answer(device, data, **options)) for device in devices]
    results = {said.result for _, said in answers}
    if "sent" in results:
        return Outcome(NAME, True)
    later = [(label, said) for label, said in answers if said.result == "later"]
    if later:
        words = "; ".join(f"{label}: {said.words}" for label, said in later)
        if all(said.wait is not None for _, said in later):
            # Every push service that did not take it said when to come back: the task waits that long
            # without counting a failure (the wait is kept on its outbox row, as Discord's is).
            raise PushRateLimited(timezone.now() + timedelta(seconds=max(s.wait for _, s in later)), words)
        raise PushLater(words)
    if results == {"gone"}:
        return Outcome(NAME, False, "the devices that allowed notifications are gone (removed)")
    return Outcome(NAME, False, "; ".join(f"{label}: {said.words}" for label, said in answers))


def trial_note() -> Note:
    """What "Send me a test" pushes: the player's own account page."""
    from django.urls import reverse

    return Note(
        kind="test",
        subject="A test from genius",
        text="Notifications reach this device. Tap to open your account page.",
        link=settings.GENIUS_SITE_URL + reverse("profile"),
    )
