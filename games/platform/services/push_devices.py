"""A player's devices that take Web Push notifications: added when the page's script hands over the browser's
subscription (static/platform/push.js), removed by their owner or when the push service says it is gone.

An endpoint is a URL the server will POST to, and it comes from the browser: so it must be https, name a host,
and not point inside the server's network (the same door webhooks go through, destinations.py). Its keys
must be what a browser makes (a P-256 point and a 16-byte secret), or nothing could be encrypted to it.

One browser has one endpoint: when another account subscribes the same browser (two people sharing a
laptop), the device becomes the newcomer's, so the first account's notifications stop going to a browser
someone else is now using.
"""

from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import urlsplit

from django.db import transaction

from .. import destinations
from ..kit import RulesError
from ..models import PushSubscription

_B64URL = re.compile(r"[A-Za-z0-9_-]+=*")
# Each device is one more request per note: a player has a phone, a laptop, a work machine, not a fleet.
MAX_DEVICES = 20


def _key_bytes(text: str) -> bytes | None:
    if not isinstance(text, str) or not _B64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def endpoint_problem(endpoint: str) -> str | None:
    """Why the server may not push to this endpoint, in words; None when it may."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        return "This browser's push address is not one the site can use."
    parts = urlsplit(endpoint)
    try:
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        host = None
    if parts.scheme != "https" or not host or parts.username or parts.password:
        return "This browser's push address is not an https address the site can use."
    if destinations.inside_address(host):
        return "This browser's push address is inside the server's network; the site does not push there."
    return None


def device_save(*, user, endpoint: str, p256dh: str, auth: str, label: str = "") -> PushSubscription:
    """Keep (or refresh) the device this subscription belongs to, as the user's. RulesError if unusable."""
    problem = endpoint_problem(endpoint)
    if problem:
        raise RulesError(problem, field="endpoint")
    point, secret = _key_bytes(p256dh), _key_bytes(auth)
    if point is None or len(point) != 65 or point[0] != 4:
        raise RulesError("This browser's push key is not a P-256 public key.", field="p256dh")
    if secret is None or len(secret) != 16:
        raise RulesError("This browser's push secret is not 16 bytes.", field="auth")
    with transaction.atomic():
        others = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
        if others.count() >= MAX_DEVICES:
            raise RulesError(
                f"{MAX_DEVICES} of your devices take notifications already: "
                "remove one on your account page first.",
                field="endpoint",
            )
        device, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:80]},
        )
    return device


def device_renew(*, old_endpoint: str, endpoint: str, p256dh: str, auth: str) -> PushSubscription | None:
    """The browser replaced a subscription (its service worker's `pushsubscriptionchange`): the device that
    had the old endpoint takes the new one, for the same owner. None if no device had it. The old endpoint
    is the proof: a secret only that browser, its push service and this site know."""
    device = PushSubscription.objects.filter(endpoint=old_endpoint).first() if old_endpoint else None
    if device is None:
        return None
    with transaction.atomic():
        PushSubscription.objects.filter(endpoint=endpoint).exclude(pk=device.pk).delete()
        device.delete()
        return device_save(user=device.user, endpoint=endpoint, p256dh=p256dh, auth=auth, label=device.label)


def device_forget(*, user, endpoint: str) -> bool:
    """The browser unsubscribed: drop its device if it is this user's. True if one was dropped."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def device_remove(*, user, device_id: int) -> PushSubscription | None:
    """The owner removes one of their devices from the account page; None if it is not theirs (or gone)."""
    device = PushSubscription.objects.filter(user=user, pk=device_id).first()
    if device is not None:
        device.delete()
    return device


def devices_of(user) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("created_at", "pk"))


def device_label(user_agent: str) -> str:
    """A label like "Firefox on Android", read from the browser's User-Agent: enough for a player to tell
    their devices apart on the account page, not a fingerprint."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for token, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("SamsungBrowser/", "Samsung Internet"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
            )
            if token in ua
        ),
        "A browser",
    )
    system = next(
        (
            name
            for token, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS X", "macOS"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if token in ua
        ),
        "",
    )
    return f"{browser} on {system}" if system else browser
