"""The end of the match: bets scored, the final scoreboard, garnets, Tokens of Life and the Elimination
Candidate, with the two decisions that may wait on players (the sole winner's choice, the EC vote)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping

from games.platform.kit import Announce, Ledger, RulesError

from .settings import HORSES, ROUNDS
from .state import Ending, State, check_seat
from .track import final_placements, race_order, space_after
from .words import listing, ordinal, plural, seat_name

Event = Announce | Ledger


def bet_points(state: State, seat: int) -> int:
    """Every chip the seat bet, scored by its horse's final placement."""
    placements = final_placements(state.movement, state.settings.track_length)
    table = state.settings.bet_points
    return sum(
        chips * table[placements[horse] - 1]
        for placed in state.players[seat].bets
        for horse, chips in placed.items()
    )


def finish(state: State) -> list[Event]:
    """Score the match and open whatever decisions remain; mutates the working copy it is given."""
    events: list[Event] = []
    length = state.settings.track_length
    order = race_order(state.movement, ROUNDS, length)
    still_racing = [h for h in order if space_after(state.movement, h, ROUNDS, length) <= length]
    for horse in still_racing:
        place = order.index(horse) + 1
        space = space_after(state.movement, horse, ROUNDS, length)
        events.append(
            Announce(
                f"Horse {horse} did not finish (space {space} after Round {ROUNDS}): "
                f"it places {ordinal(place)}.",
                {"horse": horse, "placement": place, "space": space},
            )
        )
    events.append(
        Announce(
            "Final placements: " + ", ".join(f"{ordinal(i)} {h}" for i, h in enumerate(order, start=1)) + ".",
            {
                "placements": {h: order.index(h) + 1 for h in HORSES},
                "movement": copy.deepcopy(state.movement),
            },
        )
    )
    seats = range(len(state.players))
    from_bets = [bet_points(state, seat) for seat in seats]
    for seat in seats:
        if from_bets[seat]:
            events.append(Ledger(seat, "points", from_bets[seat], "Bets scored by final placements"))
    scores = [p.spectate_points + p.utility_points + from_bets[s] for s, p in enumerate(state.players)]
    garnets = [score // state.settings.points_per_garnet for score in scores]
    ending = Ending(
        bet_points=from_bets,
        scores=scores,
        garnets=garnets,
        tols_won=[0] * len(scores),
        tols_given=[0] * len(scores),
        votes=[None] * len(scores),
    )
    state.ending = ending
    ranked = sorted(seats, key=lambda s: -scores[s])
    events.append(
        Announce(
            "Final scoreboard: "
            + "; ".join(f"{seat_name(s)} {plural(scores[s], 'point')}" for s in ranked)
            + ".",
            {
                "scores": {str(s): scores[s] for s in seats},
                "bet_points": {str(s): from_bets[s] for s in seats},
            },
        )
    )
    for seat in seats:
        if garnets[seat]:
            events.append(Ledger(seat, "garnets", garnets[seat], "Main Match points (one per 30)"))
    events.extend(_award_tols(state))
    events.extend(_open_elimination(state))
    return events


def _groups(scores: list[int]) -> list[list[int]]:
    """Seats grouped by equal score, highest first."""
    return [[s for s, v in enumerate(scores) if v == value] for value in sorted(set(scores), reverse=True)]


def _award_tols(state: State) -> list[Event]:
    ending = state.ending
    groups = _groups(ending.scores)
    first = groups[0]
    events: list[Event] = []
    if len(first) == 1:
        ending.tols_won[first[0]] = 2
        if len(groups) > 1 and len(groups[1]) == 1:
            ending.tols_won[groups[1][0]] = 1
        elif len(groups) > 1:
            ending.chooser, ending.choice_candidates = first[0], list(groups[1])
            ending.choice_settled = False
            if state.settings.only_two_tols_with_tied_seconds:
                # "only two ToLs are given out": the winner's one and the one the winner gives away.
                ending.tols_won[first[0]] = 1
    elif len(first) <= state.settings.max_tied_winners_with_tols:
        for seat in first:
            ending.tols_won[seat] = 1
    for seat, count in enumerate(ending.tols_won):
        if count:
            events.append(Ledger(seat, "tokens_of_life", count, "Won in the Main Match"))
    winners = [
        f"{seat_name(s)} wins {plural(c, 'Token')} of Life" for s, c in enumerate(ending.tols_won) if c
    ]
    text = "Tokens of Life: " + (
        listing(winners) if winners else f"none ({len(first)} players tied for first)"
    )
    if ending.chooser is not None:
        tied = listing([seat_name(s) for s in ending.choice_candidates])
        text += f"; {seat_name(ending.chooser)} chooses which of {tied} (tied for second) is given the other"
    events.append(Announce(text + ".", {"won": ending.tols_won, "chooser": ending.chooser}))
    return events


def _open_elimination(state: State) -> list[Event]:
    ending = state.ending
    last = _groups(ending.scores)[-1]
    ending.ec_candidates = list(last)
    if len(last) == 1:
        ending.elimination_candidate = last[0]
        return [_ec_announcement(last[0], "fewest points")]
    voters = [s for s, won in enumerate(ending.tols_won) if won]
    if not voters:
        # the addendum: with no ToLs (five or more tied for first) those who got first vote
        voters = list(_groups(ending.scores)[0])
    ending.ec_voters = voters
    who = listing([seat_name(s) for s in voters])
    several = len(voters) > 1
    if ending.chooser is not None and state.settings.chosen_second_votes:
        who += " and the player the winner gives the other Token of Life"
        several = True
    text = (
        f"{listing([seat_name(s) for s in last])} are tied for fewest points; "
        f"{who} vote{'' if several else 's'} on the Elimination Candidate among them."
    )
    if set(last) & set(ending.choice_candidates):
        # Everyone behind the winner tied: the seconds are the lasts. Say so now, before one of them is given
        # a ToL and then named the EC with no word of why.
        text += f" {TOL_DOES_NOT_SPARE}"
    return [Announce(text, {"candidates": last, "voters": voters})]


# Why a player given the second-place ToL can still be the Elimination Candidate: "The player with the fewest
# points is the Elimination Candidate", ToLs or not, and "being given a ToL does not count as winning it".
TOL_DOES_NOT_SPARE = (
    "They are also the players tied for second: whoever is given the other Token of Life stays in this vote, "
    "as a Token of Life does not change who has the fewest points."
)


def _ec_announcement(
    seat: int, how: str, votes: dict[str, int | None] | None = None, given_tol: bool = False
) -> Announce:
    data = {"elimination_candidate": seat, "by": how, "votes": votes or {}}
    text = f"The Elimination Candidate is {seat_name(seat)} ({how})."
    if given_tol:
        text += (
            f" {seat_name(seat)} was given a Token of Life for second place but was also tied for fewest "
            "points, and the Elimination Candidate is chosen among those with the fewest points, Tokens of "
            "Life or not."
        )
    return Announce(text, data)


def _ending(state: State) -> Ending:
    if state.ending is None:
        raise RulesError("The match has not ended yet.", field="round")
    return state.ending


def submit_winner_choice(state: State, seat: int, chosen: int) -> tuple[State, list[Event]]:
    """The sole winner gives the other Token of Life to one of the players tied for second."""
    ending = _ending(state)
    check_seat(state, seat)
    if ending.chooser != seat or ending.choice_settled:
        raise RulesError("You have no Token of Life to give.", field="choice")
    if chosen not in ending.choice_candidates:
        names = listing([seat_name(s) for s in ending.choice_candidates], "nobody")
        raise RulesError(f"Choose one of the players tied for second: {names}.", field="choice")
    return _give(state, chosen, "chosen by the winner")


def _give(state: State, chosen: int | None, how: str) -> tuple[State, list[Event]]:
    state = copy.deepcopy(state)
    ending = state.ending
    ending.choice_settled = True
    ending.choice = chosen
    if chosen is None:
        return state, [Announce("No Token of Life is given for second place.", {"given": None})]
    ending.tols_given[chosen] = 1
    if state.settings.chosen_second_votes and ending.elimination_candidate is None:
        # Read as winning the other ToL: the chosen player joins those who vote on the EC.
        ending.ec_voters = sorted({*ending.ec_voters, chosen})
    text = f"{seat_name(chosen)} is given a Token of Life ({how})."
    if ending.elimination_candidate is None and chosen in ending.ec_candidates:
        text += (
            f" {seat_name(chosen)} is also tied for fewest points, so may still be named the Elimination "
            "Candidate: a Token of Life does not change who has the fewest points."
        )
    return state, [
        Ledger(chosen, "tokens_of_life", 1, "Given by the Main Match winner"),
        Announce(text, {"given": chosen, "by": how}),
    ]


def resolve_winner_choice(state: State, rng: random.Random) -> tuple[State, list[Event]]:
    """The winner's choice closes: an unmade choice is drawn from the seed (or nobody, by setting)."""
    ending = _ending(state)
    if ending.choice_settled:
        return state, []
    if state.settings.unmade_choice_drawn:
        return _give(
            state, rng.choice(sorted(ending.choice_candidates)), "drawn at random: the winner did not choose"
        )
    return _give(state, None, "the winner did not choose")


def submit_ec_vote(state: State, voter: int, candidate: int) -> tuple[State, list[Event]]:
    """One ToL winner's vote for the Elimination Candidate; a voter may change it until it is resolved."""
    ending = _ending(state)
    check_seat(state, voter)
    if ending.elimination_candidate is not None or voter not in ending.ec_voters:
        raise RulesError("You have no vote on the Elimination Candidate.", field="vote")
    if candidate not in ending.ec_candidates:
        names = listing([seat_name(s) for s in ending.ec_candidates], "nobody")
        raise RulesError(f"Vote for one of the players tied for fewest points: {names}.", field="vote")
    state = copy.deepcopy(state)
    state.ending.votes[voter] = candidate
    return state, []


def resolve_elimination(
    state: State, season_garnets: Mapping[int, int], rng: random.Random
) -> tuple[State, list[Event]]:
    """Close the EC vote: most votes; tied, the voters' season garnets (after this match's awards); then the
    seed. `season_garnets` maps each seat to its garnet total after the awards."""
    ending = _ending(state)
    if ending.elimination_candidate is not None:
        return state, []
    tally = {c: [v for v in ending.ec_voters if ending.votes[v] == c] for c in ending.ec_candidates}
    most = max(len(voters) for voters in tally.values())
    leaders = [c for c, voters in tally.items() if len(voters) == most]
    how = "most votes"
    if len(leaders) > 1:
        for voters in tally.values():
            for voter in voters:
                if type(season_garnets.get(voter)) is not int:
                    raise RulesError(
                        f"The season garnet total of {seat_name(voter)} is missing.", field="season_garnets"
                    )
        weight = {c: sum(season_garnets[v] for v in tally[c]) for c in leaders}
        top = max(weight.values())
        leaders = [c for c in leaders if weight[c] == top]
        how = "tied vote broken by the voters' garnets"
        if len(leaders) > 1:
            leaders = [rng.choice(sorted(leaders))]
            how = "tied vote and garnets, drawn at random"
    state = copy.deepcopy(state)
    state.ending.elimination_candidate = leaders[0]
    votes = {str(v): ending.votes[v] for v in ending.ec_voters}
    given = bool(ending.tols_given[leaders[0]])
    return state, [_ec_announcement(leaders[0], how, votes, given_tol=given)]


def pending_decisions(state: State) -> list[dict]:
    """What the match still waits on once Round 10 is resolved (empty when nothing, or not ended)."""
    ending = state.ending
    if ending is None:
        return []
    pending = []
    if not ending.choice_settled:
        pending.append(
            {"kind": "winner_choice", "seat": ending.chooser, "candidates": ending.choice_candidates}
        )
    if ending.elimination_candidate is None:
        missing = [v for v in ending.ec_voters if ending.votes[v] is None]
        pending.append(
            {
                "kind": "ec_vote",
                "voters": ending.ec_voters,
                "candidates": ending.ec_candidates,
                "not_voted": missing,
            }
        )
    return pending
