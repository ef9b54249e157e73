"""How the site names the players: the rules call them "seat 3", the site says who they are."""

from __future__ import annotations

import re

from games.platform.kit import Announce, Reveal
from games.platform.models import Game
from games.platform.observation import seats_with_players

SEAT = re.compile(r"\bseat (\d+)\b")


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: seat.user.username for seat in seats_with_players(game)}


def with_names(game: Game, events: list) -> list:
    """The rules' events with each "seat 3" in their text replaced by the player's name (the data keeps the
    seat numbers)."""
    names = seat_names(game)

    def named(match: re.Match) -> str:
        return names.get(int(match.group(1)), match.group(0))

    renamed = []
    for event in events:
        if isinstance(event, Announce):
            event = Announce(SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Reveal):
            event = Reveal(event.seat, SEAT.sub(named, event.text), event.data)
        renamed.append(event)
    return renamed
