"""How the site names the players: by their usernames, with the colour they play."""

from __future__ import annotations

from games.platform.models import Game

from .rules.pieces import seat_name


def usernames(game: Game) -> list[str]:
    return [seat.user.username for seat in game.seats.select_related("user").order_by("number")]


def player(game: Game, seat: int) -> str:
    """How the site names a seat: "alice (Blue)"."""
    return f"{usernames(game)[seat]} ({seat_name(seat)})"
