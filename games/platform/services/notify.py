"""What the site tells players, and in whose words: the kinds of message a player chooses ways for, and
what each message says to one player, times in their zone (reach/dispatch.py sends it by the ways they
chose, each once under a key naming what it is about: `results:<round>`).

A message carries only what its reader may see: their own inbox, never another seat's.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from ..models import Event, Round
from ..people import zone_named
from ..reach.note import Note
from ..wording import names_for, plain
from ..zones import local_text

KINDS = {
    "round_opened": "A round opened",
    "reminder": "A reminder before a round closes, if I have not submitted",
    "results": "Results are waiting in my inbox",
    "your_turn": "It is my turn (or my decision) in a live match",
    "chat_message": "A player wrote to me in a pair chat (one message, then none until I have read it)",
}

INBOX_CHARACTERS = 1500  # more than a phone shows; the page has the rest


def page_link(name: str, *args) -> str:
    """The absolute address of a page, for a message (GENIUS_SITE_URL: a message has no request to ask)."""
    return settings.GENIUS_SITE_URL + reverse(name, args=args)


def zone(user):
    """The zone `user` reads times in (their profile's, loaded with them; UTC if they have none)."""
    profile = getattr(user, "profile", None)
    return zone_named(profile.time_zone if profile is not None else None)


def results(rnd: Round, user) -> Note:
    """The player's own inbox of the round, as they read it on the page."""
    game = rnd.game
    texts = list(
        Event.objects.filter(
            game=game, kind=Event.Kind.REVEAL, seat__user=user, round_number=rnd.number
        ).values_list("text", flat=True)
    )
    names = names_for(texts)
    inbox = "\n".join(plain(text, names, zone(user)) for text in texts)
    if len(inbox) > INBOX_CHARACTERS:
        inbox = inbox[: INBOX_CHARACTERS - 1] + "…"
    said = f"In your inbox:\n{inbox}\n\n" if inbox else ""
    return Note(
        "results",
        f"{game.name}: Round {rnd.number} is resolved",
        f"{said}The results are in your inbox on the game page:",
        page_link("game", game.id),
    )


def round_opened(rnd: Round, user) -> Note:
    return Note(
        "round_opened",
        f"{rnd.game.name}: Round {rnd.number} is open",
        f"Round {rnd.number} closes at {local_text(rnd.closes_at, zone(user))}.\nSubmit on the game page:",
        page_link("game", rnd.game_id),
    )


def reminder(rnd: Round, user) -> Note:
    return Note(
        "reminder",
        f"{rnd.game.name}: Round {rnd.number} closes soon",
        f"You have not submitted for Round {rnd.number} yet. "
        f"It closes at {local_text(rnd.closes_at, zone(user))}.\nSubmit on the game page:",
        page_link("game", rnd.game_id),
    )
