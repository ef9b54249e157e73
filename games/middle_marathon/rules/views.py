"""What each audience sees: a seat (its own hand), the public (no hands), and the host (everything)."""

from __future__ import annotations

from typing import Any

from .codec import state_to_json
from .pieces import PIECES, colour, kind, name, owner
from .play import pending
from .scoring import points_so_far
from .state import State


def _pieces(state: State) -> list[dict[str, Any]]:
    rows = []
    for piece in PIECES:
        finished = piece in state.finished
        rows.append(
            {
                "piece": piece,
                "name": name(piece),
                "kind": kind(piece),
                "colour": colour(piece),
                "seat": owner(piece),
                "space": state.positions.get(piece),
                "finished": finished,
                "place": state.finished.index(piece) + 1 if finished else None,
                "locked_until": state.locked_until.get(piece),
                "reversed_until": state.reversed_until.get(piece),
            }
        )
    return rows


def public_view(state: State) -> dict[str, Any]:
    """Everything but the hands: the track, statuses, cards played, whose move, the log, the result.

    Played cards are public, so a hand can be worked out from this view; it is still shown only to its owner.
    """
    waiting = pending(state)
    if waiting["kind"] == "turn":
        waiting = {key: waiting[key] for key in ("kind", "seat", "turn", "pieces")}
    elif waiting["kind"] == "decision" and waiting["decision"] == "discard":
        waiting = {key: value for key, value in waiting.items() if key != "options"}
    discards = state.discards
    public_discards = state.settings.discards_public
    if not public_discards:
        discards = [{"turn": d["turn"], "seat": d["seat"], "count": len(d["cards"])} for d in discards]
    decisions = [
        {k: v for k, v in d.items() if k != "choice" or d["kind"] != "discard" or public_discards}
        for d in state.decisions
    ]
    return {
        "turn": state.turn,
        "to_move": state.to_move,
        "first_player": state.first_player,
        "pieces": _pieces(state),
        "finished": list(state.finished),
        "points": points_so_far(state),
        "hand_sizes": [len(hand) for hand in state.hands],
        "played": [dict(p) for p in state.played],
        "discards": [dict(d) for d in discards],
        "decisions": decisions,
        "pending": waiting,
        "log": list(state.log),
        "result": state.result,
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus this seat's own hand, and the full pending move when it is this seat's."""
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = list(state.hands[seat])
    waiting = pending(state)
    if waiting["seat"] == seat:
        view["pending"] = waiting
    mine = [d for d in state.discards if d["seat"] == seat]
    view["my_discards"] = [dict(d) for d in mine]
    return view


def full_view(state: State) -> dict[str, Any]:
    """For the host and after the game: the whole state, hands and the stack of owed decisions included."""
    view = public_view(state)
    view["pending"] = pending(state)
    view["hands"] = [list(hand) for hand in state.hands]
    view["discards"] = [dict(d) for d in state.discards]
    view["decisions"] = [dict(d) for d in state.decisions]
    view["state"] = state_to_json(state)
    return view
