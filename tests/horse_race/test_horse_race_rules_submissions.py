"""Submissions: the strict check on saving, and the rules' consequences when an invalid one is resolved."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.horse_race.rules import purchase, purchase_cost, settle_submission, trade, validate_submission
from games.platform.kit import Ledger, Reveal, RulesError
from tests.horse_race.horse_race_support import at_round, play


def ready(round_number: int = 5):
    """Round 5 open, seat 0's current space 13 (A, B, C, D after Round 4)."""
    state = at_round(round_number)
    state.players[0].current_space = 13
    return state


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"ability": {"kind": "hint"}}, "ability"),
        ({"ability": {"kind": "clue"}}, "use"),
        ({"ability": {"kind": "clue", "use": {"Z": 1}}}, "use"),
        ({"ability": {"kind": "clue", "use": {"A": 2}}}, "use"),
        ({"ability": {"kind": "clue", "use": {"A": 1}, "gain": "B"}}, "gain"),
        ({"space": 16}, "space"),
        ({"space": "nine"}, "space"),
        ({"bets": {"E": 1}}, "bets"),
        ({"bets": {"A": -1}}, "bets"),
        ({"bets": {"A": 6}}, "bets"),
        ({"bets": {"A": 3, "B": 3}}, "bets"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_validate_submission_names_the_field(payload, field):
    with pytest.raises(RulesError) as error:
        validate_submission(ready(), 0, payload)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("round_number", "ability", "said"),
    [
        (5, {"kind": "clue"}, "Choose the cards to use for this round's Clue."),
        (0, {"kind": "utility"}, "Choose the card to select for this round's Utility."),
        (3, {"kind": "utility"}, "Choose the cards to select for this round's Utility."),
    ],
)
def test_a_missing_ability_input_is_asked_for_in_words(round_number, ability, said):
    with pytest.raises(RulesError) as error:
        validate_submission(ready(round_number), 0, {"ability": ability})
    assert error.value.message == said


def test_validate_submission_cleans_a_good_one():
    payload = {
        "ability": {"kind": "clue", "use": {"a": 1, "C": 0}},
        "space": "12",
        "bets": {"A": 2, "d": "3"},
    }
    assert validate_submission(ready(), 0, payload) == {
        "ability": {"kind": "clue", "use": {"A": 1}},
        "space": 12,
        "bets": {"A": 2, "D": 3},
    }


def test_betting_more_than_the_limit_invalidates_the_entire_submission():
    payload = {"ability": {"kind": "clue", "use": {"A": 1}}, "space": 12, "bets": {"A": 3, "B": 3}}
    settled = settle_submission(ready(), 0, payload)
    assert settled.ability is None and settled.space is None and settled.bets == {}
    state, events = play(ready(), {0: payload})
    player = state.players[0]
    assert player.hand["A"] == 1 and player.chips == 30 and player.spectated[5] is None
    assert any("entire submission was void" in e.text for e in events if isinstance(e, Reveal))


def test_betting_more_chips_than_held_invalidates_the_entire_submission():
    state = ready()
    state.players[0].chips = 2
    settled = settle_submission(state, 0, {"ability": {"kind": "clue", "use": {"A": 1}}, "bets": {"A": 3}})
    assert settled.ability is None and settled.bets == {}


def test_invalid_bet_on_one_horse_voids_that_bet_only():
    payload = {"ability": {"kind": "clue", "use": {"A": 1}}, "space": 12, "bets": {"A": 2, "E": 1, "B": "x"}}
    settled = settle_submission(ready(), 0, payload)
    assert settled.bets == {"A": 2} and settled.space == 12 and settled.ability is not None
    state, _ = play(ready(), {0: payload})
    assert state.players[0].chips == 28 and state.players[0].bets[5] == {"A": 2}


def test_voided_bets_count_towards_the_limit_by_default_and_not_with_the_setting():
    payload = {"bets": {"A": 4, "E": 2}}  # E is not in space 13
    assert settle_submission(ready(), 0, payload).bets == {}
    state = ready()
    state.settings = replace(state.settings, limit_counts_voided_bets=False)
    assert settle_submission(state, 0, payload).bets == {"A": 4}


def test_blank_or_invalid_space_means_no_space_and_the_rest_stands():
    for space in ("", None, 0, 16, "far"):
        settled = settle_submission(ready(), 0, {"space": space, "bets": {"A": 1}})
        assert settled.space is None and settled.bets == {"A": 1}


def test_ability_invalid_at_resolution_after_a_trade_means_no_ability_but_bets_stand():
    state = ready()
    payload = validate_submission(state, 0, {"ability": {"kind": "clue", "use": {"A": 1}}, "bets": {"B": 2}})
    state, _ = trade(state, 0, "A", 1, "C")  # seat 0 gives its only A away after saving
    after, events = play(state, {0: payload})
    assert after.players[0].hand["A"] == 0 and after.players[0].hand["C"] == 2
    assert after.players[0].bets[5] == {"B": 2}
    assert not [e for e in events if isinstance(e, Reveal) and e.seat == 0 and "kind" in e.data]


def test_round2_utility_that_fails_at_resolution_leaves_the_bets_over_the_limit_so_all_is_void():
    state = at_round(2)
    state.players[0].current_space = 4
    cards = {"E": 1, "F": 1, "G": 1, "H": 1}
    payload = validate_submission(state, 0, {"ability": {"kind": "utility", "use": cards}, "bets": {"A": 7}})
    state, _ = trade(state, 0, "E", 1, "A")
    settled = settle_submission(state, 0, payload)
    assert settled.ability is None and settled.bets == {}


def test_trade_is_one_for_one_and_checks_both_hands():
    state, events = trade(at_round(3), 2, "A", 4, "B")
    assert state.players[2].hand["A"] == 0 and state.players[2].hand["B"] == 2
    assert state.players[4].hand["B"] == 0 and state.players[4].hand["A"] == 2
    assert sum(isinstance(e, Ledger) for e in events) == 4
    with pytest.raises(RulesError) as error:
        trade(state, 2, "A", 5, "C")
    assert error.value.field == "card_a"
    with pytest.raises(RulesError) as error:
        trade(state, 5, "C", 4, "B")
    assert error.value.field == "card_b"
    with pytest.raises(RulesError):
        trade(state, 3, "C", 3, "D")


def test_two_trades_needing_the_same_card_one_succeeds_one_is_refused():
    state = at_round(1)
    first, _ = trade(state, 0, "A", 1, "B")
    with pytest.raises(RulesError) as error:
        trade(first, 0, "A", 2, "C")
    assert "no longer holds" in error.value.message


def test_trades_allowed_in_round0_but_not_after_the_race():
    trade(at_round(0), 0, "A", 1, "B")
    over, _ = play(at_round(10))
    with pytest.raises(RulesError):
        trade(over, 0, "A", 1, "B")


def test_purchases_cost_2_then_4_then_8_per_player():
    state = at_round(3)
    costs = []
    for _ in range(3):
        costs.append(purchase_cost(state, 0))
        state, _ = purchase(state, 0, "D")
    assert costs == [2, 4, 8] and state.players[0].hand["D"] == 4
    assert purchase_cost(state, 1) == 2
