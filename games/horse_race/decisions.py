"""The ending's decision rounds: the sole winner's choice among tied seconds, then the EC vote."""

from __future__ import annotations

import random

from games.platform.kit import Announce, Reveal, RulesError
from games.platform.models import Game, Seat
from games.platform.services.ledger import balances

from .names import seat_names
from .rules import (
    ROUNDS,
    State,
    pending_decisions,
    resolve_elimination,
    resolve_winner_choice,
    submit_ec_vote,
    submit_winner_choice,
)

# Round 11 and 12 are the ending's decision rounds: the winner's choice, then the Elimination Candidate vote.
LAST_DECISION_ROUND = ROUNDS + 2
WORDS = {
    "winner_choice": "the winner's choice of who among the players tied for second is given a Token of Life",
    "ec_vote": "the vote on the Elimination Candidate among the players tied for fewest points",
}
FIELD = {"winner_choice": "choice", "ec_vote": "vote"}
# The decisions as the hosts' console names them: "Round 11, the winner's choice: ann decides".
NAMES = {"winner_choice": "the winner's choice", "ec_vote": "the vote on the Elimination Candidate"}


def decision_now(state: State) -> dict | None:
    """The decision the next (or the open) decision round settles: the first one still pending."""
    pending = pending_decisions(state)
    return pending[0] if pending else None


def owes(decision: dict | None, seat_number: int | None) -> bool:
    if decision is None or seat_number is None:
        return False
    if decision["kind"] == "winner_choice":
        return decision["seat"] == seat_number
    return seat_number in decision["voters"]


def decision_of_round(state: State, round_number: int) -> dict | None:
    """The decision a decision round settles or settled: the ending opens the winner's choice (if a sole
    winner has tied seconds) and then the EC vote (if several are tied for fewest points), one round each from
    Round 11 on, in that order; a round resolved long ago still names its own."""
    ending = state.ending
    if ending is None or round_number <= ROUNDS:
        return None
    opened = []
    if ending.chooser is not None:
        opened.append({"kind": "winner_choice", "seat": ending.chooser})
    if ending.ec_voters:
        opened.append({"kind": "ec_vote", "voters": ending.ec_voters})
    index = round_number - ROUNDS - 1
    return opened[index] if index < len(opened) else None


def deciders(decision: dict) -> list[int]:
    return [decision["seat"]] if decision["kind"] == "winner_choice" else list(decision["voters"])


def describe(game: Game, state: State, round_number: int, seat_number: int | None) -> dict | None:
    """What a viewer reads of the open decision round: what is decided, by whom, and whether it is theirs."""
    decision = decision_now(state)
    if decision is None:
        return None
    names = seat_names(game)
    who = [names[s] for s in deciders(decision)]
    yours = owes(decision, seat_number)
    text = (
        f"Round {round_number} is {WORDS[decision['kind']]}; {', '.join(who)} decide{'s' * (len(who) == 1)}."
    )
    if seat_number is not None and not yours:
        text += " You have nothing to submit this round."
    return {
        "round": round_number,
        "kind": decision["kind"],
        "deciders": who,
        "candidates": [{"seat": s, "name": names[s]} for s in decision["candidates"]],
        "yours": yours,
        "text": text,
    }


def _candidate(value: object, field: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if type(value) is not int:
        raise RulesError("Choose one of the players listed.", field=field)
    return value


def clean(state: State, seat: Seat, round_number: int, payload: dict) -> dict:
    """A decision submission checked by the rules' own submit functions on a copy of the state."""
    decision = decision_now(state)
    if decision is None:
        raise RulesError("Nothing is left to decide.", field="round")
    field = FIELD[decision["kind"]]
    if not owes(decision, seat.number):
        raise RulesError(
            f"Round {round_number} is {WORDS[decision['kind']]}; you have nothing to submit.", field=field
        )
    if not isinstance(payload, dict):
        raise RulesError("Choose one of the players listed.", field=field)
    chosen = _candidate(payload.get(field), field)
    if decision["kind"] == "winner_choice":
        submit_winner_choice(state, seat.number, chosen)
    else:
        submit_ec_vote(state, seat.number, chosen)
    return {field: chosen}


def resolve(game: Game, state: State, round_number: int, submissions: dict[int, dict]) -> tuple[State, list]:
    """Apply the deciders' submissions, then close the decision with the rules (randomness from the seed)."""
    decision = decision_now(state)
    if decision is None:
        return state, []
    rng = random.Random(game.seed + round_number)
    field = FIELD[decision["kind"]]
    events: list = []
    for seat_number in deciders(decision):
        payload = submissions.get(seat_number)
        if not payload or payload.get(field) is None:
            continue
        try:
            if decision["kind"] == "winner_choice":
                state, more = submit_winner_choice(state, seat_number, payload[field])
            else:
                state, more = submit_ec_vote(state, seat_number, payload[field])
        except RulesError as error:
            events.append(
                Reveal(seat_number, f"Round {round_number}: your decision was void: {error.message}")
            )
            continue
        events.extend(more)
    if decision["kind"] == "winner_choice":
        state, more = resolve_winner_choice(state, rng)
    else:
        state, more = resolve_elimination(state, season_garnets(game), rng)
    events.extend(more)
    if decision_now(state) is None:
        events.append(Announce("Every decision of the ending is made.", {"round": round_number}))
    return state, events


def season_garnets(game: Game) -> dict[int, int]:
    """Each seat's season garnet total now, i.e. after this match's awards (posted when Round 10 resolved)."""
    return {
        seat.number: balances(season=game.season, user=seat.user).get("garnets", 0)
        for seat in game.seats.select_related("user")
    }
