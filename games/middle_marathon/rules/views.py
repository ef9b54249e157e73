"""What each audience sees: a seat (its own hand), the public (no hands), and the host (everything)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .pieces import PIECES, colour, kind, name, owner, seat_name
from .play import pending
from .scoring import points_so_far
from .state import FULL_DECK, State, state_to_json


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


def other_cards(cards: list[int], rng) -> list[int]:
    """As many other cards of the deck (a hand or a discard that could be); the same when none could."""
    others = [list(c) for c in combinations(FULL_DECK, len(cards)) if list(c) != sorted(cards)]
    return rng.choice(others) if others else list(cards)


def perturb_hidden(state: State, seat: int | None, rng) -> list[str]:
    """Change, in place, what `seat` may not see (None: the spectators); returns what changed, in words.

    That is the other seats' hands and, with secret discards, the cards they discarded. Sizes and counts
    stay, so every view of `seat` stays as it is. A full hand (0-4) has no other value: at the start of a
    race with public discards nothing is hidden.
    """
    changed = []
    for other in (0, 1):
        if other == seat:
            continue
        hand = other_cards(state.hands[other], rng)
        if hand != state.hands[other]:
            state.hands[other] = hand
            changed.append(f"{seat_name(other)}'s hand")
        if state.settings.discards_public:
            continue
        # Each secret discard is one row of state.discards and one decision, in the same order.
        discards = [d for d in state.discards if d["seat"] == other]
        decisions = [d for d in state.decisions if d["kind"] == "discard" and d["seat"] == other]
        moved = 0
        for discard, decision in zip(discards, decisions, strict=True):
            cards = other_cards(discard["cards"], rng)
            moved += cards != discard["cards"]
            discard["cards"], decision["choice"] = cards, list(cards)
        if moved:
            changed.append(f"the cards of {moved} of {seat_name(other)}'s secret discards")
    return changed
