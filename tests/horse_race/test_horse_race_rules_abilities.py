"""Every round's Clue and Utility against the hand-made table of horse_race_support (answers by hand)."""

from __future__ import annotations

import pytest

from games.horse_race.rules import validate_submission
from games.platform.kit import Ledger, Reveal, RulesError
from tests.horse_race.horse_race_support import at_round, play


def reveal(events, seat=0) -> Reveal:
    found = [e for e in events if isinstance(e, Reveal) and e.seat == seat and "kind" in e.data]
    assert len(found) == 1, found
    return found[0]


def test_round0_clue_movement_for_rounds_1_and_2():
    state, events = play(at_round(0), {0: {"ability": {"kind": "clue", "use": {"A": 1, "I": 1}}}})
    result = reveal(events)
    assert result.data["movement"] == {"A": {"1": 3, "2": 3}, "I": {"1": 2, "2": 1}}
    assert "A moves 3 in Round 1 and 3 in Round 2" in result.text
    assert state.players[0].hand["A"] == 0 and state.players[0].hand["I"] == 0


def test_round0_utility_gains_a_copy_of_the_selected_card():
    state, _ = play(at_round(0), {0: {"ability": {"kind": "utility", "select": "C"}}})
    assert state.players[0].hand["C"] == 2 and sum(state.players[0].hand.values()) == 10


def test_round1_clue_three_separate_sums():
    payload = {"ability": {"kind": "clue", "select": ["A", "E", "I"], "use": {"I": 1}}}
    state, events = play(at_round(1), {0: payload})
    # Round 2: A3+E2+I1 = 6; Round 3: 3+2+2 = 7; Round 4: 3+2+3 = 8
    assert reveal(events).data["sums"] == {"2": 6, "3": 7, "4": 8}
    assert state.players[0].hand == {**{h: 1 for h in "ABCDEFGH"}, "I": 0}


def test_round1_clue_used_card_must_be_selected():
    with pytest.raises(RulesError) as error:
        validate_submission(at_round(1), 0, {"ability": {"kind": "clue", "select": ["A"], "use": {"B": 1}}})
    assert error.value.field == "use"


def test_round1_utility_one_new_card_per_discard_never_two_alike():
    payload = {"ability": {"kind": "utility", "use": {"A": 1, "B": 1}, "gain": ["C", "D"]}}
    state, _ = play(at_round(1), {0: payload})
    assert state.players[0].hand == {"A": 0, "B": 0, "C": 2, "D": 2, "E": 1, "F": 1, "G": 1, "H": 1, "I": 1}
    for gain in (["C", "C"], ["C"]):
        with pytest.raises(RulesError) as error:
            bad = {"ability": {"kind": "utility", "use": {"A": 1, "B": 1}, "gain": gain}}
            validate_submission(at_round(1), 0, bad)
        assert error.value.field == "gain"


def test_round2_clue_two_lists_per_card():
    state, events = play(at_round(2), {0: {"ability": {"kind": "clue", "use": {"A": 1, "F": 1}}}})
    # Round 3 values A3 B3 C3 D3 E2 F1 G1 H1 I2; Round 4 values A3 B3 C3 D3 E2 F1 G1 H1 I3
    assert reveal(events).data["lists"] == {
        "A": {"3": ["E", "I"], "4": ["E"]},
        "F": {"3": ["E", "I"], "4": ["E"]},
    }


def test_round2_utility_raises_the_limit_from_the_current_round():
    state = at_round(2)
    state.players[0].current_space = 4  # after Round 1: A, B, C, D on space 4
    payload = {
        "ability": {"kind": "utility", "use": {"E": 1, "F": 1, "G": 1, "H": 1, "I": 1}},
        "bets": {"A": 7},
    }
    assert validate_submission(state, 0, payload)["bets"] == {"A": 7}  # 5 cards: +2 (rounded down)
    after, _ = play(state, {0: payload})
    assert after.players[0].bet_bonus == 2 and after.players[0].bets[2] == {"A": 7}
    assert after.players[0].chips == 23


def test_round3_clue_spaces_at_end_of_round4_and_with_two_copies_round5():
    state, events = play(
        at_round(3, seat0={"C": 2, "E": 1, "A": 2}),
        {0: {"ability": {"kind": "clue", "use": {"C": 2, "E": 1}}}},
    )
    result = reveal(events)
    assert result.data["spaces"] == {"4": {"C": 13, "E": 9}, "5": {"C": 14}}
    assert "at the end of Round 4, C is on space 13 and E is on space 9" in result.text
    state, events = play(at_round(3, seat0={"A": 2}), {0: {"ability": {"kind": "clue", "use": {"A": 2}}}})
    assert reveal(events).data["spaces"] == {"4": {"A": 13}, "5": {"A": 16}}
    assert "A has finished (counted on space 16)" in reveal(events).text


def test_round3_utility_reports_at_the_ends_of_rounds_3_4_and_5():
    state = at_round(3)
    state.players[1].current_space = 7  # after Round 2: A, B, C, D on space 7
    state.players[2].current_space = 7
    subs = {
        0: {"ability": {"kind": "utility", "select": ["A", "E"]}},
        1: {"bets": {"A": 2}, "space": 10},
        2: {"bets": {"A": 1, "B": 1}, "space": 5},
    }
    state, events = play(state, subs)
    assert state.reports[0].rounds == [4, 5]
    report = [e for e in events if isinstance(e, Reveal) and e.seat == 0 and "totals" in e.data]
    assert report[0].data == {"round": 3, "totals": {"A": 3, "E": 0}}
    state, events = play(state, {1: {"bets": {"A": 1}, "space": 13}})  # round 4: A on 10 for seat 1
    report = [e for e in events if isinstance(e, Reveal) and e.seat == 0 and "totals" in e.data]
    assert report[0].data == {"round": 4, "totals": {"A": 1, "E": 0}}
    state, events = play(state, {1: {"bets": {"A": 3}}})  # round 5: A on 13 for seat 1
    report = [e for e in events if isinstance(e, Reveal) and e.seat == 0 and "totals" in e.data]
    assert report[0].data == {"round": 5, "totals": {"A": 3, "E": 0}}
    assert state.reports == []
    state, events = play(state, {})
    assert not [e for e in events if isinstance(e, Reveal) and "totals" in e.data]


def test_round3_utility_selects_at_most_three():
    with pytest.raises(RulesError) as error:
        validate_submission(at_round(3), 0, {"ability": {"kind": "utility", "select": ["A", "B", "C", "D"]}})
    assert error.value.field == "select"


def test_round4_clue_horses_moving_the_same_in_round5():
    state, events = play(at_round(4), {0: {"ability": {"kind": "clue", "use": {"A": 1, "C": 1}}}})
    # Round 5 values A3 B3 C1 D2 E2 F1 G1 H1 I1
    assert reveal(events).data["same"] == {"A": ["B"], "C": ["F", "G", "H", "I"]}


def test_round4_utility_select_3_use_1_end_with_5():
    state, events = play(
        at_round(4, seat0={"B": 3}), {0: {"ability": {"kind": "utility", "select": {"B": 3}}}}
    )
    assert state.players[0].hand["B"] == 5
    ledgers = [(e.delta, e.item) for e in events if isinstance(e, Ledger) and e.what == "cards"]
    assert ledgers == [(-1, "B"), (3, "B")]


def test_round4_utility_only_identical_cards_and_only_those_held():
    for select in ({"B": 1, "C": 1}, {"B": 2}):
        with pytest.raises(RulesError) as error:
            validate_submission(at_round(4), 0, {"ability": {"kind": "utility", "select": select}})
        assert error.value.field == "select"


def test_round5_clue_placements_at_end_of_rounds_5_and_6_ties_share_highest_rank():
    state, events = play(
        at_round(5), {0: {"ability": {"kind": "clue", "use": {"C": 1, "D": 1, "F": 1, "H": 1}}}}
    )
    data = reveal(events).data["placements"]
    # End of R5: A, B finished (1st, 2nd), D 15, C 14, E 11, I 10, F G H 6 (7th together)
    assert data["5"] == {"C": 4, "D": 3, "F": 7, "H": 7}
    assert data["6"] == {"C": 4, "D": 3, "F": 7, "H": 7}


def test_round5_clue_ranking_by_space_alone_setting():
    from dataclasses import replace

    state = at_round(5)
    state.settings = replace(state.settings, standings_keep_finish_order=False)
    _, events = play(state, {0: {"ability": {"kind": "clue", "use": {"A": 1, "B": 1}}}})
    assert reveal(events).data["placements"]["5"] == {"A": 1, "B": 1}  # both on space 16


def test_round5_utility_guesses_per_copy_against_spaces_after_movement():
    # after Round 5: A16 B16 D15 C14 E11 I10 F G H 6 -> 3 horses ahead of C, 6 ahead of F, 0 ahead of A
    payload = {"ability": {"kind": "utility", "guesses": {"C": [2, 3], "F": [6], "A": [0]}}}
    state, events = play(at_round(5, seat0={"C": 2, "F": 1, "A": 1}), {0: payload})
    assert state.players[0].hand == {**{h: 0 for h in "ABCDEFGHI"}, "C": 3, "F": 3, "A": 3}
    assert reveal(events).data["correct"] == {"A": [True], "C": [False, True], "F": [True]}


def test_round5_utility_at_most_two_copies_of_a_card():
    with pytest.raises(RulesError) as error:
        validate_submission(
            at_round(5, seat0={"C": 3}), 0, {"ability": {"kind": "utility", "guesses": {"C": [1, 2, 3]}}}
        )
    assert error.value.field == "guesses"


def test_round6_clue_n_copies_give_n_rounds_from_round7():
    payload = {"ability": {"kind": "clue", "use": {"D": 3, "A": 1}}}
    state, events = play(at_round(6, seat0={"D": 3, "A": 1}), {0: payload})
    assert reveal(events).data["movement"] == {"A": {"7": 1}, "D": {"7": 1, "8": 2, "9": 3}}
    _, events = play(at_round(6, seat0={"D": 6}), {0: {"ability": {"kind": "clue", "use": {"D": 6}}}})
    assert reveal(events).data["movement"] == {"D": {"7": 1, "8": 2, "9": 3, "10": 1}}  # no Round 11


def test_round6_utility_pairs_show_who_bet_how_much_this_round():
    state = at_round(6, seat0={"E": 2, "F": 1})
    state.players[3].current_space = state.players[5].current_space = 11  # end of Round 5: E on 11
    subs = {
        0: {"ability": {"kind": "utility", "use": {"E": 2, "F": 1}}},
        3: {"bets": {"E": 4}},
        5: {"bets": {"E": 1}},
    }
    _, events = play(state, subs)
    assert reveal(events).data["bets"] == {"E": {"3": 4, "5": 1}}
    assert "seat 3 bet 4 chips and seat 5 bet 1 chip" in reveal(events).text


def test_round7_clue_n_from_chips_bet_in_rounds_1_to_7_over_5_rounded_up():
    state = at_round(7)
    state.players[0].bets[1] = {"D": 3}
    state.players[0].bets[2] = {"D": 3}
    state.players[0].bets[4] = {"E": 5}
    state.players[0].current_space = 11  # end of Round 6: I on space 11
    payload = {"ability": {"kind": "clue", "use": {"D": 1, "E": 1, "I": 1, "A": 1}}, "bets": {"I": 1}}
    _, events = play(state, {0: payload})
    movement = reveal(events).data["movement"]
    # D: 6 chips -> 2 rounds (R8 2, R9 3); E: 5 chips -> 1 round; I: 1 chip this round -> 1; A: none
    assert movement == {"D": {"8": 2, "9": 3}, "E": {"8": 2}, "I": {"8": 1}, "A": {}}
    assert "you bet no chips on A in Rounds 1-7" in reveal(events).text


def test_round7_utility_distinct_cards_give_that_many_of_one_card():
    state, _ = play(
        at_round(7), {0: {"ability": {"kind": "utility", "use": {"A": 1, "B": 1, "C": 1}, "gain": "E"}}}
    )
    assert state.players[0].hand["E"] == 4 and state.players[0].hand["A"] == 0
    with pytest.raises(RulesError):
        validate_submission(
            at_round(7, seat0={"A": 2}), 0, {"ability": {"kind": "utility", "use": {"A": 2}, "gain": "E"}}
        )


def test_round8_clue_selects_half_rounded_down():
    payload = {
        "ability": {"kind": "clue", "use": {"A": 1, "D": 2, "E": 1, "F": 1}, "select": {"D": 1, "E": 1}}
    }
    state, events = play(at_round(8, seat0={"A": 1, "D": 2, "E": 1, "F": 1}), {0: payload})
    assert reveal(events).data["movement"] == {"D": {"9": 3}, "E": {"9": 2}}
    assert sum(state.players[0].hand.values()) == 0
    bad = {"ability": {"kind": "clue", "use": {"A": 1, "D": 2}, "select": {"D": 2}}}
    with pytest.raises(RulesError) as error:
        validate_submission(at_round(8, seat0={"A": 1, "D": 2}), 0, bad)
    assert error.value.field == "select"


def test_round8_utility_one_more_chip_per_distinct_card_including_this_round():
    state = at_round(8)
    state.players[0].current_space = 8  # after Round 7: F, G and H on space 8
    payload = {"ability": {"kind": "utility", "use": {"A": 1, "B": 1, "C": 1}}, "bets": {"F": 4, "G": 4}}
    after, _ = play(state, {0: payload})
    assert after.players[0].bet_bonus == 3 and after.players[0].chips == 22


def test_round9_clue_movement_for_round10():
    _, events = play(at_round(9), {0: {"ability": {"kind": "clue", "use": {"G": 1, "I": 1}}}})
    assert reveal(events).data["movement"] == {"G": {"10": 2}, "I": {"10": 1}}


def test_round9_utility_chips_usable_this_round():
    state = at_round(9, seat0={"A": 3})
    state.players[0].chips = 0
    state.players[0].current_space = 9  # after Round 8: F, G, H on space 9
    payload = {"ability": {"kind": "utility", "use": {"A": 3}}, "bets": {"F": 3}}
    assert validate_submission(state, 0, payload)["bets"] == {"F": 3}  # 0 chips held + 3 gained now
    after, _ = play(state, {0: payload})
    assert after.players[0].chips == 0 and after.players[0].bets[9] == {"F": 3}


def test_round9_utility_chips_also_raise_this_rounds_limit():
    state = at_round(9, seat0={"A": 3})
    state.players[0].current_space = 9
    payload = {"ability": {"kind": "utility", "use": {"A": 3}}, "bets": {"F": 4, "G": 4}}
    after, _ = play(state, {0: payload})
    assert after.players[0].chips == 30 + 3 - 8 and after.players[0].bets[9] == {"F": 4, "G": 4}
    with pytest.raises(RulesError) as error:
        validate_submission(state, 0, {**payload, "bets": {"F": 5, "G": 4}})
    assert error.value.field == "bets"


def test_round10_clue_three_copies_show_all_ten_rounds():
    _, events = play(
        at_round(10, seat0={"D": 3, "A": 2}), {0: {"ability": {"kind": "clue", "use": {"D": 3, "A": 2}}}}
    )
    assert reveal(events).data["movement"] == {
        "D": {str(r): v for r, v in enumerate([3, 3, 3, 3, 2, 3, 1, 2, 3, 1], 1)}
    }


def test_round10_utility_n_squared_points_per_card_type_capped_at_20():
    state, events = play(
        at_round(10, seat0={"A": 5, "B": 2, "C": 1}),
        {0: {"ability": {"kind": "utility", "use": {"A": 5, "B": 2, "C": 1}}}},
    )
    assert reveal(events).data["points"] == {"A": 20, "B": 4, "C": 1}
    assert state.players[0].utility_points == 25
    assert state.ending.scores[0] == 25
