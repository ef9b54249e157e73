"""Web Push: a note to each of the player's devices that allow notifications (phones, desktops, tab closed).

Each push is encrypted to the device's own keys (RFC 8291, aes128gcm) and signed with the site's VAPID key
(RFC 8292), by pywebpush. Its payload is the note alone ({title, body, url, tag}: that player's own words and
link), so nothing another person may not see travels in it, and the push service reads none of it.

What the push service answers decides the rest:
- 201 (or another 2xx): accepted for that device; the note reached the player if any device accepted it;
- 404 or 410: the subscription is gone (the player revoked it, the browser was reset): the device is deleted;
- 429 or 5xx, or no answer: try again later. Raised (PushLater) only when no device accepted the note: the
  outbox task retries, and the devices that did take it would show it twice;
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

import requests
from django.conf import settings
from django.utils import timezone
from pywebpush import WebPushException, webpush
from requests_hardened import Config, Manager
from requests_hardened.ip_filter import InvalidIPAddress

from ..models import PushSubscription
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
    """The push services could not take the note now (429, 5xx, no answer): the outbox tries again."""


# Why a push cannot reach a player, in the short words a host's "remind" answer and the account page's grid
# put after a name or beside the column ("ivy: no way to reach them: ..., no device allows notifications").
OFF = "this site has not set up push notifications"
NO_DEVICE = "no device allows notifications"


def can_reach(user) -> str:
    """Empty if a push can reach this player now, else why not."""
    if vapid.problem():
        return OFF
    # Through the related manager: a caller that prefetched `push_devices` for many players asks nothing.
    if not user.push_devices.exists():
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


def send(device: PushSubscription, data: bytes, *, ttl: int, topic: str, urgency: str) -> int:
    """POST one encrypted push to one device; the push service's status code (requests' errors raise)."""
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
            return exc.response.status_code
    return response.status_code


def answer(device: PushSubscription, data: bytes, *, ttl: int, topic: str, urgency: str) -> tuple[str, str]:
    """Send to one device and read the answer: ("sent" | "gone" | "later" | "refused", words)."""
    try:
        status = send(device, data, ttl=ttl, topic=topic, urgency=urgency)
    except InvalidIPAddress:
        return "refused", "its push address now leads inside the server's network"
    except requests.RequestException as exc:
        return "later", f"its push service did not answer ({type(exc).__name__})"
    if 200 <= status < 300:
        PushSubscription.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
        return "sent", "accepted by its push service"
    if status in (404, 410):
        device.delete()
        return "gone", "its push service says the device no longer takes notifications; it was removed"
    if status == 429 or status >= 500:
        return "later", f"its push service is busy ({status})"
    if status in (401, 403):
        return "refused", f"its push service refused the site's key ({status}); allow notifications again"
    return "refused", f"its push service refused the notification ({status})"


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
    answers = [(device.label or "a device", *answer(device, data, **options)) for device in devices]
    results = {result for _, result, _ in answers}
    if "sent" in results:
        return Outcome(NAME, True)
    if "later" in results:
        raise PushLater(
            "; ".join(f"{label}: {words}" for label, result, words in answers if result == "later")
        )
    if results == {"gone"}:
        return Outcome(NAME, False, "the devices that allowed notifications are gone (removed)")
    return Outcome(NAME, False, "; ".join(f"{label}: {words}" for label, _, words in answers))


def trial_note() -> Note:
    """What "Send me a test" pushes: the player's own account page."""
    from django.urls import reverse

    return Note(
        kind="test",
        subject="A test from genius",
        text="Notifications reach this device. Tap to open your account page.",
        link=settings.GENIUS_SITE_URL + reverse("profile"),
    )
