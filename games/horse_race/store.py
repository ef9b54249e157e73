"""The rules state and settings of one game row, read and written through the rules' own JSON codec."""

from __future__ import annotations

from games.platform.kit import RulesError
from games.platform.models import Game
from games.platform.observation import seats_with_players

from .rules import ROUNDS, Settings, State, state_from_json, state_to_json

# Round 11 and 12 are the ending's decision rounds: the winner's choice, then the Elimination Candidate vote.
LAST_DECISION_ROUND = ROUNDS + 2


def rules_settings(settings: dict) -> Settings:
    """The engine's Settings from the game's settings ("rules" holds the engine's switches)."""
    return Settings.from_json(settings.get("rules") or {})


def load(game: Game) -> State:
    if not game.state:
        raise RulesError("The race has not started yet.", field="round")
    return state_from_json(game.state)


def dump(state: State) -> dict:
    return state_to_json(state)


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: seat.user.username for seat in seats_with_players(game)}
