"""Every clarification and addendum of the rules text, one test each, named after it."""

from games.middle_marathon.rules import Settings, apply, new_game, parse_piece, pending

from .positions import BLUE, RED, choose, make, play


def test_you_refers_to_the_owner_of_the_piece_whose_ability_is_being_used():
    # Blue's Force moves Red's Gravity: the pull is Red's choice, during Blue's turn.
    state = make({"FB": 2, "GR": 6, "SB": 11, "SR": 4}, rest=None)
    state, _ = play(state, 3, "FB")
    state, _ = choose(state, "GR")
    waiting = pending(state)
    assert waiting["decision"] == "gravity" and waiting["seat"] == RED
    assert waiting["turn_seat"] == BLUE and waiting["off_turn"] is True
    assert waiting["options"] == ["FB", "SB", "SR"]


def test_moving_0_spaces_is_not_considered_movement():
    # A Gravity sent behind space 1 from space 1 stays put: it has not moved, so it pulls nothing.
    state = make({"GB": 1, "SR": 5}, reversed_={"GB": 2})
    state, _ = play(state, 2, "GB")
    assert state.positions["GB"] == 1 and pending(state)["kind"] == "turn"
    # A Reflect pushed from space 1 towards space 0 has not moved either: nothing is reflected.
    state = make({"GR": 4, "RB": 1, "SB": 9, "M": 9}, rest=None, to_move=RED)
    state, _ = play(state, 0, "GR")
    state, _ = choose(state, "RB")
    assert state.positions["RB"] == 1 and state.decisions[-1]["kind"] == "gravity"


def test_a_locked_piece_given_a_movement_card_has_not_moved():
    state = make({"GB": 5, "SR": 8}, locked={"GB": 2})
    state, _ = play(state, 3, "GB")
    assert state.positions["GB"] == 5 and pending(state)["kind"] == "turn"


def test_distance_moved_is_the_absolute_difference_of_locations_and_may_end_beyond_15():
    # Force on 14 with a 4 ends on 18: distance 4, so its companion moves 4.
    state = make({"FB": 14, "SR": 3})
    state, _ = play(state, 4, "FB")
    state, _ = choose(state, "SR")
    assert "FB" in state.finished and state.positions["SR"] == 7
    # Force on 2 reversed with a 4 stops on 1: distance 1, so its companion moves 1 backwards.
    state = make({"FB": 2, "SR": 9}, reversed_={"FB": 2})
    state, _ = play(state, 4, "FB")
    state, _ = choose(state, "SR")
    assert state.positions["FB"] == 1 and state.positions["SR"] == 8


def test_movement_discards_happen_at_the_same_time_from_cards_currently_in_hand():
    state = make({"M": 6}, hands=([0, 4], [0, 1, 2, 3, 4]))
    state, _ = play(state, 0, "M")
    assert pending(state)["options"] == [[], [4]]
    state, _ = choose(state, [4])
    assert state.hands[BLUE] == [0, 1, 2, 3, 4]


def test_0_as_the_final_card_on_movement_discards_from_a_hand_of_0_1_2_3_4():
    state = make({"M": 6}, hands=([0], [0, 1, 2, 3, 4]))
    state, _ = play(state, 0, "M")
    options = pending(state)["options"]
    assert len(options) == 1 + 5 + 10 and [0, 4] in options and [3] in options
    state, _ = choose(state, [0, 4])
    assert state.hands[BLUE] == [1, 2, 3]


def test_when_a_piece_is_swapped_it_is_not_considered_to_have_moved():
    state = make({"SB": 3, "GB": 9, "RB": 12, "FR": 10, "SR": 6}, rest=None)
    state, _ = play(state, 0, "SB")
    state, _ = choose(state, "GB")
    # Neither the Gravity nor anything else reacts: the turn is over.
    assert state.positions == {"SB": 9, "GB": 3, "RB": 12, "FR": 10, "SR": 6}
    assert pending(state)["kind"] == "turn" and pending(state)["seat"] == RED


def test_pieces_locked_by_force_can_still_be_swapped():
    state = make({"SB": 3, "GB": 9}, locked={"GB": 2})
    state, _ = play(state, 0, "SB")
    state, _ = choose(state, "GB")
    assert state.positions["SB"] == 9 and state.positions["GB"] == 3


def test_locked_pieces_may_still_have_movement_cards_and_movement_applied():
    state = make({"FB": 4, "SR": 6}, locked={"SR": 2})
    state, _ = play(state, 2, "FB")
    state, _ = choose(state, "SR")
    assert state.positions["FB"] == 6 and state.positions["SR"] == 6


def test_gravity_second_target_is_declared_and_resolved_after_the_full_resolution_of_the_first():
    # GB 6 -> 8. Blue pulls RR (10 -> 9); RR moved backwards, so Red reflects onto a piece behind 9 and
    # takes SR 7 -> 8. Only then is the second target declared: nothing is behind 8 any more (SR is level).
    state = make({"GB": 6, "RR": 10, "SR": 7}, rest=None)
    state, _ = play(state, 2, "GB")
    assert pending(state)["options"] == ["RR", "SR"]
    state, _ = choose(state, "RR")
    assert pending(state)["decision"] == "reflect" and pending(state)["seat"] == RED
    assert pending(state)["options"] == ["GB", "SR"]
    state, events = choose(state, "SR")
    assert state.positions == {"GB": 8, "RR": 9, "SR": 8}
    assert pending(state)["kind"] == "turn"
    assert "Gravity (blue)'s ability has no legal target and does nothing" in [e.text for e in events]


def test_gravity_ahead_and_behind_are_determined_at_the_current_location_of_the_piece():
    # GB 6 -> 8. Blue pulls RR (10 -> 9); Red reflects onto GB itself, 8 -> 9, which pulls again (GB's new
    # trigger resolves first). When the first trigger's second target is declared GB is on 9, so FR on 8
    # (not behind the old space 8) is now behind it.
    state = make({"GB": 6, "RR": 10, "FR": 8, "SR": 2}, rest=None)
    state, _ = play(state, 2, "GB")
    assert pending(state)["options"] == ["RR", "SR"]  # FR on 8 is level with GB: neither ahead nor behind
    state, _ = choose(state, "RR")
    state, _ = choose(state, "GB")  # Red: GB 8 -> 9
    # GB's new trigger: nothing ahead of 9 (RR level); behind 9 are FR (8) and SR (2).
    assert pending(state)["options"] == ["FR", "SR"]
    state, _ = choose(state, "SR")  # SR 2 -> 3; the new trigger's ahead part has no target
    # Back to the first trigger's part left, behind, judged at 9: FR and SR both qualify.
    assert pending(state)["options"] == ["FR", "SR"]
    state, _ = choose(state, "FR")
    assert state.positions == {"GB": 9, "RR": 9, "FR": 9, "SR": 3}


def test_force_and_reflect_statuses_last_until_the_end_of_their_owners_next_turn():
    # Red locks and reverses on turn 2; Red's next turn is turn 4, so both last through turn 4.
    state = make({"FR": 4, "RR": 6, "SB": 9, "GB": 9}, to_move=RED, turn=2, hands=([1, 2, 3], [0, 3, 4]))
    state, _ = play(state, 0, "FR")
    state, _ = choose(state, "SB")
    state, _ = play(state, 2, "SB")  # turn 3 Blue: locked
    assert state.positions["SB"] == 9 and state.locked_until == {"SB": 4}
    state.hands[RED] = [0, 3, 4]  # as if replenished
    state, _ = play(state, 0, "RR")  # turn 4 Red
    state, _ = choose(state, "GB")
    assert state.locked_until == {} and state.reversed_until == {"GB": 6}
    state, _ = play(state, 3, "SB")  # turn 5 Blue: free again
    assert state.positions["SB"] == 12


def test_when_resolving_multiple_parts_each_part_is_processed_individually():
    # Gravity's first part (pulling RB, which reflects) finishes before its second part is asked.
    state = make({"GR": 4, "RB": 8, "FB": 2, "SB": 1}, rest=None, to_move=RED)
    state, _ = play(state, 2, "GR")  # 4 -> 6
    state, _ = choose(state, "RB")  # 8 -> 7 backwards: Blue's reflection comes before GR's behind part
    assert pending(state)["decision"] == "reflect" and pending(state)["seat"] == BLUE
    state, _ = choose(state, "SB")  # 1 -> 2
    assert pending(state)["decision"] == "gravity" and pending(state)["options"] == ["FB", "SB"]


def test_addendum_pieces_are_named_by_kind_and_colour_first_letters_fine():
    assert parse_piece("FB") == "FB" and parse_piece("g r") == "GR" and parse_piece("Reflect (blue)") == "RB"
    assert parse_piece("M") == "M" and parse_piece("Movement") == "M"


def test_addendum_the_dmo_chooses_who_goes_first_and_blue_is_seat_0():
    assert pending(new_game(Settings(), 0))["seat"] == BLUE
    state = new_game(Settings(), 1)
    assert pending(state)["seat"] == RED
    state, events = apply(state, RED, {"type": "play", "card": 2, "piece": "SR"})
    assert events[0].text == "Red plays 2 on Swap (red): Swap (red) moves 1 -> 3"
