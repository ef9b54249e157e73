"""Arms Race, the pure rules: the deal, claims, challenges and passes, wild cards, wounds, the end."""

from games.platform.kit import RulesError

from .attack import WILD
from .codec import state_from_json, state_to_json
from .ending import end_absent
from .flow import new_game
from .play import apply, apply_timeout, legal_actions, pending, timeout_action, validate
from .settings import HAND_SIZE, PLAYERS, ROUNDS, WILD_CARD_PRICE, WOUNDS_TO_LOSE, Settings
from .state import (
    SHARED_WINNER_AWARD,
    SOLE_WINNER_AWARD,
    AttackRecord,
    Call,
    Claim,
    Flight,
    Outcome,
    Phase,
    State,
)
from .views import full_view, public_view, seat_view
from .weapons import DECK, WEAPONS, WOUNDS, Weapon

__all__ = [
    "DECK",
    "HAND_SIZE",
    "PLAYERS",
    "ROUNDS",
    "SHARED_WINNER_AWARD",
    "SOLE_WINNER_AWARD",
    "WEAPONS",
    "WILD",
    "WILD_CARD_PRICE",
    "WOUNDS",
    "WOUNDS_TO_LOSE",
    "AttackRecord",
    "Call",
    "Claim",
    "Flight",
    "Outcome",
    "Phase",
    "RulesError",
    "Settings",
    "State",
    "Weapon",
    "apply",
    "apply_timeout",
    "end_absent",
    "full_view",
    "legal_actions",
    "new_game",
    "pending",
    "public_view",
    "seat_view",
    "state_from_json",
    "state_to_json",
    "timeout_action",
    "validate",
]
