"""The end: garnets, Tokens of Life with every tie rule, and the Elimination Candidate with its vote."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.horse_race.rules import (
    pending_decisions,
    resolve_elimination,
    resolve_winner_choice,
    submit_ec_vote,
    submit_winner_choice,
)
from games.platform.kit import Announce, Ledger, RulesError
from tests.horse_race.horse_race_support import at_round, play


def ended(scores: list[int], **settings):
    """Round 10 resolved with these scores (carried as spectating points, no bets)."""
    state = at_round(10, seats=len(scores))
    state.settings = replace(state.settings, **settings)
    for seat, score in enumerate(scores):
        state.players[seat].spectate_points = score
    return play(state)


def ledger(events, what):
    return {(e.seat, e.delta) for e in events if isinstance(e, Ledger) and e.what == what}


def test_garnet_for_every_30_points():
    state, events = ended([65, 30, 29, 0, 90, 12, 13, 14, 15])
    assert state.ending.garnets == [2, 1, 0, 0, 3, 0, 0, 0, 0]
    assert ledger(events, "garnets") == {(0, 2), (1, 1), (4, 3)}


def test_final_scoreboard_is_announced():
    _, events = ended([65, 30, 29, 0, 90, 12, 13, 14, 15])
    board = [e for e in events if isinstance(e, Announce) and "scores" in e.data]
    assert board[0].text.startswith("Final scoreboard: seat 4 90 points; seat 0 65 points")


def test_sole_first_wins_two_sole_second_wins_one_sole_last_is_ec():
    state, events = ended([50, 40, 30, 20, 10, 9, 8, 7, 6])
    assert state.ending.tols_won == [2, 1, 0, 0, 0, 0, 0, 0, 0]
    assert ledger(events, "tokens_of_life") == {(0, 2), (1, 1)}
    assert state.ending.elimination_candidate == 8 and pending_decisions(state) == []


def test_tie_for_first_each_wins_one_and_no_further_tols():
    for tied in (2, 3, 4):
        scores = [50] * tied + [40, 30, 20, 10, 5, 1, 0][: 9 - tied]
        state, _ = ended(scores)
        assert state.ending.tols_won == [1] * tied + [0] * (9 - tied)


def test_more_than_four_tied_for_first_no_tols():
    state, events = ended([50, 50, 50, 50, 50, 40, 30, 20, 10])
    assert state.ending.tols_won == [0] * 9 and ledger(events, "tokens_of_life") == set()
    assert state.ending.elimination_candidate == 8


def test_sole_winner_and_tied_seconds_only_two_tols_are_given_out():
    # "only two ToLs are given out; the sole winner chooses which of the tied players wins the other ToL"
    state, events = ended([50, 40, 40, 40, 20, 10, 9, 8, 7])
    assert state.ending.tols_won == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert ledger(events, "tokens_of_life") == {(0, 1)}
    state, events = submit_winner_choice(state, 0, 2)
    assert ledger(events, "tokens_of_life") == {(2, 1)}
    assert sum(state.ending.tols_won) + sum(state.ending.tols_given) == 2


def test_sole_winner_keeps_two_with_tied_seconds_when_the_setting_says_three_are_given_out():
    state, events = ended([50, 40, 40, 40, 20, 10, 9, 8, 7], only_two_tols_with_tied_seconds=False)
    assert state.ending.tols_won == [2, 0, 0, 0, 0, 0, 0, 0, 0]
    state, _ = submit_winner_choice(state, 0, 2)
    assert sum(state.ending.tols_won) + sum(state.ending.tols_given) == 3


def test_sole_winner_chooses_among_tied_seconds():
    state, _ = ended([50, 40, 40, 40, 20, 10, 9, 8, 7])
    assert pending_decisions(state) == [{"kind": "winner_choice", "seat": 0, "candidates": [1, 2, 3]}]
    with pytest.raises(RulesError) as error:
        submit_winner_choice(state, 1, 2)
    assert error.value.field == "choice"
    with pytest.raises(RulesError):
        submit_winner_choice(state, 0, 4)
    state, events = submit_winner_choice(state, 0, 3)
    assert state.ending.tols_given == [0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert ledger(events, "tokens_of_life") == {(3, 1)}
    assert pending_decisions(state) == []
    with pytest.raises(RulesError):
        submit_winner_choice(state, 0, 2)


def test_unmade_choice_is_drawn_from_the_seed_or_nobody_by_setting():
    state, _ = ended([50, 40, 40, 20, 20, 10, 9, 8, 7])
    drawn, _ = resolve_winner_choice(state, random.Random(3))
    again, _ = resolve_winner_choice(state, random.Random(3))
    assert drawn.ending.choice in (1, 2) and drawn.ending.choice == again.ending.choice
    state, _ = ended([50, 40, 40, 20, 20, 10, 9, 8, 7], unmade_choice_drawn=False)
    nobody, _ = resolve_winner_choice(state, random.Random(3))
    assert nobody.ending.choice is None and nobody.ending.tols_given == [0] * 9


def test_tie_for_last_is_voted_by_those_who_won_a_tol():
    state, _ = ended([50, 40, 30, 20, 10, 9, 8, 5, 5])
    assert state.ending.elimination_candidate is None
    assert state.ending.ec_candidates == [7, 8] and state.ending.ec_voters == [0, 1]
    with pytest.raises(RulesError) as error:
        submit_ec_vote(state, 2, 7)
    assert error.value.field == "vote"
    with pytest.raises(RulesError):
        submit_ec_vote(state, 0, 6)
    state, _ = submit_ec_vote(state, 0, 8)
    state, _ = submit_ec_vote(state, 1, 8)
    state, events = resolve_elimination(state, {0: 0, 1: 0}, random.Random(1))
    assert state.ending.elimination_candidate == 8
    assert events[0].data["by"] == "most votes"


def test_given_tol_does_not_count_as_winning_it():
    # sole winner; everyone else tied: second place and last place are the same group
    state, _ = ended([50] + [10] * 8)
    assert state.ending.ec_voters == [0]
    state, _ = submit_winner_choice(state, 0, 4)
    assert state.ending.ec_voters == [0]
    with pytest.raises(RulesError):
        submit_ec_vote(state, 4, 5)
    state, _ = submit_ec_vote(state, 0, 4)  # a given ToL does not stop a player being the EC
    state, _ = resolve_elimination(state, {0: 1}, random.Random(0))
    assert state.ending.elimination_candidate == 4


def test_the_chosen_second_votes_on_the_ec_when_the_setting_reads_it_as_winning_the_tol():
    state, events = ended([50, 40, 40, 20, 10, 9, 8, 5, 5], chosen_second_votes=True)
    assert state.ending.ec_voters == [0]
    opened = [e.text for e in events if isinstance(e, Announce) and "vote on the Elimination" in e.text]
    assert opened == [
        "seat 7 and seat 8 are tied for fewest points; seat 0 and the player the winner gives the other "
        "Token of Life vote on the Elimination Candidate among them."
    ]
    state, _ = submit_winner_choice(state, 0, 2)
    assert state.ending.ec_voters == [0, 2]
    state, _ = submit_ec_vote(state, 0, 7)
    state, _ = submit_ec_vote(state, 2, 8)
    state, _ = resolve_elimination(state, {0: 1, 2: 5}, random.Random(0))
    assert state.ending.elimination_candidate == 8  # 1-1, seat 2's garnets break the tie


def test_a_seed_drawn_second_votes_too_when_the_chosen_second_votes():
    state, _ = ended([50, 40, 40, 20, 10, 9, 8, 5, 5], chosen_second_votes=True)
    drawn, _ = resolve_winner_choice(state, random.Random(3))
    assert drawn.ending.ec_voters == sorted([0, drawn.ending.choice])


def test_tied_vote_broken_by_the_voters_garnets_after_awards():
    state, _ = ended([50, 50, 50, 50, 20, 10, 5, 5, 5])
    assert state.ending.ec_voters == [0, 1, 2, 3]
    for voter, candidate in ((0, 6), (1, 6), (2, 7), (3, 7)):
        state, _ = submit_ec_vote(state, voter, candidate)
    season = {0: 3, 1: 4, 2: 1, 3: 5}  # 7 for seat 6's voters, 6 for seat 7's
    decided, events = resolve_elimination(state, season, random.Random(0))
    assert decided.ending.elimination_candidate == 6
    assert events[0].data["by"] == "tied vote broken by the voters' garnets"
    with pytest.raises(RulesError) as error:
        resolve_elimination(state, {0: 3, 1: 4}, random.Random(0))
    assert error.value.field == "season_garnets"


def test_still_tied_after_garnets_is_drawn_from_the_seed():
    state, _ = ended([50, 50, 20, 10, 5, 5, 5, 4, 4])
    state, _ = submit_ec_vote(state, 0, 7)
    state, _ = submit_ec_vote(state, 1, 8)
    first, events = resolve_elimination(state, {0: 2, 1: 2}, random.Random(11))
    second, _ = resolve_elimination(state, {0: 2, 1: 2}, random.Random(11))
    assert first.ending.elimination_candidate in (7, 8)
    assert first.ending.elimination_candidate == second.ending.elimination_candidate
    assert events[0].data["by"] == "tied vote and garnets, drawn at random"


def test_nobody_votes_everyone_tied_is_drawn():
    state, _ = ended([50, 40, 5, 5, 5, 5, 5, 5, 5])
    decided, _ = resolve_elimination(state, {0: 0, 1: 0}, random.Random(2))
    assert decided.ending.elimination_candidate in range(2, 9)


def test_addendum_five_way_tie_for_first_and_tie_for_last_first_placed_vote():
    state, _ = ended([50, 50, 50, 50, 50, 30, 20, 10, 10])
    assert state.ending.tols_won == [0] * 9
    assert state.ending.ec_voters == [0, 1, 2, 3, 4] and state.ending.ec_candidates == [7, 8]
    for voter in range(5):
        state, _ = submit_ec_vote(state, voter, 7 if voter < 3 else 8)
    state, _ = resolve_elimination(state, {s: 0 for s in range(9)}, random.Random(0))
    assert state.ending.elimination_candidate == 7


def test_everyone_tied_all_vote_among_all():
    state, _ = ended([10] * 9)
    assert state.ending.tols_won == [0] * 9
    assert state.ending.ec_voters == list(range(9)) and state.ending.ec_candidates == list(range(9))


def test_votes_can_change_until_resolved_and_not_after():
    state, _ = ended([50, 40, 30, 20, 10, 9, 8, 5, 5])
    state, _ = submit_ec_vote(state, 0, 7)
    state, _ = submit_ec_vote(state, 0, 8)
    assert state.ending.votes[0] == 8
    state, _ = resolve_elimination(state, {0: 0, 1: 0}, random.Random(0))
    assert state.ending.elimination_candidate == 8
    with pytest.raises(RulesError):
        submit_ec_vote(state, 1, 7)
