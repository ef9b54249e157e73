"""One move in the game's own words, for the hosts' console: "attacks bob with a dagger, claiming a bat"."""

from __future__ import annotations

from games.platform.models import Game

from .names import seat_names


def describe(game: Game, payload: dict) -> str:
    payload = payload or {}
    names = seat_names(game)

    def who(seat) -> str:
        return names[seat] if isinstance(seat, int) and seat in names else f"seat {seat}"

    kind = payload.get("type")
    if kind == "attack":
        card = "a wild card" if payload.get("card") == "wild" else f"a {payload.get('card')}"
        wild = f" (as a {payload['wild_as']})" if payload.get("wild_as") else ""
        return f"attacks {who(payload.get('target'))} with {card}{wild}, claiming a {payload.get('claim')}"
    if kind == "redirect":
        return f"passes it on to {who(payload.get('target'))}, claiming a {payload.get('claim')}"
    if kind == "challenge":
        return f"calls the claim a {payload.get('call')}"
    if kind == "pass":
        return "passes the weapon on"
    if kind == "buy_wild":
        named = f" named a {payload['weapon']}" if payload.get("weapon") else ""
        return f"buys a wild card{named}"
    if kind == "decline_wild":
        return "buys no wild card"
    return f"an unknown move ({kind})"
