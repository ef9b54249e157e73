"""The leak proof's pure part: the same race with everything one seat may not see dealt otherwise."""

from __future__ import annotations

from itertools import combinations

from .pieces import seat_name
from .state import FULL_DECK, State


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
