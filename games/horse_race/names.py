"""How the site names the players: the rules call them "seat 3"; a page says who that is, by the name they go
by (their display name, or their username until they pick one)."""

from __future__ import annotations

import re
from dataclasses import replace

from games.platform.kit import Announce, Ledger, Reveal, seat_ref
from games.platform.models import Game
from games.platform.observation import seats_with_players
from games.platform.people import shown_name

SEAT = re.compile(r"\bseat (\d+)\b")


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: shown_name(seat.user) for seat in seats_with_players(game)}


def with_names(game: Game, events: list) -> list:
    """The rules' events with each "seat 3" in their text (and in a ledger row's reason: "Traded from bob")
    as a reference to the player in it, which every reader reads as that player's name at the time they read
    it (the data keeps the seat numbers)."""
    seats = {seat.number for seat in seats_with_players(game)}

    def named(match: re.Match) -> str:
        number = int(match.group(1))
        return seat_ref(number) if number in seats else match.group(0)

    renamed = []
    for event in events:
        if isinstance(event, Announce):
            event = Announce(SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Reveal):
            event = Reveal(event.seat, SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Ledger):
            event = replace(event, reason=SEAT.sub(named, event.reason))
        renamed.append(event)
    return renamed
