"""The rules state of one game row: a plain dict (rules/state.py says its shape)."""

from __future__ import annotations

import copy

from games.platform.kit import RulesError
from games.platform.models import Game


def load(game: Game) -> dict:
    if not game.state:
        raise RulesError("The game has not started yet.", field="round")
    return copy.deepcopy(game.state)


def dump(state: dict) -> dict:
    return state
