"""How the site names the players: the rules say "seat 3"; a page says who that is, by the name they go by
(their display name, or their username until they pick one)."""

from __future__ import annotations

import re

from games.platform.kit import Announce, Reveal, seat_ref
from games.platform.models import Game
from games.platform.observation import seats_with_players
from games.platform.people import shown_name

SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: shown_name(seat.user) for seat in seats_with_players(game)}


def with_names(game: Game, events: list) -> list:
    """The rules say "seat 3"; the stored text keeps a reference to the player in it, which every reader
    reads as that player's name at the time they read it (the events' data keeps the seat numbers)."""
    seats = {seat.number for seat in seats_with_players(game)}

    def named(match: re.Match) -> str:
        number = int(match.group(2))
        return seat_ref(number) if number in seats else match.group(0)

    renamed = []
    for event in events:
        if isinstance(event, Announce):
            event = Announce(SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Reveal):
            event = Reveal(event.seat, SEAT.sub(named, event.text), event.data)
        renamed.append(event)
    return renamed
