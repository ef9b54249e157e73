"""The rules state of one game row, read and written through the rules' codec."""

from __future__ import annotations

from games.platform.kit import RulesError
from games.platform.models import Game

from .rules import State, state_from_json, state_to_json


def load(game: Game) -> State:
    if not game.state:
        raise RulesError("The game has not started yet.", field="round")
    return state_from_json(game.state)


def dump(state: State) -> dict:
    return state_to_json(state)
