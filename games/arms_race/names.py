"""How the site names the players: by their usernames, which the rules keep in the state from the start."""

from __future__ import annotations

from games.platform.models import Game


def usernames(game: Game) -> list[str]:
    return [seat.user.username for seat in game.seats.select_related("user").order_by("number")]
