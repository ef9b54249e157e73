"""Announcements to a Discord channel's webhook, in Discord's own format and at the pace Discord asks.

A Discord webhook takes `content` and `embeds` (https://discord.com/developers/docs/resources/webhook), and
nothing of the site's own (no `genius` object, no signature): the text, and an embed whose title links to
the game. `allowed_mentions` is empty, so an announcement that reads "@everyone" pings nobody.

Discord limits each webhook (its bucket headers, and 429 with `retry_after`). A post that meets a 429, or
comes while the webhook's bucket is empty, is not a failure: its claim is given back and the task returns
to the outbox due exactly when Discord allows (`Wait`, a `deliveries.Held`), not on the doubling backoff
kept for receivers that fail. What the webhook owes is kept in the cache, so every worker waits for it.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import requests
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from .. import destinations
from ..destinations import DeliveryFailed
from ..models import Event, Webhook
from ..people import UTC as UTC_ZONE
from ..wording import names_for, plain
from .deliveries import Claim, Held


class Wait(Held):
    """Discord asks this webhook to wait: the task comes back at `until`, its claim given back."""

    def __init__(self, until: datetime, webhook: Webhook):
        Exception.__init__(self, f"Discord asks webhook {webhook.pk} to wait until {until.isoformat()}")
        self.until = until


def payload(event: Event) -> dict:
    """The announcement as Discord shows it: its words (UTC, named: a channel has no one zone), and a card
    titled with the game and round that links to the game's page."""
    game = event.game
    text = plain(event.text, names_for([event.text]), UTC_ZONE)
    label = "" if event.category == Event.Category.RESULT else f"{event.get_category_display()}: "
    title = game.name + (f": Round {event.round_number}" if event.round_number is not None else "")
    embed = {
        "title": title[:256],
        "timestamp": event.created_at.isoformat(),
        "footer": {"text": game.season.name[:2048]},
    }
    if settings.GENIUS_SITE_URL:  # Discord refuses an embed whose url is not absolute
        embed["url"] = settings.GENIUS_SITE_URL + reverse("game", args=[game.id])
    return {"content": (label + text)[:2000], "embeds": [embed], "allowed_mentions": {"parse": []}}


def _key(webhook: Webhook) -> str:
    return f"discord:webhook:{webhook.pk}"


def _hold(webhook: Webhook, seconds: float) -> None:
    cache.set(_key(webhook), time.time() + seconds, timeout=int(seconds) + 5)


def _seconds(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def deliver(webhook: Webhook, event: Event, claim: Claim, timeout: float) -> int:
    """Post one announcement under its claim; the status Discord answered. Raises `Wait` (come back then),
    the webhooks' DeliveryFailed (retried with backoff) or WebhookRefused (never retried)."""
    try:
        until = cache.get(_key(webhook)) or 0.0
        if until > time.time():
            raise Wait(datetime.fromtimestamp(until, UTC), webhook)
        body = json.dumps(payload(event)).encode()
        headers = {"Content-Type": "application/json", "User-Agent": "genius-webhooks/1"}
        try:
            response = destinations.post(webhook.url, body=body, headers=headers, timeout=timeout)
        except requests.RequestException as exc:
            raise DeliveryFailed(f"Discord could not be reached: {exc}") from exc
        reset_after = _seconds(response.headers.get("X-RateLimit-Reset-After"))
        if response.headers.get("X-RateLimit-Remaining") == "0" and reset_after:
            _hold(webhook, reset_after)
        if response.status_code == 429:
            try:
                asked = _seconds(response.json().get("retry_after"))
            except (ValueError, AttributeError):
                asked = None
            wait = asked or _seconds(response.headers.get("Retry-After")) or 1.0
            _hold(webhook, wait)
            raise Wait(datetime.fromtimestamp(time.time() + wait, UTC), webhook)
        if response.status_code >= 400:
            raise DeliveryFailed(f"Discord answered {response.status_code}: {response.text[:200]}")
    except BaseException:
        claim.release()
        raise
    claim.sent()
    return response.status_code
