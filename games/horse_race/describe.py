"""A saved submission in the race's own words, for the hosts: "Clue with A×2; spectate 4; bets D:3"."""

from __future__ import annotations

from games.platform.models import Game

from .names import seat_names


def _cards(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{h}×{n}" for h, n in value.items() if n) or "nothing"
    if isinstance(value, list | tuple):
        return ", ".join(str(h) for h in value) or "nothing"
    return str(value)


def _guesses(value) -> str:
    return ", ".join(f"{h} {'/'.join(str(g) for g in guesses)} ahead" for h, guesses in (value or {}).items())


def ability_words(ability: dict | None) -> str:
    if not ability:
        return "no ability"
    parts = [ability["kind"].title()]
    if ability.get("use"):
        parts.append(f"with {_cards(ability['use'])}")
    if ability.get("select"):
        parts.append(f"selecting {_cards(ability['select'])}")
    if ability.get("gain"):
        parts.append(f"gaining {_cards(ability['gain'])}")
    if ability.get("guesses"):
        parts.append(f"guessing {_guesses(ability['guesses'])}")
    return " ".join(parts)


def describe(game: Game, payload: dict) -> str:
    """A round's ability, space and bets; or a decision round's choice or vote."""
    payload = payload or {}
    if "choice" in payload or "vote" in payload:
        names = seat_names(game)
        if "choice" in payload:
            return f"gives the Token of Life to {names.get(payload['choice'], payload['choice'])}"
        return f"votes for {names.get(payload['vote'], payload['vote'])} as the EC"
    parts = [ability_words(payload.get("ability"))]
    if "space" in payload:
        parts.append(f"spectate {payload['space']}" if payload.get("space") else "no space")
    if payload.get("bets"):
        parts.append("bets " + ", ".join(f"{h}:{n}" for h, n in payload["bets"].items()))
    return "; ".join(parts)
