"""How the site names the players: the rules say "seat 3", the site says who that is."""

from __future__ import annotations

import re

from games.platform.kit import Announce, Reveal
from games.platform.models import Game
from games.platform.observation import seats_with_players

SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: seat.user.username for seat in seats_with_players(game)}


def with_names(game: Game, events: list) -> list:
    """The rules say "seat 3"; the site says who that is (the events' data keeps the seat numbers)."""
    names = seat_names(game)

    def named(match: re.Match) -> str:
        name = names.get(int(match.group(2)))
        return name if name is not None else match.group(0)

    renamed = []
    for event in events:
        if isinstance(event, Announce):
            event = Announce(SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Reveal):
            event = Reveal(event.seat, SEAT.sub(named, event.text), event.data)
        renamed.append(event)
    return renamed
