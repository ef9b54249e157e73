"""The rules state of a host-run game: the hosts' design as it stood at the start, and what the rounds made of
it (scores, private values, board, public results, the end).

The design is copied at the start: forms, rounds and windows are fixed once the game runs
(docs/rulings/host_run.md)."""

from __future__ import annotations

import copy


def new_game(snapshot: dict) -> dict:
    """The state at the start from the design's snapshot:

    {"rounds", "window": {"amount", "unit"}, "opened_by_hand", "plans": {"2": {...}}, "forms": {"game": [...],
    "2": [...]}, "rules", "columns", "private": {"0": {column: value}}, "board", "scoreboard_public", "notes",
    "seats": [0, 1, ...]}.
    """
    seats = [int(s) for s in snapshot["seats"]]
    columns = list(snapshot.get("columns") or [])
    private = snapshot.get("private") or {}
    return {
        "rounds": snapshot.get("rounds"),
        "window": dict(snapshot.get("window") or {"amount": 24, "unit": "hours"}),
        "opened_by_hand": bool(snapshot.get("opened_by_hand")),
        "plans": copy.deepcopy(snapshot.get("plans") or {}),
        "forms": copy.deepcopy(snapshot.get("forms") or {"game": []}),
        "rules": snapshot.get("rules") or "",
        "columns": columns,
        "private": {
            str(s): {c: str((private.get(str(s)) or {}).get(c) or "") for c in columns} for s in seats
        },
        "board": snapshot.get("board") or "",
        "scores": {str(s): 0 for s in seats},
        "scoreboard_public": bool(snapshot.get("scoreboard_public", True)),
        "notes": snapshot.get("notes") or "",
        "results": [],
        "resolved": 0,
        "final": None,
        "death_match": bool(snapshot.get("death_match")),
    }


def round_fields(state: dict, number: int) -> list[dict]:
    """The form round `number` asks: its own form, else the game's."""
    forms = state.get("forms") or {}
    own = forms.get(str(number))
    return list(own) if own else list(forms.get("game") or [])


def round_title(state: dict, number: int) -> str:
    return ((state.get("plans") or {}).get(str(number)) or {}).get("title") or ""


def has_round(state: dict, number: int) -> bool:
    """Whether round `number` exists: from 1 to the fixed count, or every number of an open-ended game."""
    if number < 1 or state.get("final") is not None:
        return False
    rounds = state.get("rounds")
    return rounds is None or number <= rounds


def opens_by_hand(state: dict, number: int) -> bool:
    """Round 1 opens at the start; a later round by a host's hand where its plan or the game says so."""
    if number <= 1:
        return False
    opens = ((state.get("plans") or {}).get(str(number)) or {}).get("opens") or "game"
    if opens == "by_hand":
        return True
    if opens == "auto":
        return False
    return bool(state.get("opened_by_hand"))


def window_of(state: dict, number: int) -> tuple[int, str]:
    """(amount, "hours" or "minutes") of round `number`: its plan's window, else the game's."""
    plan = (state.get("plans") or {}).get(str(number)) or {}
    window = plan.get("window") or state.get("window") or {"amount": 24, "unit": "hours"}
    return int(window["amount"]), window.get("unit") or "hours"
