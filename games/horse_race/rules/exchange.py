"""Between the rounds: one-for-one card trades between two players, and horse cards bought with garnets."""

from __future__ import annotations

import copy

from games.platform.kit import Ledger, Reveal, RulesError

from .state import State, check_horse, check_seat
from .words import a_card, seat_name


def _open(state: State) -> None:
    if state.over:
        raise RulesError("The race is over; cards can no longer change hands.", field="round")


def trade(state: State, seat_a: int, card_a: str, seat_b: int, card_b: str) -> tuple[State, list]:
    """Both accepted: seat_a gives one card_a to seat_b and receives one card_b, at once and together."""
    _open(state)
    check_seat(state, seat_a, "seat_a")
    check_seat(state, seat_b, "seat_b")
    if seat_a == seat_b:
        raise RulesError("A trade needs two different players.", field="seat_b")
    card_a, card_b = check_horse(card_a, "card_a"), check_horse(card_b, "card_b")
    if state.players[seat_a].hand[card_a] < 1:
        raise RulesError(f"{seat_name(seat_a)} no longer holds {a_card(card_a)}.", field="card_a")
    if state.players[seat_b].hand[card_b] < 1:
        raise RulesError(f"{seat_name(seat_b)} no longer holds {a_card(card_b)}.", field="card_b")
    state = copy.deepcopy(state)
    a, b = state.players[seat_a], state.players[seat_b]
    a.hand[card_a] -= 1
    b.hand[card_a] += 1
    b.hand[card_b] -= 1
    a.hand[card_b] += 1
    data = {"seat_a": seat_a, "card_a": card_a, "seat_b": seat_b, "card_b": card_b}
    return state, [
        Ledger(seat_a, "cards", -1, f"Traded to {seat_name(seat_b)}", card_a),
        Ledger(seat_a, "cards", 1, f"Traded from {seat_name(seat_b)}", card_b),
        Ledger(seat_b, "cards", -1, f"Traded to {seat_name(seat_a)}", card_b),
        Ledger(seat_b, "cards", 1, f"Traded from {seat_name(seat_a)}", card_a),
        Reveal(seat_a, f"Trade done: you gave {a_card(card_a)} and received {a_card(card_b)}.", data),
        Reveal(seat_b, f"Trade done: you gave {a_card(card_b)} and received {a_card(card_a)}.", data),
    ]


def purchase_cost(state: State, seat: int) -> int:
    """Garnets the seat's next card costs: 2, then twice the previous price each time."""
    check_seat(state, seat)
    return state.settings.first_purchase_cost * 2 ** state.players[seat].purchases


def purchase(state: State, seat: int, horse: str) -> tuple[State, list]:
    """Add one card of the seat's choice; the caller debits purchase_cost(state, seat) garnets from the
    season's ledger (checked there, never below zero) before calling this. Emits no garnet Ledger."""
    _open(state)
    check_seat(state, seat)
    horse = check_horse(horse, "horse")
    cost = purchase_cost(state, seat)
    state = copy.deepcopy(state)
    state.players[seat].hand[horse] += 1
    state.players[seat].purchases += 1
    return state, [
        Ledger(seat, "cards", 1, f"Bought for {cost} garnets", horse),
        Reveal(seat, f"You bought {a_card(horse)} for {cost} garnets.", {"horse": horse, "cost": cost}),
    ]
