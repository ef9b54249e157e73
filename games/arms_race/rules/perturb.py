"""Another game just as one viewer knows it: everything hidden from them dealt differently, all else kept.

The twin is a game that could really have been played: the same public log, the same cards counted out of
the one deck, wild cards that could have been bought in the breaks held so far.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .state import Phase, State
from .weapons import WEAPONS, sort_hand


def flight_hidden(state: State, viewer: int | None) -> bool:
    """The real weapon in flight is unknown to `viewer` (None: the spectators)."""
    flight = state.flight
    if flight is None or viewer in flight.seen:
        return False
    # A pointer whose clock ran out claimed the truth (ruling 19): their claim told everyone the weapon.
    return not any(claim.pointer in state.timed_out for claim in flight.claims)


def wilds_played(state: State, seat: int) -> int:
    """Everyone is told when a wild card is played."""
    played = sum(1 for r in state.history if r.owner == seat and r.wild)
    return played + (state.flight is not None and state.flight.wild and state.flight.owner == seat)


def breaks_closed(state: State) -> int:
    """The wild-card breaks over by now; the one open now (the WILD_CARDS phase) is not counted."""
    if not state.settings.wild_cards_offered:
        return 0
    return max(0, state.round - 1 + state.settings.wild_before_first_round)


def wild_purchases(state: State, seat: int, rng: random.Random) -> tuple[int, int]:
    """A number of wild cards `seat` could hold now, and how many of them they bought in the open break.

    A seat still deciding in the open break has bought fewer than the break allows (ruling 11).
    """
    per_break = state.settings.wild_cards_per_break
    before = per_break * breaks_closed(state)
    open_now = 0
    if state.phase == Phase.WILD_CARDS:
        open_now = per_break if seat in state.wild_decided else per_break - 1
    played = wilds_played(state, seat)
    if len(state.wilds[seat]) > before + open_now - played:
        # A table set by hand, with more wild cards than the breaks could sell: keep them.
        return len(state.wilds[seat]), state.wild_bought.count(seat)
    held = rng.randint(0, before + open_now - played)
    return held, rng.randint(max(0, played + held - before), min(open_now, held))


def twin(state: State, viewer: int | None, rng: random.Random, seed: int | None = None) -> State:
    """The same game as `viewer` knows it (None: the spectators), with everything hidden from them changed.

    The other hands, the undealt cards and an unseen real weapon are dealt again from the cards they hold
    together; the others' wild cards are bought again (their number too, unless purchases are announced);
    the seed that draws the coming rounds' orders and the timeouts is another.
    """
    others = [s for s in range(state.players) if s != viewer]
    flight = state.flight
    hidden = flight_hidden(state, viewer)
    pool = [card for s in others for card in state.hands[s]] + list(state.undealt)
    if hidden and not flight.wild:
        pool.append(flight.weapon)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = sort_hand(pool[: len(hands[s])]), pool[len(hands[s]) :]
    undealt, pool = sort_hand(pool[: len(state.undealt)]), pool[len(state.undealt) :]
    if hidden:
        # A wild card may be named any weapon; a real card is the one left over from the deal.
        flight = replace(flight, weapon=rng.choice(WEAPONS) if flight.wild else pool.pop())
    # Announced purchases are public: only the weapons they were named as (at purchase) change.
    announced = state.settings.announce_wild_purchases
    named = state.settings.wild_declared_at == "purchase"
    wilds = list(state.wilds)
    bought = list(state.wild_bought) if announced else [s for s in state.wild_bought if s == viewer]
    for s in others:
        count = len(wilds[s])
        if not announced:
            count, now = wild_purchases(state, s, rng)
            bought += [s] * now
        wilds[s] = tuple(rng.choice(WEAPONS) if named else None for _ in range(count))
    return replace(
        state,
        hands=tuple(hands),
        undealt=undealt,
        flight=flight,
        wilds=tuple(wilds),
        wild_bought=tuple(bought),
        seed=rng.getrandbits(64) if seed is None else seed,
    )


def dealt_hands(state: State) -> list[tuple]:
    """The hands as they were dealt: what each seat holds now plus every card they have played from it."""
    hands = [list(hand) for hand in state.hands]
    for record in state.history:
        if not record.wild:
            hands[record.owner].append(record.weapon)
    if state.flight is not None and not state.flight.wild:
        hands[state.flight.owner].append(state.flight.weapon)
    return [sort_hand(hand) for hand in hands]
