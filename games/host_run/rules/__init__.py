"""The host-run game's pure rules: the state snapshot of the hosts' design, the views of it, the answers to
the round forms, and a sent resolution applied to the state. Plain Python: no Django."""

from .resolution import apply_resolution
from .state import new_game, round_fields, round_title
from .views import full_view, public_view, seat_view

__all__ = [
    "apply_resolution",
    "full_view",
    "new_game",
    "public_view",
    "round_fields",
    "round_title",
    "seat_view",
]
