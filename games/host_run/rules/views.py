"""What each viewer may see of the state: everyone the public part, a seat its own private values too, the
hosts all of it. Everything is public once the game is over."""

from __future__ import annotations

HIDDEN = ("private", "notes", "scores")


def public_view(state: dict) -> dict:
    """The rules text, board, forms, plans and public results; the scores when the scoreboard is public; the
    private values and the hosts' notes only at the end."""
    if not state:
        return {}
    if state.get("final") is not None:
        return dict(state)
    view = {k: v for k, v in state.items() if k not in HIDDEN}
    if state.get("scoreboard_public"):
        view["scores"] = state["scores"]
    return view


def seat_view(state: dict, seat: int) -> dict:
    """The public view with the seat's own private values and its own points (its own ledger shows them)."""
    view = public_view(state)
    view["mine"] = dict((state.get("private") or {}).get(str(seat)) or {})
    view["my_score"] = (state.get("scores") or {}).get(str(seat), 0)
    return view


def full_view(state: dict) -> dict:
    return dict(state)
