"""The race itself: the movement table, placements and their tie-breaks, exits, spectating and points."""

from __future__ import annotations

import random

import pytest

from games.horse_race.rules import (
    final_placements,
    generate_movement_table,
    initial_state,
    movement_table_problems,
    race_order,
    space_after,
    validate_movement_table,
)
from games.platform.kit import Announce, Ledger, Reveal, RulesError
from tests.horse_race.horse_race_support import FINAL, at_round, play, table


def test_generated_table_is_valid_and_replays_from_its_seed():
    first = generate_movement_table(random.Random(7))
    assert validate_movement_table(first) == first
    assert generate_movement_table(random.Random(7)) == first


def test_validate_movement_table_names_each_bad_cell():
    bad = table()
    bad["C"][3] = 4
    bad["G"] = bad["G"][:9]
    del bad["I"]
    problems = movement_table_problems(bad)
    assert problems == [
        "Horse C, Round 4: 4 is not 1, 2 or 3.",
        "Horse G, Round 10: missing (must be 1, 2 or 3).",
        "Horse I has no row.",
    ]
    with pytest.raises(RulesError) as error:
        validate_movement_table(bad)
    assert error.value.field == "movement" and "Horse C, Round 4" in error.value.message
    with pytest.raises(RulesError):
        initial_state(bad)


def test_initial_state_one_card_of_each_horse_and_30_chips():
    state = initial_state(table())
    assert len(state.players) == 9 and state.round == 0
    for player in state.players:
        assert player.hand == {h: 1 for h in "ABCDEFGHI"} and player.chips == 30


def test_same_round_finishers_place_by_distance_past_the_line_then_letter():
    # A and B both land on 16 in Round 5 (A first by letter); D lands on 18, C on 17 in Round 6 (D first)
    assert race_order(table())[:4] == ["A", "B", "D", "C"]


def test_horses_left_on_track_place_closest_to_the_line_first_then_letter():
    # after Round 10: I on 15, G and H on 12, F on 11
    assert race_order(table())[5:] == ["I", "G", "H", "F"]
    assert final_placements(table()) == FINAL


def test_earlier_finishers_place_ahead_of_later_ones_whatever_the_distance():
    moves = table()
    moves["F"] = [3, 3, 3, 3, 3, 1, 1, 1, 1, 1]  # F joins A and B on 16 in Round 5: A, B, F by letter
    moves["E"] = [2, 2, 2, 2, 2, 3, 3, 3, 3, 3]  # E: 11 after R5, 14 after R6, 17 in R7
    order = race_order(moves)
    assert order[:3] == ["A", "B", "F"] and order.index("E") == 5


def test_finished_horse_stays_on_the_first_space_past_15_it_landed_on():
    assert [space_after(table(), "A", r) for r in (4, 5, 6, 10)] == [13, 16, 16, 16]


def test_exit_is_announced_with_placement_and_every_later_movement_value():
    _, events = play(at_round(5))
    exits = [e for e in events if isinstance(e, Announce) and "future_movement" in e.data]
    assert [e.data["horse"] for e in exits] == ["A", "B"]
    assert exits[0].data == {
        "horse": "A",
        "round": 5,
        "placement": 1,
        "future_movement": {"6": 1, "7": 1, "8": 1, "9": 1, "10": 1},
    }
    assert exits[1].text == (
        "Horse B has finished the race in Round 5, placing 2nd. "
        "Its movement values for Rounds 6-10: 2, 2, 2, 2, 2."
    )


def test_spectated_space_shown_at_the_beginning_of_the_next_round_with_a_point_per_horse():
    state, events = play(at_round(4), {0: {"space": 13}, 1: {"space": 14}})
    # after Round 4, A B C D are on space 13; nobody on 14
    assert state.players[0].current_space == 13 and state.players[0].spectate_points == 4
    shown = [e for e in events if isinstance(e, Reveal) and e.seat == 0 and "horses" in e.data]
    assert shown[0].data == {"round": 4, "space": 13, "horses": ["A", "B", "C", "D"]}
    assert "Round 5 begins" in shown[0].text and "You score 4 points" in shown[0].text
    assert state.players[1].current_space == 14 and state.players[1].spectate_points == 0
    public = [e for e in events if isinstance(e, Announce) and "spectated" in e.data]
    assert public[0].data["spectated"] == {"0": 13, "1": 14, **{str(s): None for s in range(2, 9)}}
    points = [e for e in events if isinstance(e, Ledger) and e.what == "points"]
    assert [(e.seat, e.delta) for e in points] == [(0, 4)]


def test_bets_only_on_horses_in_the_current_space():
    state, _ = play(at_round(4), {0: {"space": 13}})
    state, _ = play(state, {0: {"bets": {"A": 2, "D": 3}}})
    assert state.players[0].bets[5] == {"A": 2, "D": 3} and state.players[0].chips == 25


def test_round0_has_no_spectating_by_default_so_round1_has_no_bets():
    state = at_round(0)
    with pytest.raises(RulesError) as error:
        from games.horse_race.rules import validate_submission

        validate_submission(state, 0, {"ability": None, "space": 1})
    assert error.value.field == "space"
    state, events = play(state, {0: {"space": 1}})
    assert state.players[0].current_space is None
    assert not [e for e in events if isinstance(e, Announce)]


def test_round0_spectating_setting():
    from dataclasses import replace

    state = at_round(0)
    state.settings = replace(state.settings, round0_spectating=True)
    state, _ = play(state, {0: {"space": 1}})
    assert state.players[0].current_space == 1 and state.players[0].spectate_points == 9


def test_round10_spectating_is_scored_when_the_race_ends():
    state, events = play(at_round(10), {0: {"space": 12}})
    # after Round 10: G and H on space 12
    assert state.players[0].spectate_points == 2 and state.ending.scores[0] == 2
    assert any("The race is over: on space 12" in e.text for e in events if isinstance(e, Reveal))


def test_round10_spectating_setting_off():
    from dataclasses import replace

    state = at_round(10)
    state.settings = replace(state.settings, final_spectate_scored=False)
    state, _ = play(state, {0: {"space": 12}})
    assert state.players[0].spectate_points == 0


def test_bets_score_by_final_placement_table():
    state = at_round(10)
    # A 1st (2), B 2nd (4), D 3rd (6), C 4th (8), E 5th (10), I 6th (7), G 7th (5), H 8th (3), F 9th (1)
    state.players[0].bets[3] = {"A": 1, "B": 1, "C": 1, "D": 1}
    state.players[0].bets[6] = {"E": 2, "I": 1}
    state.players[0].bets[8] = {"G": 1, "H": 1, "F": 1}
    state, _ = play(state)
    assert state.ending.bet_points[0] == 2 + 4 + 8 + 6 + 20 + 7 + 5 + 3 + 1


def test_game_never_ends_early_even_when_every_horse_has_finished():
    moves = {h: [3] * 10 for h in "ABCDEFGHI"}  # all exit in Round 5 on 16: placed A..I by letter
    state = initial_state(moves)
    for _ in range(10):
        state, _ = play(state)
        assert not state.over
    state, _ = play(state)
    assert state.over and race_order(moves) == list("ABCDEFGHI")


def test_settings_round_trip_and_refuse_unknown_or_bad_values():
    from games.horse_race.rules import Settings

    settings = Settings(round0_spectating=True, bet_points=(1, 2, 3, 4, 5, 6, 7, 8, 9))
    assert Settings.from_json(settings.to_json()) == settings
    with pytest.raises(RulesError) as error:
        Settings.from_json({"colour": "red"})
    assert error.value.field == "settings"
    with pytest.raises(RulesError):
        Settings.from_json({"bet_points": [1, 2]})


def test_purchase_refused_after_the_race():
    from games.horse_race.rules import purchase

    over, _ = play(at_round(10))
    with pytest.raises(RulesError):
        purchase(over, 0, "A")
