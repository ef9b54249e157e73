"""Wild cards: bought between rounds, they count as whichever weapon their owner names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from games.platform.kit import Announce, Ledger, Reveal, RulesError

from .ending import who
from .flow import start_round
from .state import Phase, State
from .weapons import weapon_named


def buy_wild(state: State, seat: int, action: Mapping) -> tuple[State, list]:
    """Record a wild card for `seat`; the caller debits the price in garnets from the season ledger."""
    settings = state.settings
    weapon = None
    if settings.wild_declared_at == "purchase":
        weapon = weapon_named(action.get("weapon"), "weapon")
    elif action.get("weapon") not in (None, ""):
        raise RulesError("You name the wild card's weapon when you play it, not now.", field="weapon")
    wilds = list(state.wilds)
    wilds[seat] = wilds[seat] + (weapon,)
    bought = state.wild_bought + (seat,)
    decided = state.wild_decided
    if bought.count(seat) >= settings.wild_cards_per_break:
        decided = decided + (seat,)
    state = replace(state, wilds=tuple(wilds), wild_bought=bought, wild_decided=decided)
    as_what = f" as a {weapon.title}" if weapon else ""
    events: list = [
        Reveal(
            seat,
            f"You bought a wild card{as_what} for {settings.wild_card_price} garnets.",
            {
                "event": "wild_bought",
                "weapon": weapon.value if weapon else None,
                "price": settings.wild_card_price,
            },
        ),
        Ledger(seat, "cards", 1, "bought a wild card", "wild"),
    ]
    if settings.announce_wild_purchases:
        events.append(
            Announce(f"{who(state, seat)} bought a wild card.", {"event": "wild_bought", "seat": seat})
        )
    return after_decision(state, events)


def decline_wild(state: State, seat: int) -> tuple[State, list]:
    return after_decision(replace(state, wild_decided=state.wild_decided + (seat,)), [])


def after_decision(state: State, events: list) -> tuple[State, list]:
    """The next round starts once every player has bought or declined."""
    if state.phase == Phase.WILD_CARDS and len(set(state.wild_decided)) == state.players:
        state, more = start_round(state)
        return state, events + more
    return state, events


def undecided(state: State) -> tuple[int, ...]:
    return tuple(seat for seat in range(state.players) if seat not in state.wild_decided)
