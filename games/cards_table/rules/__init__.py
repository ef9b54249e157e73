"""Cards on the Table: the pure rules engine (standard library only). The site uses only these names."""

from .actions import apply_action, validate_action
from .boards import RULES as BOARD_RULES
from .boards import Violation, validate_boards
from .cards import ACTION_ORDER, Action, Board, Boards, Card, Colour, HeatIndicator, Shade, board_from_rows
from .codec import state_from_json, state_to_json
from .generator import generate_boards, redraw_boards
from .heat import HEAT_RULES, compute_heat
from .play import (
    declare_action,
    excuse_round,
    flip,
    heat_at,
    judge_heat_guess,
    legal_moves,
    peek_previous,
    pending_heat_judgements,
    set_heat_override,
    submit_board_guess,
    submit_heat_guess,
    submit_top_guess,
)
from .resolution import resolve_round, submit_loser_choice
from .settings import Settings
from .state import (
    Final,
    GuessCell,
    HeatGuess,
    Phase,
    Points,
    RoundRecord,
    SeatRound,
    State,
    new_game,
)
from .views import full_view, public_view, seat_view

__all__ = [
    "ACTION_ORDER",
    "BOARD_RULES",
    "HEAT_RULES",
    "Action",
    "Board",
    "Boards",
    "Card",
    "Colour",
    "Final",
    "GuessCell",
    "HeatGuess",
    "HeatIndicator",
    "Phase",
    "Points",
    "RoundRecord",
    "SeatRound",
    "Settings",
    "Shade",
    "State",
    "Violation",
    "apply_action",
    "board_from_rows",
    "compute_heat",
    "declare_action",
    "excuse_round",
    "flip",
    "full_view",
    "generate_boards",
    "heat_at",
    "judge_heat_guess",
    "legal_moves",
    "new_game",
    "peek_previous",
    "pending_heat_judgements",
    "public_view",
    "redraw_boards",
    "resolve_round",
    "seat_view",
    "set_heat_override",
    "state_from_json",
    "state_to_json",
    "submit_board_guess",
    "submit_heat_guess",
    "submit_loser_choice",
    "submit_top_guess",
    "validate_action",
    "validate_boards",
]
