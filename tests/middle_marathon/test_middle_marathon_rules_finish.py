"""Crossing the line together, the end of the race, the placement points and the whole tie-break ladder."""

from itertools import combinations

import pytest

from games.middle_marathon.rules import PIECES, Settings, decide_winner, pending, placements, seat_scores
from games.middle_marathon.rules.track import place_pieces

from .positions import BLUE, RED, choose, make, play


def test_the_piece_that_goes_furthest_past_the_finish_line_finishes_first():
    state = make({"FB": 13, "SR": 14})
    state, _ = play(state, 4, "FB")  # FB 13 -> 17 (2 past), SR 14 -> 18 (3 past)
    state, events = choose(state, "SR")
    assert state.finished == ["SR", "FB"]
    assert "Force (blue) moves 13 -> 17, 2 past the line, and finishes 2nd" in events[0].text


def test_equal_distance_the_pieces_of_the_player_whose_turn_it_is_finish_first():
    state = make({"FB": 13, "FR": 13})
    state, _ = play(state, 3, "FB")
    state, _ = choose(state, "FR")
    assert state.finished == ["FB", "FR"]
    state = make({"FB": 13, "FR": 13}, to_move=RED)
    state, _ = play(state, 3, "FR")
    state, _ = choose(state, "FB")
    assert state.finished == ["FR", "FB"]


def test_equal_distance_the_turn_players_piece_before_the_neutral_piece():
    state = make({"FB": 13, "M": 13})
    state, _ = play(state, 3, "FB")
    state, _ = choose(state, "M")
    assert state.finished == ["FB", "M"]


def test_equal_distance_the_neutral_piece_before_the_other_players_pieces():
    state = make({"FR": 14, "M": 14})  # Blue's turn
    place_pieces(state, [("FR", 14, 16), ("M", 14, 16)])
    assert state.finished == ["M", "FR"]


def test_placements_are_unique_even_for_two_pieces_of_one_player_level_on_every_count():
    state = make({"FB": 13, "SB": 13})
    state, _ = play(state, 3, "FB")
    state, _ = choose(state, "SB")
    assert state.finished == ["FB", "SB"]


def test_placement_points_are_0_2_3_4_6_4_3_2_0():
    order = ["FB", "GB", "FR", "GR", "RB", "SB", "M", "RR", "SR"]
    assert [row["points"] for row in placements(order, Settings())] == [0, 2, 3, 4, 6, 4, 3, 2, 0]
    assert seat_scores(order, Settings()) == [0 + 2 + 6 + 4, 3 + 4 + 2 + 0]
    assert decide_winner(order, Settings())[0] == BLUE


def test_the_game_ends_when_only_one_colour_is_left_and_the_rest_are_placed_by_position():
    # Blue's last piece SB crosses; Red's pieces and the neutral piece are already gone... except RR, SR.
    state = make({"SB": 14, "RR": 9, "SR": 12}, gone=("FB", "GB", "RB", "M", "FR", "GR"))
    state, events = play(state, 2, "SB")
    assert pending(state)["kind"] == "over"
    assert state.result["order"] == ["FB", "GB", "RB", "M", "FR", "GR", "SB", "SR", "RR"]
    # Blue: 0 + 2 + 3 + 3 (SB 7th) = 8; Red: 6 (FR 5th) + 4 + 2 + 0 = 12.
    assert state.result["scores"] == [8, 12] and state.result["winner"] == RED
    assert "The race is over" in events[-1].text


def test_pieces_left_level_are_placed_turn_player_then_neutral_then_other_player():
    settings = Settings(neutral_is_a_colour=False)
    # Blue's turn: Blue's last piece crosses; on space 5 the neutral comes before Red's pieces.
    state = make(
        {"SB": 14, "M": 5, "FR": 5, "GR": 5, "RR": 9, "SR": 2}, gone=("FB", "GB", "RB"), settings=settings
    )
    state, _ = play(state, 2, "SB")
    assert state.result["order"] == ["FB", "GB", "RB", "SB", "RR", "M", "FR", "GR", "SR"]
    # Red's turn: Red's Force carries Blue's last piece over; on space 5 Red's pieces come first.
    state = make(
        {"FR": 3, "SB": 14, "M": 5, "GR": 5, "RR": 9, "SR": 2},
        gone=("FB", "GB", "RB"),
        to_move=RED,
        settings=settings,
    )
    state, _ = play(state, 2, "FR")
    state, _ = choose(state, "SB")
    assert state.result["order"] == ["FB", "GB", "RB", "SB", "RR", "FR", "GR", "M", "SR"]


def test_ladder_most_points_wins():
    order = ["M", "FB", "GB", "FR", "RB", "GR", "RR", "SB", "SR"]  # Blue 2+3+6+2=13, Red 4+4+3+0=11
    assert seat_scores(order, Settings()) == [13, 11]
    assert decide_winner(order, Settings()) == (BLUE, "Blue has more points (13 to 11)")


@pytest.mark.parametrize(
    ("order", "winner"),
    [
        (["M", "FR", "GR", "FB", "GB", "RR", "SR", "RB", "SB"], BLUE),
        (["M", "FB", "GB", "FR", "GR", "RB", "SB", "RR", "SR"], RED),
    ],
)
def test_ladder_tied_on_points_the_player_whose_piece_finished_5th_wins(order, winner):
    assert seat_scores(order, Settings()) == [12, 12]
    seat, why = decide_winner(order, Settings())
    assert seat == winner and "finished 5th" in why


def test_ladder_with_the_default_points_a_tie_with_the_neutral_5th_always_goes_to_the_dmo():
    # Worked by hand: tied at 9 each with the neutral 5th, no player can hold 4th+6th (8 points plus two
    # places worth 1), 3rd+7th or 2nd+8th. Checked here over every way of colouring the other eight places.
    others = [0, 1, 2, 3, 5, 6, 7, 8]
    ties = 0
    for blue_places in combinations(others, 4):
        order = [""] * 9
        order[4] = "M"
        blues, reds = iter(["FB", "GB", "RB", "SB"]), iter(["FR", "GR", "RR", "SR"])
        for place in others:
            order[place] = next(blues) if place in blue_places else next(reds)
        if seat_scores(order, Settings())[0] == seat_scores(order, Settings())[1]:
            ties += 1
            assert decide_winner(order, Settings())[0] is None
    assert ties > 0


def test_ladder_neutral_5th_the_player_with_both_4th_and_6th_wins():
    flat = Settings(placement_points=(0,) * 9)
    order = ["FR", "GR", "RR", "FB", "M", "GB", "SR", "SB", "RB"]
    seat, why = decide_winner(order, flat)
    assert seat == BLUE and "4th and 6th" in why


def test_ladder_then_the_player_with_both_3rd_and_7th_wins():
    flat = Settings(placement_points=(0,) * 9)
    order = ["FB", "GB", "FR", "RB", "M", "GR", "RR", "SB", "SR"]
    seat, why = decide_winner(order, flat)
    assert seat == RED and "3rd and 7th" in why


def test_ladder_then_the_player_with_both_2nd_and_8th_wins():
    flat = Settings(placement_points=(0,) * 9)
    order = ["FB", "GR", "RB", "SB", "M", "FR", "RR", "SR", "GB"]
    seat, why = decide_winner(order, flat)
    assert seat == RED and "2nd and 8th" in why


def test_ladder_otherwise_the_dmo_wins_a_draw():
    flat = Settings(placement_points=(0,) * 9)
    order = ["FB", "GR", "RB", "SB", "M", "FR", "RR", "GB", "SR"]
    assert decide_winner(order, flat) == (
        None,
        "tied on points and no one holds a matching pair of places: the DMO wins (a draw)",
    )
    assert decide_winner(["FB", "GB", "RB", "SB", "M", "FR", "GR", "RR", "SR"], Settings())[0] is None


def test_a_game_ending_in_a_draw_is_recorded_as_the_dmo_winning():
    # Neutral not a colour (the setting), so the race ends as Blue's last piece crosses: Blue 0+2+3+4 = 9,
    # the neutral 5th, Red 4+3+2+0 = 9, and no matching pair of places.
    spaces = {"SB": 14, "M": 10, "FR": 9, "GR": 8, "RR": 7, "SR": 6}
    state = make(spaces, gone=("FB", "GB", "RB"), settings=Settings(neutral_is_a_colour=False))
    state, events = play(state, 2, "SB")
    assert state.result["order"] == ["FB", "GB", "RB", "SB", "M", "FR", "GR", "RR", "SR"]
    assert state.result["winner"] is None and state.result["draw"] is True
    assert "The DMO wins: a draw" in events[-1].text


def test_every_piece_is_listed_once_in_the_final_order():
    state = make({"SB": 14, "RR": 9, "SR": 12}, gone=("FB", "GB", "RB", "M", "FR", "GR"))
    state, _ = play(state, 2, "SB")
    assert sorted(state.result["order"]) == sorted(PIECES)
