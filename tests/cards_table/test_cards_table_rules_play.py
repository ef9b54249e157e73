"""Flips, actions, penalties, submissions and peeks during a round; illegal moves name their field."""

import pytest

from games.cards_table.rules import (
    apply_action,
    declare_action,
    flip,
    legal_moves,
    peek_previous,
    resolve_round,
    submit_board_guess,
    submit_heat_guess,
    submit_top_guess,
    validate_action,
)
from games.cards_table.rules.play import scoring_cell
from games.platform.kit import Reveal, RulesError

from .fixtures import fresh, play


def raises(field, fn, *args, **kwargs):
    with pytest.raises(RulesError) as err:
        fn(*args, **kwargs)
    assert err.value.field == field
    return err.value


def test_a_flip_reveals_the_card_to_that_player_at_once():
    state, events = flip(fresh(), 4, 1, 2)
    assert len(events) == 1 and isinstance(events[0], Reveal) and events[0].seat == 4
    data = events[0].data
    assert (data["number"], data["colour"], data["row"], data["col"]) == (3, "red", 1, 2)
    assert set(data["heat"]) == {"top", "right", "bottom", "left", "background"}
    assert "R1C2 is a 3 red card" in events[0].text
    assert state.seat_round(4).flips == ((1, 2),)


def test_the_first_flip_is_the_starting_card_and_replace_scores_with_the_second():
    state, _ = play(fresh(), {0: [(1, 1), ("replace", (1, 2))], 1: [(1, 1), ("scout", (1, 2))]})
    assert scoring_cell(state.seat_round(0)) == (1, 2)
    assert scoring_cell(state.seat_round(1)) == (1, 1)


def test_without_a_declaration_the_first_unused_action_is_used_and_costs_a_point():
    state, events = play(fresh(), {0: [(1, 1), (1, 2)]})
    assert state.seat_round(0).action.value == "nullify" and state.seat_round(0).undeclared
    assert "lose 1 point" in events[-1].text
    state, _ = resolve_round(state)
    state, _ = play(state, {0: [(1, 1), (1, 2)]})  # Nullify is used: Replace comes next
    assert state.seat_round(0).action.value == "replace"


def test_a_declaration_before_the_second_flip_avoids_the_penalty():
    state, _ = declare_action(fresh(), 0, "Scout")
    state, _ = play(state, {0: [(1, 1), (1, 2)]})
    assert state.seat_round(0).action.value == "scout" and not state.seat_round(0).undeclared


def test_third_flip_costs_2_and_each_further_flip_1_more():
    state, events = play(fresh(), {0: [(1, 1), ("scout", (1, 2)), (1, 3), (1, 4), (1, 5)]})
    assert [e.data.get("penalty") for e in events] == [None, None, -2, -1, -1]
    state, _ = resolve_round(state)
    assert sum(p.delta for p in state.points if p.method == "extra_flip") == -4


def test_escalating_extra_flips_setting():
    _, events = play(fresh(escalating_extra_flips=True), {0: [(1, 1), ("scout", (1, 2)), (1, 3), (1, 4)]})
    assert [e.data.get("penalty") for e in events] == [None, None, -2, -3]


def test_flips_are_final_and_a_card_cannot_be_turned_twice():
    state, _ = flip(fresh(), 0, 1, 1)
    raises("cell", flip, state, 0, 1, 1)
    flip(state, 1, 1, 1)  # another player may turn the same card


def test_a_card_outside_the_board_is_refused():
    raises("cell", flip, fresh(), 0, 6, 1)
    raises("cell", flip, fresh(), 0, "a", 1)
    raises("seat", flip, fresh(), 10, 1, 1)


def test_an_action_used_in_an_earlier_round_cannot_be_declared_again():
    state, _ = play(fresh(), {0: [(1, 1), ("nullify", (1, 2))]})
    state, _ = resolve_round(state)
    raises("action", declare_action, state, 0, "nullify")
    raises("action", flip, state, 0, 1, 1, "nullify")
    raises("action", declare_action, state, 0, "jump")
    repeat = fresh(allow_repeated_actions=True)
    repeat, _ = play(repeat, {0: [(1, 1), ("nullify", (1, 2))]})
    repeat, _ = resolve_round(repeat)
    declare_action(repeat, 0, "nullify")


def test_no_declaration_after_the_second_flip():
    state, _ = play(fresh(), {0: [(1, 1), ("scout", (1, 2))]})
    raises("action", declare_action, state, 0, "replace")


def test_top_guess_only_from_round_2_and_never_oneself():
    raises("top_guess", submit_top_guess, fresh(), 0, 1)
    state, _ = resolve_round(fresh())
    raises("top_guess", submit_top_guess, state, 0, 0)
    raises("top_guess", submit_top_guess, state, 0, 11)
    state, _ = submit_top_guess(state, 0, 1)
    state, _ = submit_top_guess(state, 0, 2)  # saved until the close: the last one stands
    assert state.seat_round(0).top_guess == 2


def test_one_heat_guess_per_game():
    state, _ = submit_heat_guess(fresh(), 0, "sum of the sides")
    raises("heat_guess", submit_heat_guess, state, 0, "another")
    raises("heat_guess", submit_heat_guess, fresh(), 0, "   ")


def test_board_guesses_accept_blanks_and_refuse_nonsense():
    grid = [[(1, "red"), None, {"number": 2, "colour": ""}, (3, None), ("", "Blue")]] * 5
    state, _ = submit_board_guess(fresh(), 0, grid)
    guess = state.seat_round(0).board_guess
    assert len(guess) == 25 and guess[1].number is None and guess[4].colour.value == "blue"
    raises("board_guess", submit_board_guess, fresh(), 0, [[(4, "red")] * 5] * 5)
    raises("board_guess", submit_board_guess, fresh(), 0, [[(1, "green")] * 5] * 5)
    raises("board_guess", submit_board_guess, fresh(), 0, [[(1, "red")] * 4] * 5)


def test_a_garnet_peek_shows_a_card_of_the_previous_round_from_round_2():
    raises("cell", peek_previous, fresh(), 0, 1, 1)
    state, _ = resolve_round(fresh())
    state, events = peek_previous(state, 3, 2, 4)
    assert events[0].seat == 3 and events[0].data["round"] == 1
    assert (events[0].data["number"], events[0].data["colour"]) == (3, "red")
    assert state.seat_round(3).peeks == ((2, 4),)


def test_a_garnet_buys_no_card_the_player_already_knows():
    state, _ = flip(fresh(), 3, 2, 4)
    state, _ = resolve_round(state)
    told = raises("cell", peek_previous, state, 3, 2, 4)
    assert told.message == "You turned over R2C4 yourself in Round 1: you know it."
    state, _ = peek_previous(state, 3, 1, 1)
    assert raises("cell", peek_previous, state, 3, 1, 1).message == "You already bought a look at R1C1."
    peek_previous(state, 4, 2, 4)  # another player has not seen R2C4


def test_apply_action_dispatches_and_validate_action_changes_nothing():
    state = fresh()
    validate_action(state, 0, {"type": "flip", "row": 1, "col": 1})
    assert state.seat_round(0).flips == ()
    state, _ = apply_action(state, 0, {"type": "flip", "row": 1, "col": 1})
    state, _ = apply_action(state, 0, {"type": "flip", "row": 2, "col": 1, "action": "replace"})
    assert state.seat_round(0).action.value == "replace"
    raises("type", apply_action, state, 0, {"type": "dance"})


def test_legal_moves_tell_the_page_what_is_open():
    state, _ = play(fresh(), {0: [(1, 1), ("scout", (1, 2))]})
    moves = legal_moves(state, 0)
    assert moves["next_flip_penalty"] == -2 and moves["declare"] == [] and not moves["top_guess"]
    state, _ = resolve_round(state)
    moves = legal_moves(state, 0)
    assert moves["declare"] == ["nullify", "replace"] and moves["default_action"] == "nullify"


def test_nothing_can_be_played_after_the_end():
    state = fresh(2)
    for _ in range(3):
        state, _ = resolve_round(state)
    raises("round", flip, state, 0, 1, 1)
    raises("round", resolve_round, state)
