"""Each piece's ability alone, on hand-made positions worked out by hand."""

from games.middle_marathon.rules import pending

from .positions import BLUE, RED, choose, make, play, texts


def test_force_moves_the_chosen_piece_the_same_distance_at_the_same_time():
    state = make({"FB": 4, "SR": 6})
    state, events = play(state, 3, "FB")
    waiting = pending(state)
    assert waiting["decision"] == "force_companion" and waiting["seat"] == BLUE
    assert state.positions["FB"] == 4  # the Force waits for its companion: they move together
    assert set(waiting["options"]) == {"GB", "RB", "SB", "FR", "GR", "RR", "SR", "M"}
    state, events = choose(state, "SR")
    assert state.positions["FB"] == 7 and state.positions["SR"] == 9
    assert (
        "Blue chooses Swap (red) for Force (blue): Force (blue) moves 4 -> 7; Swap (red) moves 6 -> 9"
        in texts(events)
    )
    assert pending(state)["kind"] == "turn" and pending(state)["seat"] == RED


def test_force_reversed_takes_its_companion_backwards():
    state = make({"FB": 5, "SR": 6}, reversed_={"FB": 1})
    state, _ = play(state, 3, "FB")
    state, _ = choose(state, "SR")
    assert state.positions["FB"] == 2 and state.positions["SR"] == 3


def test_force_companion_that_is_reversed_goes_the_other_way():
    state = make({"FB": 4, "SR": 6}, reversed_={"SR": 2})
    state, _ = play(state, 2, "FB")
    state, _ = choose(state, "SR")
    assert state.positions["FB"] == 6 and state.positions["SR"] == 4


def test_force_locked_by_card_does_not_move_and_asks_nothing():
    state = make({"FB": 4}, locked={"FB": 2})
    state, events = play(state, 3, "FB")
    assert state.positions["FB"] == 4
    assert pending(state)["kind"] == "turn" and pending(state)["seat"] == RED
    assert "does not move from 4 (locked)" in texts(events)[0]


def test_force_with_one_other_piece_left_takes_it_without_asking():
    state = make({"FB": 4, "M": 10}, rest=None)
    state, events = play(state, 2, "FB")
    assert state.positions == {"FB": 6, "M": 12}
    assert state.decisions[-1]["forced"] is True
    assert any("(forced)" in text for text in texts(events))


def test_force_zero_locks_a_piece_until_the_end_of_its_owners_next_turn():
    state = make({"FB": 4, "SR": 6})
    state, _ = play(state, 0, "FB")
    assert pending(state)["decision"] == "force_lock"
    state, _ = choose(state, "SR")
    assert state.locked_until == {"SR": 3}
    state, _ = play(state, 2, "SR")  # turn 2, Red: the card is used, the piece stays
    assert state.positions["SR"] == 6 and 2 not in state.hands[RED]
    state, _ = play(state, 1, "SB")  # turn 3, Blue's next turn: the lock ends when it ends
    assert state.locked_until == {}
    state, _ = play(state, 3, "SR")  # turn 4
    assert state.positions["SR"] == 9


def test_gravity_pulls_one_ahead_and_one_behind_one_space_towards_it():
    state = make({"GB": 6, "SR": 12, "FR": 3, "M": 14}, rest=None)
    state, _ = play(state, 2, "GB")
    waiting = pending(state)
    assert waiting["decision"] == "gravity" and waiting["options"] == ["FR", "SR", "M"]
    state, _ = choose(state, "SR")
    # Only FR is behind: the second part is forced.
    assert state.positions == {"GB": 8, "SR": 11, "FR": 4, "M": 14}
    assert state.decisions[-1] == {
        "turn": 1,
        "seat": BLUE,
        "kind": "gravity",
        "piece": "GB",
        "choice": "FR",
        "forced": True,
    }


def test_gravity_zero_pushes_one_ahead_and_one_behind_away():
    state = make({"GB": 8, "SR": 12, "FR": 3, "M": 15}, rest=None)
    state, _ = play(state, 0, "GB")
    assert pending(state)["options"] == ["FR", "SR", "M"]
    state, events = choose(state, "M")
    assert "M" not in state.positions and state.finished[-1] == "M"
    assert state.positions == {"GB": 8, "SR": 12, "FR": 2}


def test_gravity_push_at_space_one_stays_on_space_one():
    state = make({"GB": 8, "SR": 12, "FR": 1}, rest=None)
    state, _ = play(state, 0, "GB")
    state, _ = choose(state, "SR")
    assert state.positions == {"GB": 8, "SR": 13, "FR": 1}


def test_gravity_with_no_piece_ahead_or_behind_does_nothing():
    state = make({"GB": 5, "SR": 7}, rest=None)
    state, events = play(state, 2, "GB")
    assert state.positions == {"GB": 7, "SR": 7}  # level is neither ahead nor behind
    assert "Gravity (blue)'s ability has no legal target and does nothing" in texts(events)


def test_reflect_moved_by_a_card_does_not_reflect():
    state = make({"RB": 5, "SR": 9})
    state, _ = play(state, 2, "RB")
    assert state.positions["RB"] == 7 and pending(state)["kind"] == "turn"


def test_reflect_moved_forwards_sends_a_piece_ahead_back_the_same_distance():
    state = make({"FB": 3, "RB": 5, "SR": 10, "FR": 2}, rest=None)
    state, _ = play(state, 2, "FB")
    state, _ = choose(state, "RB")  # RB 5 -> 7: only SR is ahead of 7
    assert state.positions == {"FB": 5, "RB": 7, "SR": 8, "FR": 2}
    assert state.decisions[-1]["kind"] == "reflect" and state.decisions[-1]["forced"] is True


def test_reflect_moved_backwards_sends_a_piece_behind_forwards():
    state = make({"GR": 2, "RB": 6, "FB": 3, "SR": 1}, rest=None, to_move=RED)
    state, _ = play(state, 2, "GR")  # GR 2 -> 4
    state, _ = choose(state, "RB")  # RB 6 -> 5, backwards: Blue picks behind 5
    assert pending(state)["seat"] == BLUE and pending(state)["options"] == ["FB", "GR", "SR"]
    state, _ = choose(state, "FB")
    # FB is now level with GR, so the Gravity's second part (behind 4) can only take SR: forced.
    assert state.positions == {"GR": 4, "RB": 5, "FB": 4, "SR": 2}
    assert state.decisions[-1]["forced"] is True


def test_reflect_zero_reverses_a_piece_until_the_end_of_its_owners_next_turn():
    state = make({"RB": 5, "SR": 10}, turn=5)
    state, _ = play(state, 0, "RB")
    state, _ = choose(state, "SR")
    assert state.reversed_until == {"SR": 7}
    state, _ = play(state, 3, "SR")
    assert state.positions["SR"] == 7


def test_swap_zero_swaps_with_another_piece_of_your_colour():
    state = make({"SB": 3, "GB": 9, "FR": 12})
    state, _ = play(state, 0, "SB")
    assert pending(state)["options"] == ["FB", "GB", "RB"]
    state, _ = choose(state, "GB")
    assert state.positions["SB"] == 9 and state.positions["GB"] == 3


def test_swap_with_no_other_piece_of_its_colour_does_nothing():
    state = make({"SB": 3, "FR": 12, "M": 4}, rest=None)
    state, events = play(state, 0, "SB")
    assert state.positions["SB"] == 3 and pending(state)["seat"] == RED


def test_movement_goes_backwards_on_an_odd_card_and_forwards_on_an_even_one():
    state = make({"M": 6})
    state, _ = play(state, 3, "M")
    assert state.positions["M"] == 3
    state, _ = play(state, 4, "M")
    assert state.positions["M"] == 7
    state, _ = play(state, 1, "M")
    assert state.positions["M"] == 6


def test_movement_backwards_stops_at_space_one():
    state = make({"M": 2})
    state, events = play(state, 3, "M")
    assert state.positions["M"] == 1


def test_movement_reversed_goes_forwards_on_an_odd_card():
    state = make({"M": 6}, reversed_={"M": 2})
    state, _ = play(state, 3, "M")
    assert state.positions["M"] == 9


def test_movement_zero_discards_up_to_two_cards_of_the_player_who_used_it():
    state = make({"M": 6}, to_move=RED, hands=([0, 1, 2, 3, 4], [0, 2, 3]))
    state, _ = play(state, 0, "M")
    waiting = pending(state)
    assert waiting["seat"] == RED and waiting["options"] == [[], [2], [3], [2, 3]]
    state, events = choose(state, [3, 2])
    assert state.hands[RED] == [0, 1, 2, 3, 4]  # emptied by the discard, so replenished
    assert "Red discards the 2 and 3" in texts(events)


def test_movement_zero_may_discard_nothing():
    state = make({"M": 6}, hands=([0, 2, 3], [0, 1, 2, 3, 4]))
    state, _ = play(state, 0, "M")
    state, _ = choose(state, [])
    assert state.hands[BLUE] == [2, 3]


def test_a_piece_off_the_board_cannot_use_its_ability():
    # Red's Force carries Red's Gravity over the line: a finished Gravity pulls nothing.
    state = make({"FR": 5, "GR": 13, "SB": 10}, to_move=RED)
    state, _ = play(state, 4, "FR")
    state, _ = choose(state, "GR")
    assert state.finished == ["GR"] and state.positions["FR"] == 9
    assert pending(state)["kind"] == "turn" and pending(state)["seat"] == BLUE


def test_setting_zero_may_not_target_itself():
    from games.middle_marathon.rules import Settings

    state = make({"FB": 4, "RB": 5})
    state, _ = play(state, 0, "FB")
    assert "FB" in pending(state)["options"]
    state = make({"FB": 4, "RB": 5}, settings=Settings(zero_may_target_itself=False))
    state, _ = play(state, 0, "FB")
    assert "FB" not in pending(state)["options"]
    state = make({"FB": 4, "RB": 5}, settings=Settings(zero_may_target_itself=False))
    state, _ = play(state, 0, "RB")
    assert "RB" not in pending(state)["options"] and "FB" in pending(state)["options"]


def test_a_status_put_on_again_lasts_until_the_later_end_and_does_not_double_reverse():
    state = make({"RB": 5, "SR": 10}, reversed_={"SR": 3}, turn=3)
    state, _ = play(state, 0, "RB")
    state, _ = choose(state, "SR")
    assert state.reversed_until == {"SR": 5}
    state, _ = play(state, 2, "SR")
    assert state.positions["SR"] == 8  # reversed once, not twice
