"""A saved submission in the hosts' words: each question and its answer."""

from __future__ import annotations

from games.platform.models import Game

from .names import seat_names
from .rules import round_fields
from .rules.fields import describe


def describe_submission(game: Game, payload: dict, round_number: int | None = None) -> str:
    state = game.state or {}
    fields = round_fields(state, round_number) if round_number else _form_with_keys(state, payload)
    return describe(fields, payload, seat_names(game))


def _form_with_keys(state: dict, payload: dict) -> list[dict]:
    """The form whose questions the payload answers (the platform's describe_submission names no round)."""
    forms = state.get("forms") or {}
    keys = set(payload or {})
    for where in sorted(forms, key=lambda w: (w == "game", w)):
        if {f["key"] for f in forms[where]} == keys:
            return forms[where]
    return forms.get("game") or []
