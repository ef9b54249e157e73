"""The host-run rules: the design's snapshot, the views of it, and a sent resolution applied to the state."""

from __future__ import annotations

import pytest

from games.host_run.rules import apply_resolution, new_game, public_view, round_fields, seat_view
from games.host_run.rules.state import has_round, opens_by_hand, window_of
from games.platform.kit import Announce, Ledger, Reveal, RulesError, seat_ref

BID = {
    "key": "bid",
    "kind": "number",
    "label": "Bid",
    "help": "",
    "required": True,
    "minimum": 0,
    "maximum": 9,
}
PICK = {"key": "pick", "kind": "player", "label": "Pick", "help": "", "required": True}


def fresh(**over):
    snapshot = {
        "rounds": 2,
        "window": {"amount": 24, "unit": "hours"},
        "opened_by_hand": False,
        "plans": {
            "2": {"title": "The auction", "window": {"amount": 30, "unit": "minutes"}, "opens": "by_hand"}
        },
        "forms": {"game": [BID], "2": [PICK]},
        "rules": "# Rules",
        "columns": ["Role"],
        "private": {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}},
        "board": "start",
        "scoreboard_public": True,
        "notes": "secret",
        "seats": [0, 1, 2],
    }
    snapshot.update(over)
    return new_game(snapshot)


def test_the_snapshot_gives_every_seat_every_column_and_no_points():
    state = fresh()
    assert state["private"] == {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}, "2": {"Role": ""}}
    assert state["scores"] == {"0": 0, "1": 0, "2": 0}
    assert state["resolved"] == 0 and state["final"] is None
    assert round_fields(state, 1) == [BID] and round_fields(state, 2) == [PICK]
    assert window_of(state, 1) == (24, "hours") and window_of(state, 2) == (30, "minutes")
    assert not opens_by_hand(state, 1) and opens_by_hand(state, 2)
    assert has_round(state, 2) and not has_round(state, 3)
    assert has_round(fresh(rounds=None), 99)


def test_views_hide_private_values_notes_and_hidden_scores():
    state = fresh(scoreboard_public=False)
    public = public_view(state)
    assert "private" not in public and "notes" not in public and "scores" not in public
    mine = seat_view(state, 1)
    assert mine["mine"] == {"Role": "Guard"} and mine["my_score"] == 0 and "private" not in mine
    assert "scores" in public_view(fresh())


def test_a_resolution_announces_tells_each_seat_and_moves_points_values_and_board():
    state, events = apply_resolution(
        fresh(),
        {
            "round": 1,
            "public_text": "Ann bid highest.",
            "board": "after round 1",
            "seats": {
                0: {"private_text": "You won the key.", "points": 3, "private_values": {"Role": "Thief"}},
                1: {"private_text": "", "points": -1},
                2: {"points": 0},
            },
        },
    )
    assert events[0] == Announce("Round 1 results:\n\nAnn bid highest.")
    assert Reveal(0, "You won the key.", {"round": 1}) in events
    assert not any(isinstance(e, Reveal) and e.seat == 1 for e in events)
    assert [e for e in events if isinstance(e, Ledger)] == [
        Ledger(0, "points", 3, "Round 1"),
        Ledger(1, "points", -1, "Round 1"),
    ]
    assert state["scores"] == {"0": 3, "1": -1, "2": 0}
    assert state["private"]["0"] == {"Role": "Thief"} and state["private"]["1"] == {"Role": "Guard"}
    assert state["board"] == "after round 1"
    assert state["results"] == [{"round": 1, "title": "", "public": "Ann bid highest."}]
    assert state["resolved"] == 1 and state["final"] is None


def test_the_last_round_ends_the_game_with_garnets_tokens_and_the_candidate():
    state, _ = apply_resolution(fresh(), {"round": 1, "seats": {}})
    state, events = apply_resolution(
        state,
        {
            "round": 2,
            "game_name": "The Vault",
            "public_text": "",
            "candidate": 2,
            "tie_note": "Seat 2 and 3 tied; the earlier bid stays.",
            "seats": {
                0: {"winner": True, "rank": 1, "garnets": 2, "tokens_of_life": 1},
                1: {"rank": 2, "garnets": 1},
                2: {"rank": 3},
            },
        },
    )
    assert events[0] == Announce("Round 2 (The auction) is resolved.")
    assert Ledger(0, "garnets", 2, "Won The Vault") in events
    assert Ledger(0, "tokens_of_life", 1, "Won The Vault") in events
    assert Ledger(1, "garnets", 1, "Rank 2 in The Vault") in events
    end = events[-1]
    assert isinstance(end, Announce) and f"Elimination Candidate: {seat_ref(2)}" in end.text
    assert "earlier bid stays" in end.text and f"Won by {seat_ref(0)}" in end.text
    assert state["final"] == {
        "candidate": 2,
        "winners": [0],
        "ranking": {"0": 1, "1": 2, "2": 3},
        "tie_note": "Seat 2 and 3 tied; the earlier bid stays.",
    }
    assert public_view(state)["private"]  # the end reveals everything
    with pytest.raises(RulesError, match="over"):
        apply_resolution(state, {"round": 3})


def test_an_open_ended_game_ends_only_when_the_hosts_say_so():
    state = fresh(rounds=None, death_match=True)
    state, _ = apply_resolution(state, {"round": 1, "seats": {}})
    assert state["final"] is None
    state, events = apply_resolution(state, {"round": 2, "ends_game": True, "candidate": 1, "seats": {}})
    assert state["final"]["candidate"] == 1 and f"The loser: {seat_ref(1)}" in events[-1].text


@pytest.mark.parametrize(
    "resolution, message",
    [
        ({"round": 2}, "Round 1 is next"),
        ({"round": 1, "seats": {7: {}}}, "Seat 8 is not in this game"),
        ({"round": 1, "seats": {0: {"points": "3"}}}, "whole number"),
        ({"round": 1, "seats": {0: {"private_values": {"Hand": "x"}}}}, "Hand is not one of"),
        ({"round": 1, "ends_game": True, "candidate": 9}, "Seat 10 is not in this game"),
    ],
)
def test_a_resolution_that_does_not_fit_the_game_is_refused(resolution, message):
    with pytest.raises(RulesError, match=message):
        apply_resolution(fresh(), resolution)
