"""Middle Marathon's pure rules: a two-player race whose pieces' abilities ask for choices mid-move."""

from .abilities import options, prompt, told_discard
from .codec import state_from_json, state_to_json
from .perturb import perturb_hidden
from .pieces import NEUTRAL, PIECES, name, owner, parse_piece
from .play import absent, apply, check_action, legal_actions, pending, timeout
from .scoring import decide_winner, final_order, placements, seat_scores
from .settings import Settings
from .state import FULL_DECK, State, Task, new_game
from .track import TRACK_LENGTH
from .views import full_view, public_view, seat_view

__all__ = [
    "FULL_DECK",
    "NEUTRAL",
    "PIECES",
    "TRACK_LENGTH",
    "Settings",
    "State",
    "Task",
    "absent",
    "apply",
    "check_action",
    "decide_winner",
    "final_order",
    "full_view",
    "legal_actions",
    "name",
    "new_game",
    "options",
    "owner",
    "parse_piece",
    "pending",
    "perturb_hidden",
    "placements",
    "prompt",
    "public_view",
    "seat_scores",
    "seat_view",
    "state_from_json",
    "state_to_json",
    "timeout",
    "told_discard",
]
