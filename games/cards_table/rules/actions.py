"""One door for a player's action as the site receives it: a dict with a "type", checked and applied."""

from __future__ import annotations

from games.platform.kit import RulesError

from .play import declare_action, flip, peek_previous, submit_board_guess, submit_heat_guess, submit_top_guess
from .state import State


def apply_action(state: State, seat: int, action: dict) -> tuple[State, list]:
    """Apply one player action. Types: flip {row, col, action?}, declare {action}, board_guess {grid},
    top_guess {seat}, heat_guess {text}, peek {row, col} (the caller debits the garnet)."""
    if not isinstance(action, dict):
        raise RulesError("Unknown action.", field="type")
    kind = action.get("type")
    if kind == "flip":
        return flip(state, seat, action.get("row"), action.get("col"), action.get("action"))
    if kind == "declare":
        return declare_action(state, seat, action.get("action"))
    if kind == "board_guess":
        return submit_board_guess(state, seat, action.get("grid"))
    if kind == "top_guess":
        return submit_top_guess(state, seat, action.get("seat"))
    if kind == "heat_guess":
        return submit_heat_guess(state, seat, action.get("text"))
    if kind == "peek":
        return peek_previous(state, seat, action.get("row"), action.get("col"))
    raise RulesError("Unknown action.", field="type")


def validate_action(state: State, seat: int, action: dict) -> None:
    """Raise RulesError if the action is illegal now; change nothing (the rules are pure)."""
    apply_action(state, seat, action)
