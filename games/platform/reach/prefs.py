"""A player's choice, per kind of message, of the ways that carry it: the account page's grid of tick boxes
(one row per kind, one column per way this site has), and the "send me a test" of each way.

A tick means "this way may carry it": a message goes by the first ticked way that reaches the player, in
the column order (Discord, push, email), and by the next ticked one only if that one could not. A player
who never chose sees the defaults ticked (NotificationPreference.default). A test is a Note of kind "test",
sent at once and never claimed: each press is its own.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from django.db import transaction

from ..models import NotificationPreference
from ..services.notify import KINDS, page_link
from . import dispatch
from .note import Note, Outcome

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Column:
    name: str
    label: str
    why_not: str  # "" if this way reaches the player now; else why not, shown beside its column


@dataclass(frozen=True)
class Row:
    kind: str
    label: str
    ticks: list  # [(field name, channel name, ticked)]


def field(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


def columns(user) -> list[Column]:
    return [Column(c.NAME, c.LABEL, c.can_reach(user)) for c in dispatch.CHANNELS]


def grid(user, posted=None) -> list[Row]:
    """The rows as saved, or as `posted` (a form sent back: what was ticked stays ticked)."""
    prefs = NotificationPreference.objects.filter(user=user).first() or NotificationPreference(user=user)
    rows = []
    for kind, label in KINDS.items():
        ticks = []
        for channel in dispatch.CHANNELS:
            name = field(kind, channel.NAME)
            on = name in posted if posted is not None else prefs.wants(kind, channel.NAME)
            ticks.append((name, channel.NAME, on))
        rows.append(Row(kind, label, ticks))
    return rows


@transaction.atomic
def choices_save(user, posted) -> NotificationPreference:
    """Every tick box of the grid as sent: ticked, or not. A way this site does not have keeps its choices."""
    prefs, _ = NotificationPreference.objects.select_for_update().get_or_create(user=user)
    for kind in KINDS:
        for channel in dispatch.CHANNELS:
            prefs.choose(kind, channel.NAME, field(kind, channel.NAME) in posted)
    prefs.email_digest = "email_digest" in posted
    prefs.save(update_fields=["choices", "email_digest"])
    return prefs


def digest_chosen(user, posted=None) -> bool:
    """Whether the page shows the daily digest ticked: as sent back with a test, else as saved."""
    if posted is not None:
        return "email_digest" in posted
    return NotificationPreference.objects.filter(user=user, email_digest=True).exists()


def test_send(user, channel_name: str) -> tuple[bool, str]:
    """Send `user` a test by one way, now: (reached, the words saying what happened)."""
    channel = dispatch.channel_named(channel_name)
    if channel is None:
        return False, "This site has no such way of reaching you."
    why = channel.can_reach(user)
    if why:
        return False, f"We could not reach you by {channel.LABEL.lower()}: {why}."
    note = Note(
        "test",
        "A test from genius",
        "This is the test you asked for: this is how the site reaches you.",
        page_link("notification-settings"),
    )
    try:
        # Through the dispatch like every message, claimed before it goes: each press is its own key.
        told = dispatch.tell(f"test:{uuid.uuid4()}", [user.pk], "test", lambda _: note, ways=(channel.NAME,))
        outcome: Outcome = told[user.pk][-1]
    except Exception as exc:  # a way down for a moment: said, and logged for whoever runs the site
        log.warning("A test by %s to user %s failed: %s", channel.NAME, user.pk, exc)
        return False, f"We could not reach you by {channel.LABEL.lower()} just now: try again in a minute."
    if not outcome.reached:
        return False, f"We could not reach you by {channel.LABEL.lower()}: {outcome.why}."
    if channel.NAME == "email":
        return True, f"Sent to your email {user.email}."
    return True, f"Sent by {channel.LABEL.lower()}: look for “A test from genius”."
