"""Closing rounds and ending the Main Match on hand-made games whose answers were worked out by hand."""

import pytest

from games.cards_table.rules import (
    Phase,
    Settings,
    judge_heat_guess,
    resolve_round,
    submit_board_guess,
    submit_heat_guess,
    submit_loser_choice,
    submit_top_guess,
)
from games.platform.kit import Announce, Ledger, Reveal, RulesError

from .fixtures import VALID, fresh, parse, play, round_points, totals

N, RP, S = "nullify", "replace", "scout"


def grid_of(board, number=True, colour=True):
    return [
        [(c.number if number else None, c.colour.value if colour else None) for c in board[r * 5 : r * 5 + 5]]
        for r in range(5)
    ]


def round_one():
    """Round 1 of ten players on the fixture board (R1C2 3r, R2C4 3r, R1C1 2b, R3C1 3b, ...)."""
    state = fresh()
    state, _ = play(
        state,
        {
            0: [(1, 2), (S, (1, 1))],
            1: [(1, 2), (S, (1, 3))],
            2: [(1, 2), (S, (1, 4))],
            3: [(2, 4), (N, (1, 2))],  # nullifies the card seats 0-2 score with
            4: [(1, 1), (RP, (3, 1))],  # scores with R3C1, a 3
            5: [(1, 5)],  # one flip: scores with its starting card, no action
            7: [(5, 1), (5, 2)],  # no declaration: Nullify is used, -1
            8: [(3, 3), (S, (4, 4)), (4, 5), (5, 5)],  # third flip -2, fourth -1
            9: [(4, 1), (N, (1, 1))],  # nullifies a starting card nobody scores with
        },
    )
    board = parse(VALID)[0]
    state, _ = submit_board_guess(state, 0, grid_of(board))
    state, _ = submit_board_guess(state, 1, grid_of(board, colour=False))
    state, _ = submit_board_guess(state, 2, [[(2, "red")] * 5] * 5)
    state, _ = submit_board_guess(state, 3, [[(1, None)] * 5] * 5)
    state, _ = submit_heat_guess(state, 6, "black means the hottest side")
    state, _ = submit_heat_guess(state, 5, "it is random")
    state, _ = judge_heat_guess(state, 6, True)
    state, _ = judge_heat_guess(state, 5, False)
    return resolve_round(state)


def test_round_one_points_worked_out_by_hand():
    state, _ = round_one()
    # 0: nullified 0, numbers 25 and colours 25 right: 2.  1: nullified, numbers 25: 1.
    # 2: nullified, all "2 red" gets 9 numbers and 8 colours right: 1 + 1.  3: scores 3, nullify denies
    # three players 3 points each: 3 + 3 = 6, capped at 3.  4: replaced into a 3.  5: starting card 1, heat
    # guess wrong.  6: no flip, heat guess right: 1.  7: 1 - 1 for not declaring, nullified an unused card.
    # 8: 2 - 2 - 1.  9: 2, nullified a card nobody scored with.
    assert round_points(state, 1) == [2, 1, 2, 6, 3, 1, 1, 0, -1, 2]
    assert state.records[0].top == (3,)
    assert state.round == 2


def test_round_one_methods_recorded_per_point():
    state, _ = round_one()
    by = {(p.seat, p.method): p.delta for p in state.points}
    assert by[(3, "nullify")] == 3 and by[(3, "scoring_card")] == 3
    assert by[(0, "scoring_card")] == 0
    assert by[(7, "undeclared_action")] == -1 and by[(7, "nullify")] == 0
    assert [p.delta for p in state.points if p.seat == 8 and p.method == "extra_flip"] == [-2, -1]
    assert {s for (s, m) in by if m == "board_numbers"} == {0, 1, 2}  # 25, 25, 9 right; the 8 misses
    assert {s for (s, m) in by if m == "board_colours"} == {0, 2}
    assert by[(6, "heat_guess")] == 1 and (5, "heat_guess") not in by


def test_round_one_publishes_an_anonymous_primary_list_and_tells_heat_verdicts():
    _, events = round_one()
    lists = [e for e in events if isinstance(e, Announce) and "primary_list" in e.data]
    assert lists[0].data["primary_list"] == [6, 3, 2, 2, 2, 1, 1, 1, 0, -1]
    told = {e.seat: e.data["correct"] for e in events if isinstance(e, Reveal) and "correct" in e.data}
    assert told == {6: True, 5: False}
    assert not any(isinstance(e, Ledger) for e in events), "points stay hidden until the end"


def test_a_wrong_heat_guess_ends_that_players_chance():
    state, _ = round_one()
    with pytest.raises(RulesError) as err:
        submit_heat_guess(state, 5, "another idea")
    assert err.value.field == "heat_guess"


def test_round_two_top_guesses_and_the_secondary_list():
    state, _ = round_one()
    state, _ = play(state, {s: [(5, 4)] for s in range(10)})  # ten on R5C4 (2b): 2 - 3 = -1
    state, _ = submit_top_guess(state, 0, 3)
    state, _ = submit_top_guess(state, 1, 3)
    state, _ = submit_top_guess(state, 2, 4)
    state, _ = submit_top_guess(state, 3, 1)  # the top player guessing: told, never paid
    state, events = resolve_round(state)
    assert round_points(state, 2) == [0, 0, -1, -1, -1, -1, -1, -1, -1, -1]
    assert state.records[1].guess_earners == (0, 1)
    told = {e.seat: e.data["correct"] for e in events if isinstance(e, Reveal) and "correct" in e.data}
    assert told == {0: True, 1: True, 2: False, 3: False}
    secondary = [e for e in events if isinstance(e, Announce) and "secondary_list" in e.data]
    assert secondary[0].data["secondary_list"] == sorted(totals(state), reverse=True)


def test_the_crowd_penalty_round_two_ten_players_on_one_card():
    state, _ = round_one()
    state, _ = play(state, {s: [(5, 4)] for s in range(10)})
    state, _ = resolve_round(state)
    assert {p.delta for p in state.points if p.round == 2 and p.method == "scoring_card"} == {2 - 10 // 3}


def test_resolving_waits_for_the_hosts_heat_verdict():
    state = fresh()
    state, _ = submit_heat_guess(state, 2, "sums")
    with pytest.raises(RulesError) as err:
        resolve_round(state)
    assert err.value.field == "heat_guess"


def test_points_denied_count_face_value_by_default_and_after_the_crowd_as_a_setting():
    plan = {s: [(1, 5), (S, (1, 1))] for s in range(3)}  # three on R1C5, a 1: worth 0 after the crowd
    plan[3] = [(1, 1), (N, (1, 5))]
    state, _ = play(fresh(), plan)
    state, _ = resolve_round(state)
    assert [p.delta for p in state.points if p.seat == 3 and p.method == "nullify"] == [3]
    state, _ = play(fresh(denied_after_crowd=True), plan)
    state, _ = resolve_round(state)
    assert [p.delta for p in state.points if p.seat == 3 and p.method == "nullify"] == [0]


def test_two_nullifiers_on_one_card_each_earn_for_the_denied_player():
    state, _ = play(fresh(3), {0: [(1, 2), (S, (1, 1))], 1: [(2, 4), (N, (1, 2))], 2: [(1, 1), (N, (1, 2))]})
    state, _ = resolve_round(state)
    assert round_points(state, 1) == [0, 3 + 2, 2 + 2]


def test_board_guess_points_stop_at_4_over_the_game():
    state = fresh(2)
    for rnd in (1, 2, 3):
        state, _ = play(state, {0: [(1, 1), ([N, RP, S][rnd - 1], (1, 2))]})
        state, _ = submit_board_guess(state, 0, grid_of(parse(VALID)[rnd - 1]))
        state, _ = resolve_round(state)
    assert [p.delta for p in state.points if p.method.startswith("board_")] == [1, 1, 1, 1]


def four_player_game():
    """Three rounds of four players, each using every action once (worked out in the comments)."""
    state = fresh(4)
    # Round 1: 0 scores R1C2 (3r) and nullifies R2C4 (3r), denying 1 player 3 points: 3 + 2.
    state, _ = play(
        state,
        {
            0: [(1, 2), (N, (2, 4))],
            1: [(2, 4), (S, (1, 1))],
            2: [(3, 1), (RP, (3, 2))],
            3: [(5, 1), (RP, (1, 5))],
        },
    )
    state, _ = resolve_round(state)
    # Round 2: 3 nullifies R2C1 (3b), the card 0 replaced into: 3 + 2 for 3, 0 for 0.
    state, _ = play(
        state,
        {
            0: [(1, 1), (RP, (2, 1))],
            1: [(3, 2), (N, (1, 1))],
            2: [(4, 3), (S, (5, 5))],
            3: [(4, 5), (N, (2, 1))],
        },
    )
    state, _ = resolve_round(state)
    # Round 3: every scoring card is a 3; 2 nullifies R5C4, which nobody scores with.
    state, _ = play(
        state,
        {
            0: [(1, 5), (S, (2, 2))],
            1: [(2, 2), (RP, (2, 4))],
            2: [(3, 1), (N, (5, 4))],
            3: [(4, 4), (S, (5, 1))],
        },
    )
    return resolve_round(state)


def test_four_player_game_rounds():
    state, _ = four_player_game()
    assert [round_points(state, r) for r in (1, 2, 3)] == [[5, 0, 3, 1], [0, 3, 3, 5], [3, 3, 3, 3]]


def test_four_player_game_end_bonuses():
    state, _ = four_player_game()
    end = sorted((p.seat, p.method, p.delta) for p in state.points if p.round == 0)
    assert end == [
        (0, "scoring_colours", 1),  # red, blue, yellow
        (0, "unique_scoring_card", 1),
        (1, "unique_scoring_card", 1),
        (2, "unique_cards", 2),  # nobody else turned over any of its six cards
        (2, "unique_scoring_card", 1),
        (3, "scoring_colours", 1),  # yellow, blue, red
        (3, "unique_scoring_card", 1),
    ]


def test_four_player_game_end():
    state, events = four_player_game()
    final = state.final
    assert final.totals == (10, 7, 12, 11)
    assert final.winners == (2,)
    assert final.tokens_of_life == (0, 1, 2, 3)  # four players, Threshold 5
    assert final.garnets == (1, 0, 1, 1)  # 9 or more
    assert final.loser == 1 and state.phase is Phase.ENDED
    ledger = [e for e in events if isinstance(e, Ledger)]
    assert sum(e.delta for e in ledger if e.what == "points" and e.seat == 2) == 12
    assert sum(e.delta for e in ledger if e.what == "garnets") == 3
    assert {e.seat for e in ledger if e.what == "tokens_of_life"} == {0, 1, 2, 3}


def test_garnets_at_9_15_and_20_points():
    marks = Settings().garnet_marks
    assert [sum(t >= m for m in marks) for t in (8, 9, 14, 15, 19, 20, 30)] == [0, 1, 1, 2, 2, 3, 3]


def test_a_player_who_missed_an_action_ends_on_3_points():
    state = fresh(3)
    plans = [
        {0: [(1, 2), (N, (1, 1))], 1: [(1, 1)], 2: [(1, 3), (N, (5, 5))]},
        {0: [(2, 1), (RP, (1, 1))], 1: [(1, 1)], 2: [(4, 4), (RP, (5, 5))]},
        {0: [(1, 5), (S, (1, 1))], 1: [(1, 1)], 2: [(2, 2), (S, (5, 5))]},
    ]
    for plan in plans:
        state, _ = play(state, plan)
        state, _ = resolve_round(state)
    assert state.final.totals[1] == 3
    assert [p.method for p in state.points if p.seat == 1][-1] == "missing_action"


def tied_game(second_seat_card):
    """Seats 1 and 2 never use an action (total 3 each); seat 0 plays properly and wins."""
    state = fresh(3)
    plans = [
        {0: [(1, 2), (N, (2, 2))], 1: [(1, 5)], 2: [second_seat_card]},
        {0: [(3, 2), (RP, (4, 3))], 1: [], 2: []},
        {0: [(1, 5), (S, (2, 2))], 1: [], 2: []},
    ]
    for plan in plans:
        state, _ = play(state, plan)
        state, _ = resolve_round(state)
    return state


def test_the_loser_tie_is_broken_by_the_lower_sum_of_cards_turned_over():
    state = tied_game((1, 2))  # seat 1 turned a 1, seat 2 a 3
    assert state.final.totals[1] == state.final.totals[2] == 3
    assert state.final.card_sums[1:] == (1, 3)
    assert state.final.loser == 1 and state.phase is Phase.ENDED


def test_still_tied_the_winners_choose_the_elimination_candidate():
    state = tied_game((2, 1))  # both turned a 1
    assert state.phase is Phase.CHOOSING_LOSER and state.final.loser_candidates == (1, 2)
    with pytest.raises(RulesError):
        submit_loser_choice(state, 1, 2)  # not a winner
    with pytest.raises(RulesError):
        submit_loser_choice(state, 0, 0)  # not tied
    state, events = submit_loser_choice(state, 0, 2)
    assert state.final.loser == 2 and state.phase is Phase.ENDED
    assert events[0].data["elimination_candidate"] == 2


def top_bonus_game(guess_in_round_2: int | None, **settings):
    """Seat 0 tops Rounds 1 and 2 (a replace into a 3 and nullify points); seat 1 may guess it."""
    state = fresh(3, **settings)
    state, _ = play(state, {0: [(5, 1), (RP, (1, 2))], 1: [(1, 5), (N, (1, 3))], 2: [(1, 5), (N, (5, 5))]})
    state, _ = resolve_round(state)
    state, _ = play(state, {0: [(3, 2), (N, (2, 5))], 1: [(1, 2), (RP, (3, 5))], 2: [(2, 5), (RP, (1, 3))]})
    if guess_in_round_2 is not None:
        state, _ = submit_top_guess(state, 1, guess_in_round_2)
    state, _ = resolve_round(state)
    state, _ = play(state, {0: [(1, 5), (S, (2, 2))], 1: [(3, 5), (S, (1, 1))], 2: [(4, 4), (S, (1, 1))]})
    return resolve_round(state)[0]


def test_top_in_rounds_1_and_2_and_nobody_guessed_right_earns_a_point_at_the_end_of_round_3():
    state = top_bonus_game(None)
    assert state.records[0].top == (0,) and state.records[1].top == (0,)
    assert [(p.seat, p.round) for p in state.points if p.method == "top_bonus"] == [(0, 3)]


def test_a_right_guess_in_round_2_alone_still_leaves_the_bonus_under_either():
    state = top_bonus_game(0)
    assert state.records[1].guess_earners == (1,)
    assert [p.seat for p in state.points if p.method == "top_bonus"] == [0]
    state = top_bonus_game(0, top_bonus_needs_both=True)
    assert [p.seat for p in state.points if p.method == "top_bonus"] == []
