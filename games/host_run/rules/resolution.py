"""A sent resolution applied to the state: the hosts' words and numbers become the round's results.

The resolution is plain data, as the console saved it:
{"round", "public_text", "board", "ends_game", "candidate", "tie_note",
 "seats": {seat: {"private_text", "points", "private_values", "rank", "winner", "tokens_of_life", "garnets"}}}
"""

from __future__ import annotations

import copy

from games.platform.kit import Announce, Ledger, Reveal, RulesError, seat_ref

from .state import round_title


def ends_here(state: dict, resolution: dict) -> bool:
    """The game ends with this resolution: the hosts said so, or it resolves the last of a fixed count."""
    rounds = state.get("rounds")
    return bool(resolution.get("ends_game")) or (rounds is not None and int(resolution["round"]) >= rounds)


def _whole(value, what: str) -> int:
    if value in (None, ""):
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{what} must be a whole number.", field=what)
    return value


def apply_resolution(state: dict, resolution: dict) -> tuple[dict, list]:
    """(the new state, its events): the announcement, each seat's inbox message, the points, and at the end
    the garnets and Tokens of Life with the game's final standing."""
    number = int(resolution["round"])
    if state.get("final") is not None:
        raise RulesError("The game is over: no round is left to resolve.", field="round")
    if number != state.get("resolved", 0) + 1:
        raise RulesError(
            f"Round {number} cannot be resolved now: Round {state.get('resolved', 0) + 1} is next.",
            field="round",
        )
    state = copy.deepcopy(state)
    seats = {int(s) for s in state["scores"]}
    columns = state.get("columns") or []
    parts = {int(s): dict(p or {}) for s, p in (resolution.get("seats") or {}).items()}
    strangers = sorted(set(parts) - seats)
    if strangers:
        raise RulesError(f"Seat {strangers[0] + 1} is not in this game.", field="seats")
    title = round_title(state, number)
    heading = f"Round {number}" + (f" ({title})" if title else "")
    public = (resolution.get("public_text") or "").strip()
    events: list = [Announce(f"{heading} results:\n\n{public}" if public else f"{heading} is resolved.")]
    for seat in sorted(parts):
        part = parts[seat]
        text = (part.get("private_text") or "").strip()
        if text:
            events.append(Reveal(seat, text, {"round": number}))
        points = _whole(part.get("points"), "points")
        if points:
            state["scores"][str(seat)] += points
            events.append(Ledger(seat, "points", points, f"Round {number}"))
        values = part.get("private_values") or {}
        unknown = sorted(set(values) - set(columns))
        if unknown:
            raise RulesError(
                f"{unknown[0]} is not one of this game's private columns.", field="private_values"
            )
        for column, value in values.items():
            state["private"][str(seat)][column] = "" if value is None else str(value)
    if resolution.get("board") is not None:
        state["board"] = resolution["board"]
    state["results"].append({"round": number, "title": title, "public": public})
    state["resolved"] = number
    if ends_here(state, resolution):
        state, more = _the_end(state, resolution, parts, number)
        events += more
    return state, events


def _the_end(state: dict, resolution: dict, parts: dict[int, dict], number: int) -> tuple[dict, list]:
    candidate = resolution.get("candidate")
    if candidate is not None:
        candidate = int(candidate)
        if str(candidate) not in state["scores"]:
            raise RulesError(f"Seat {candidate + 1} is not in this game.", field="candidate")
    winners = sorted(s for s, p in parts.items() if p.get("winner"))
    ranking = {str(s): int(p["rank"]) for s, p in parts.items() if p.get("rank") not in (None, "")}
    tie_note = (resolution.get("tie_note") or "").strip()
    state["final"] = {"candidate": candidate, "winners": winners, "ranking": ranking, "tie_note": tie_note}
    events: list = []
    name = (resolution.get("game_name") or "").strip() or "the game"
    for seat in sorted(parts):
        for what in ("garnets", "tokens_of_life"):
            amount = _whole(parts[seat].get(what), what)
            if amount:
                events.append(Ledger(seat, what, amount, _reason(name, parts[seat], seat in winners)))
    words = [f"The game is over after Round {number}."]
    if winners:
        words.append("Won by " + ", ".join(seat_ref(s) for s in winners) + ".")
    if candidate is not None:
        loser = "Elimination Candidate" if not state.get("death_match") else "loser"
        words.append(f"The {loser}: {seat_ref(candidate)}.")
    if tie_note:
        words.append(f"The tie: {tie_note}")
    events.append(Announce(" ".join(words), {"final": True}))
    return state, events


def _reason(name: str, part: dict, won: bool) -> str:
    """The season ledger's reason for an award at the end, as its player reads it: "Won The Vault",
    "Rank 2 in The Vault", "The end of The Vault"."""
    if won:
        return f"Won {name}"
    if part.get("rank") not in (None, ""):
        return f"Rank {int(part['rank'])} in {name}"
    return f"The end of {name}"
