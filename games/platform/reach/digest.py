"""The daily digest, by email only (a daily list is what an inbox is for; a DM or a push a day is noise): what
awaits the player at their digest hour, once a day whatever runs it again (services/digest.py says who is
due and writes the text)."""

from __future__ import annotations

from datetime import datetime

from ..awaiting import awaiting
from ..models import NotificationPreference
from ..services import deliveries
from ..services.digest import key, text
from ..services.notify import page_link, zone
from . import dispatch
from .note import Note


def digest_send(*, user_id: int, day: str, now: datetime) -> int:
    """The player's digest of `day`: what awaits them now, in one email (none if nothing does); how many
    went."""
    if not NotificationPreference.objects.filter(user_id=user_id, email_digest=True).exists():
        return 0
    people = dispatch.users([user_id])
    if not people:
        return 0
    items = awaiting(people[0], now)
    if not items:
        claim = deliveries.claim(f"{key(day)}:{user_id}:email")
        if claim.mine:
            claim.sent()  # the day's digest is done: nothing awaited at its hour
        return 0
    subject = "genius: 1 thing awaits you" if len(items) == 1 else f"genius: {len(items)} things await you"

    def compose(user) -> Note:
        return Note("digest", subject, text(items, zone(user)), page_link("notification-settings"))

    told = dispatch.tell(key(day), [user_id], "digest", compose, ways=("email",))
    return sum(1 for outcomes in told.values() if any(o.reached for o in outcomes))
