"""What each viewer may see: one seat (its own flips, never its own points), the public, and the host."""

from __future__ import annotations

from .cards import ACTION_ORDER, ROUNDS, cell_of
from .codec import to_json
from .heat import HEAT_RULES
from .play import actions_used, card_data, legal_moves, scoring_cell
from .state import Phase, State


def _lists(state: State) -> list[dict]:
    """The published lists, anonymous: sorted, with no seat attached."""
    return [
        {
            "round": rec.round,
            "primary_list": sorted(rec.primary, reverse=True),
            "secondary_list": sorted(rec.secondary, reverse=True) if rec.secondary else None,
        }
        for rec in state.records
    ]


def public_view(state: State) -> dict:
    """What anyone, spectators included, may see; everything once the Main Match is over."""
    if state.phase is not Phase.PLAYING:
        return full_view(state)
    return {
        "game": "cards_table",
        "phase": state.phase.value,
        "round": state.round,
        "rounds": ROUNDS,
        "players": state.settings.players,
        "lists": _lists(state),
    }


def seat_view(state: State, seat: int) -> dict:
    """What one player may see: the cards they turned over or bought, their submissions and what they were
    told. Not their own points (the rules keep those from them until the end)."""
    if state.phase is not Phase.PLAYING:
        return full_view(state) | {"seat": seat}
    rounds = []
    for rnd in range(1, state.round + 1):
        sr = state.seat_round(seat, rnd)
        scoring = scoring_cell(sr)
        entry = {
            "round": rnd,
            "flips": [card_data(state, rnd, *cell) for cell in sr.flips],
            "declared": sr.declared.value if sr.declared else None,
            "action": sr.action.value if sr.action else None,
            "undeclared_penalty": sr.undeclared,
            "scoring_card": list(scoring) if scoring else None,
            "board_guess": to_json(sr.board_guess),
            "top_guess": sr.top_guess,
            "peeks": [card_data(state, rnd - 1, *cell) for cell in sr.peeks],
        }
        if rnd < state.round and rnd > 1 and sr.top_guess is not None:
            entry["top_guess_correct"] = sr.top_guess in state.records[rnd - 2].top
        rounds.append(entry)
    guess = state.heat_guesses[seat]
    heat = None
    if guess is not None:
        # The verdict is told at the close of the round the guess was made in.
        told = guess.round < state.round
        heat = {"round": guess.round, "text": guess.text, "verdict": guess.verdict if told else None}
    used = actions_used(state, seat)
    return public_view(state) | {
        "seat": seat,
        "my_rounds": rounds,
        "actions_used": [a.value for a in used],
        "actions_left": [a.value for a in ACTION_ORDER if a not in used],
        "heat_guess": heat,
        "can": legal_moves(state, seat),
    }


def full_view(state: State) -> dict:
    """Everything: the boards with every heat indicator, every seat's doings, every point. For hosts, and
    for everyone once the Main Match is over."""
    boards = []
    for rnd in range(1, ROUNDS + 1):
        boards.append([card_data(state, rnd, *cell_of(i)) for i in range(25)])
    points = [to_json(p) for p in state.points]
    totals = [sum(p.delta for p in state.points if p.seat == s) for s in range(state.settings.players)]
    return {
        "game": "cards_table",
        "phase": state.phase.value,
        "round": state.round,
        "rounds": ROUNDS,
        "players": state.settings.players,
        "settings": to_json(state.settings),
        "heat_rule": state.heat_rule,
        "heat_rule_description": HEAT_RULES[state.heat_rule][2],
        "heat_overrides": to_json(state.heat_overrides),
        "boards": boards,
        "seats": to_json(state.seats),
        "heat_guesses": to_json(state.heat_guesses),
        "points": points,
        "totals": totals,
        "records": to_json(state.records),
        "lists": _lists(state),
        "final": to_json(state.final),
    }
