"""A full 11-round game of 9 players through the public API, with every score worked out by hand."""

from __future__ import annotations

import json
import random

from games.horse_race.rules import (
    full_view,
    initial_state,
    public_view,
    resolve_elimination,
    resolve_round,
    seat_view,
    state_from_json,
    state_to_json,
    submit_ec_vote,
    validate_submission,
)
from games.platform.kit import Announce
from tests.horse_race.horse_race_support import table

ALL_ONE = {h: 1 for h in "ABCDEFGHI"}

# Round by round, what each seat submits (seats not named submit nothing).
SCRIPT = {
    0: {
        0: {"ability": {"kind": "clue", "use": {"A": 1}}},
        1: {"ability": {"kind": "utility", "select": "B"}},
    },
    # after Round 1: A-D on 4, E and I on 3, F-H on 2
    1: {0: {"space": 4}, 1: {"space": 3}, 2: {"space": 2}},
    # after Round 2: A-D on 7, E on 5, I on 4, F-H on 3
    2: {
        0: {"space": 7, "bets": {"A": 5}},
        1: {"space": 5, "bets": {"E": 2, "I": 3}},
        2: {"space": 3, "bets": {"F": 1}},
    },
    # after Round 3: A-D on 10
    3: {0: {"space": 10, "bets": {"D": 5}}, 1: {"bets": {"E": 5}}, 2: {"bets": {"H": 5}}},
    4: {0: {"bets": {"C": 5}}},
    # Round 10: seat 3 uses one card of each horse (9 x 1² points); seat 4 spectates space 15 (I ends there)
    10: {3: {"ability": {"kind": "utility", "use": ALL_ONE}}, 4: {"space": 15}},
}


def run_game():
    state = initial_state(table(), 9)
    everything = []
    for round_number in range(11):
        assert state.round == round_number
        submissions = {
            seat: validate_submission(state, seat, payload)
            for seat, payload in SCRIPT.get(round_number, {}).items()
        }
        state, events = resolve_round(state, submissions)
        everything.extend(events)
        state = state_from_json(json.loads(json.dumps(state_to_json(state))))
    return state, everything


def test_full_game_of_nine_players():
    state, events = run_game()
    assert state.over
    ending = state.ending
    # seat 0: spaces 4, 7, 10 showed A-D (4+4+4); bets A 5x2 + D 5x6 + C 5x8 = 80
    # seat 1: space 3 showed E, I (2), space 5 showed E (1); bets E 7x10 + I 3x7 = 91
    # seat 2: space 2 showed F-H (3), space 3 showed F-H (3); bets F 1x1 + H 5x3 = 16
    # seat 3: 9 points from Round 10's Utility; seat 4: space 15 after Round 10 showed I (1)
    assert ending.scores == [92, 94, 22, 9, 1, 0, 0, 0, 0]
    assert ending.bet_points[:3] == [80, 91, 16]
    assert ending.garnets == [3, 3, 0, 0, 0, 0, 0, 0, 0]
    assert ending.tols_won == [1, 2, 0, 0, 0, 0, 0, 0, 0]
    assert [p.chips for p in state.players[:3]] == [15, 20, 24]
    assert state.players[0].hand["A"] == 0 and state.players[1].hand["B"] == 2
    exits = [e.data["horse"] for e in events if isinstance(e, Announce) and "future_movement" in e.data]
    assert exits == ["A", "B", "D", "C", "E"]
    assert ending.ec_candidates == [5, 6, 7, 8] and ending.ec_voters == [0, 1]

    state, _ = submit_ec_vote(state, 0, 5)
    state, _ = submit_ec_vote(state, 1, 6)
    state, events = resolve_elimination(state, {0: 3, 1: 10}, random.Random(0))
    assert state.ending.elimination_candidate == 6
    assert events[0].text == "The Elimination Candidate is seat 6 (tied vote broken by the voters' garnets)."

    public = public_view(state)
    assert public["scores"] == [92, 94, 22, 9, 1, 0, 0, 0, 0] and public["movement"] == table()
    assert public["spectating"]["1"][:3] == [4, 3, 2] and public["pending"] == []
    assert full_view(state)["placements"]["A"] == 1
    json.dumps(seat_view(state, 4))


def test_views_hide_the_table_and_other_hands_until_the_end():
    state = initial_state(table(), 9)
    for round_number in range(6):
        submissions = {s: p for s, p in SCRIPT.get(round_number, {}).items()}
        state, _ = resolve_round(state, submissions)
    public = public_view(state)
    assert "movement" not in public and "players" not in public
    assert [e["horse"] for e in public["exits"]] == ["A", "B"]
    mine = seat_view(state, 0)
    assert mine["you"]["hand"]["A"] == 0 and "players" not in mine and "movement" not in mine
    assert mine["you"]["current_space"] is None and mine["abilities"]["clue"]["inputs"] == {"use": "cards"}
    assert full_view(state)["spaces"]["D"] == 15
