"""How the site names the players: by the names they go by, with the colour they play. A stored text (an
announcement) names a seat by reference, so it reads with the name the player goes by when it is read."""

from __future__ import annotations

from games.platform.kit import seat_ref

from .rules.pieces import seat_name


def player(seat: int) -> str:
    """How an announcement names a seat: "{seat:0} (Blue)", read as "alice (Blue)"."""
    return f"{seat_ref(seat)} ({seat_name(seat)})"
