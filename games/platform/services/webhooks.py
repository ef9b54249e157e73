"""Outgoing webhooks: each public announcement posted as signed JSON (`content` and `embeds` as Discord
has them, and the event itself), or, to a webhook of the kind "Discord channel", in Discord's own format
(discord_webhooks.py).

Each post to each webhook is claimed before it goes (services/deliveries.py) and carries its delivery's
key in an `Idempotency-Key` header, the same on every try: two runs of one task never both post it, and a
post sent again after its sender died mid-post can be dropped by the receiver as a copy.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import requests

from .. import destinations
from ..destinations import DeliveryFailed, WebhookRefused
from ..models import Event, Webhook
from ..people import UTC
from ..wording import names_for, plain
from . import deliveries

__all__ = ["DeliveryFailed", "WebhookRefused", "payload_for", "signature", "webhook_deliver"]


def payload_for(event: Event) -> dict:
    """Discord's `content` and `embeds`, plus the event itself for other receivers. A channel has no one
    zone: its times are in UTC, named."""
    game = event.game
    text = plain(event.text, names_for([event.text]), UTC)
    title = game.name + (f": Round {event.round_number}" if event.round_number is not None else "")
    label = "" if event.category == Event.Category.RESULT else f"{event.get_category_display()}: "
    return {
        "content": (label + text)[:2000],
        "embeds": [
            {
                "title": title[:256],
                "description": text[:4096],
                "timestamp": event.created_at.isoformat(),
                "footer": {"text": game.season.name[:2048]},
            }
        ],
        "genius": {
            "game": game.id,
            "event": event.ref,
            "round": event.round_number,
            "category": event.category,
            "text": text,
        },
    }


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_deliver(*, webhook: Webhook, event: Event, timeout: float = 10) -> int:
    """Post one announcement once; DeliveryFailed is worth a retry, WebhookRefused (an inside address) is
    not, and `deliveries.Held` says another run is posting it right now. 0: it was posted already."""
    claim = deliveries.claim(f"webhook:{webhook.pk}:{event.pk}")
    if not claim.mine:
        if claim.held_until is not None:
            raise deliveries.Held(claim.held_until)
        return 0
    if webhook.kind == Webhook.Kind.DISCORD:  # Discord's own format and pace (discord_webhooks.py)
        from .discord_webhooks import deliver

        return deliver(webhook, event, claim, timeout)
    body = json.dumps(payload_for(event)).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "genius-webhooks/1",
        "X-Genius-Event": event.ref,
        "Idempotency-Key": str(claim.uid),
    }
    if webhook.secret:
        headers["X-Genius-Signature"] = signature(webhook.secret, body)
    try:
        try:
            response = destinations.post(webhook.url, body=body, headers=headers, timeout=timeout)
        except requests.RequestException as exc:
            raise DeliveryFailed(f"{webhook.url} could not be reached: {exc}") from exc
        if response.status_code >= 400:
            raise DeliveryFailed(f"{webhook.url} answered {response.status_code}")
    except BaseException:
        claim.release()
        raise
    claim.sent()
    return response.status_code
