"""Each way to score as a small function, with the rules' own examples by name."""

from games.cards_table.rules import Colour
from games.cards_table.rules.scoring import (
    board_guess_winners,
    capped,
    colour_bonus,
    nullify_points,
    scoring_card_points,
    top_seats,
    unique_each_round,
    unmatched_over_all_rounds,
)

R, B, Y = Colour.RED, Colour.BLUE, Colour.YELLOW


# --- Nullify: the four examples -------------------------------------------------------------------------


def test_if_you_deny_1_player_from_scoring_with_a_1_point_card_you_gain_1_point():
    assert nullify_points([1]) == 1


def test_if_you_deny_1_player_from_scoring_with_a_3_point_card_you_gain_2_points():
    assert nullify_points([3]) == 2


def test_if_you_deny_2_players_from_scoring_with_a_2_point_card_you_gain_3_points():
    assert nullify_points([2, 2]) == 3


def test_if_you_deny_3_players_from_scoring_with_a_1_point_card_you_gain_3_points_reduced_from_4():
    assert 3 + 3 // 3 == 4
    assert nullify_points([1, 1, 1]) == 3


def test_nullifying_a_card_nobody_scores_with_gains_nothing():
    assert nullify_points([]) == 0


# --- Board guesses: the Threshold examples --------------------------------------------------------------


def test_if_different_players_get_6_4_3_3_right_the_players_with_6_and_4_earn_a_point_each():
    assert board_guess_winners({0: 6, 1: 4, 2: 3, 3: 3}, 3) == {0, 1}


def test_if_different_players_get_4_4_4_4_right_no_players_earn_a_point():
    assert board_guess_winners({0: 4, 1: 4, 2: 4, 3: 4}, 3) == set()


def test_no_special_treatment_to_the_highest_score():
    # Four tied at the top shut out even the best guessers; three tied at the top all earn.
    assert board_guess_winners({0: 9, 1: 9, 2: 9, 3: 9, 4: 2}, 3) == set()
    assert board_guess_winners({0: 9, 1: 9, 2: 9, 3: 2}, 3) == {0, 1, 2}


def test_nothing_right_earns_nothing():
    assert board_guess_winners({0: 0}, 3) == set()


def test_you_cannot_gain_more_than_4_points_from_board_guesses():
    assert capped(1, 3, 4) == 1
    assert capped(1, 4, 4) == 0


# --- Scoring card ---------------------------------------------------------------------------------------


def test_you_score_points_equal_to_your_scoring_card():
    assert scoring_card_points({0: ("a", 3), 1: ("b", 2)}, set(), 3) == {0: 3, 1: 2}


def test_for_every_3_players_who_select_the_same_scoring_card_it_is_worth_1_less():
    two = {s: ("a", 2) for s in range(2)}
    three = {s: ("a", 2) for s in range(3)}
    six = {s: ("a", 2) for s in range(6)}
    assert set(scoring_card_points(two, set(), 3).values()) == {2}
    assert set(scoring_card_points(three, set(), 3).values()) == {1}
    assert set(scoring_card_points(six, set(), 3).values()) == {0}


def test_the_crowd_penalty_can_go_negative():
    nine = {s: ("a", 1) for s in range(9)}
    assert set(scoring_card_points(nine, set(), 3).values()) == {-2}


def test_a_nullified_scoring_card_scores_0_applied_last():
    nine = {s: ("a", 1) for s in range(9)}
    assert set(scoring_card_points(nine, {"a"}, 3).values()) == {0}
    assert scoring_card_points({0: ("a", 3), 1: ("b", 3)}, {"b"}, 3) == {0: 3, 1: 0}


# --- Colours of the scoring cards -----------------------------------------------------------------------


def test_all_scoring_cards_different_colours_earn_1_point():
    assert colour_bonus([R, B, Y]) == 1


def test_all_scoring_cards_the_same_colour_earn_2_points():
    assert colour_bonus([B, B, B]) == 2


def test_two_of_one_colour_earn_nothing():
    assert colour_bonus([R, R, Y]) == 0


def test_fewer_than_three_scoring_cards_earn_nothing():
    assert colour_bonus([R, B]) == 0


# --- The primary list -----------------------------------------------------------------------------------


def test_the_top_of_the_primary_list_is_everyone_tied_for_the_most():
    assert top_seats([3, 5, 5, 1]) == (1, 2)
    assert top_seats([4, 1]) == (0,)


# --- Unique cards ---------------------------------------------------------------------------------------


def f(*cells):
    return frozenset(cells)


def test_unique_scoring_card_in_every_round():
    mine = [f((1, 1)), f((2, 2)), f((3, 3))]
    others = [[f((1, 2)), f((2, 2)), f((3, 4))]]
    assert not unique_each_round(mine, others)
    others = [[f((1, 2)), f((2, 3)), f((3, 4))]]
    assert unique_each_round(mine, others)


def test_a_round_without_a_card_is_not_unique():
    assert not unique_each_round([f(), f((2, 2)), f((3, 3))], [])


def test_the_looser_reading_needs_a_match_in_all_three_rounds():
    mine = [f((1, 1)), f((2, 2)), f((3, 3))]
    assert unmatched_over_all_rounds(mine, [[f((1, 1)), f((2, 2)), f((4, 4))]])
    assert not unmatched_over_all_rounds(mine, [[f((1, 1)), f((2, 2)), f((3, 3))]])
