"""Blackout Middle Horse Race: the pure rules engine (standard library and the platform kit only)."""

from .ability_inputs import ABILITIES, clean_ability
from .codec import state_from_json, state_to_json
from .ending import (
    bet_points,
    pending_decisions,
    resolve_elimination,
    resolve_winner_choice,
    submit_ec_vote,
    submit_winner_choice,
)
from .exchange import purchase, purchase_cost, trade
from .resolution import resolve_round
from .settings import HORSES, ROUNDS, Settings
from .state import Ending, Player, Report, State, bet_limit, initial_state
from .submission import settle_submission, validate_submission
from .track import (
    final_placements,
    generate_movement_table,
    movement_table_problems,
    race_order,
    space_after,
    spaces_after,
    standings,
    validate_movement_table,
)
from .views import abilities_now, full_view, public_view, seat_view

__all__ = [
    "ABILITIES",
    "HORSES",
    "ROUNDS",
    "Ending",
    "Player",
    "Report",
    "Settings",
    "State",
    "abilities_now",
    "bet_limit",
    "bet_points",
    "clean_ability",
    "final_placements",
    "full_view",
    "generate_movement_table",
    "initial_state",
    "movement_table_problems",
    "pending_decisions",
    "public_view",
    "purchase",
    "purchase_cost",
    "race_order",
    "resolve_elimination",
    "resolve_round",
    "resolve_winner_choice",
    "seat_view",
    "settle_submission",
    "space_after",
    "spaces_after",
    "standings",
    "state_from_json",
    "state_to_json",
    "submit_ec_vote",
    "submit_winner_choice",
    "trade",
    "validate_movement_table",
    "validate_submission",
]
