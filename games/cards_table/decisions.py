"""The ending's decision round: when the last round leaves the elimination candidate to the winners, Round 4
is their choice among the players tied for fewest points."""

from __future__ import annotations

import random
from collections import Counter

from games.platform.kit import Announce, RulesError
from games.platform.models import Game

from .names import with_names
from .rules import Phase, State, submit_loser_choice

ROUND_OF_LOSER_CHOICE = 4  # opened only when the winners must pick the elimination candidate


def clean(state: State, seat: int, payload: dict) -> dict:
    """A winner's choice, checked against the players tied for fewest points."""
    if state.phase is not Phase.CHOOSING_LOSER or state.final is None:
        raise RulesError("There is no elimination candidate to choose.", field="loser")
    if seat not in state.final.winners:
        raise RulesError("Only the winner(s) choose the elimination candidate.", field="loser")
    try:
        chosen = int(payload.get("loser"))
    except (TypeError, ValueError):
        raise RulesError("Pick one of the tied players.", field="loser") from None
    if chosen not in state.final.loser_candidates:
        raise RulesError("Pick one of the tied players.", field="loser")
    return {"loser": chosen}


def resolve(game: Game, state: State, submissions: dict[int, dict]) -> tuple[State, list]:
    """The choice most winners named; without one, the game's seed draws it."""
    winners = state.final.winners
    votes = Counter(p["loser"] for seat, p in submissions.items() if seat in winners and "loser" in p)
    events = []
    if votes:
        # A tie between choices goes to the lowest seat among them.
        best = max(votes.values())
        chosen = min(c for c, n in votes.items() if n == best)
    else:
        chosen = random.Random(f"{game.seed}-loser").choice(sorted(state.final.loser_candidates))
        events.append(Announce("No winner chose in time: the game's seed drew the elimination candidate."))
    chooser = min(
        (seat for seat, p in submissions.items() if seat in winners and p.get("loser") == chosen),
        default=winners[0],
    )
    state, chosen_events = submit_loser_choice(state, chooser, chosen)
    return state, with_names(game, events + chosen_events)
