"""One move in the game's own words, for the hosts' console: "plays 2 on Force (blue)"."""

from __future__ import annotations

from games.platform.kit import RulesError
from games.platform.models import Game

from .rules.pieces import name, parse_piece


def _piece(text) -> str:
    try:
        return name(parse_piece(text))
    except (RulesError, KeyError):
        return str(text)


def describe(game: Game, payload: dict) -> str:
    payload = payload or {}
    if payload.get("type") == "play":
        return f"plays {payload.get('card')} on {_piece(payload.get('piece'))}"
    if payload.get("type") == "choose":
        return f"chooses {payload.get('choice')}"
    return f"an unknown move ({payload.get('type')})"
