"""The kinds of message a player chooses ways for (reach/prefs.py), and where a message links to; what each
says is reach/messages.py, and reach/dispatch.py sends it by the ways each player chose."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from ..people import zone_named

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
    "chat_message": "A player wrote to me in a pair chat (one message, then none until I have read it)",
}
# The kinds a player who chose the daily digest reads there instead of in an email each (services/digest.py).
DIGESTED = ("round_opened", "results", "chat_message")


def page_link(name: str, *args) -> str:
    """The absolute address of a page, for a message (GENIUS_SITE_URL: a message has no request to ask)."""
    return settings.GENIUS_SITE_URL + reverse(name, args=args)


def zone(user):
    """The zone `user` reads times in (their profile's, loaded with them; UTC if they have none)."""
    profile = getattr(user, "profile", None)
    return zone_named(profile.time_zone if profile is not None else None)
