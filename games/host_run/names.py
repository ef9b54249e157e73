"""How the site names the players: by the name they go by (their display name, or their username)."""

from __future__ import annotations

from games.platform.models import Game
from games.platform.observation import seats_with_players
from games.platform.people import shown_name


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: shown_name(seat.user) for seat in seats_with_players(game)}
