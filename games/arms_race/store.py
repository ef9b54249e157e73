"""The rules state of one game row, read and written through the rules' own JSON codec."""

from __future__ import annotations

from games.platform.models import Game

from .rules import State, state_from_json, state_to_json


def load(game: Game) -> State:
    return state_from_json(game.state)


def dump(state: State) -> dict:
    return state_to_json(state)
