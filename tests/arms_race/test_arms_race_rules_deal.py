"""The deck, the wounds, the deal (shuffled or by hand), the random order of each round, and the timeouts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games.arms_race.rules import (
    DECK,
    WOUNDS,
    Phase,
    RulesError,
    Settings,
    Weapon,
    apply,
    apply_timeout,
    new_game,
    pending,
    timeout_action,
)
from games.arms_race.rules.chance import round_order
from games.platform.kit import Reveal

from .arms_race_table import ORDERED_DEAL, table


def test_eight_suits_of_eight_cards_make_the_deck_of_64():
    assert len(DECK) == 64
    assert Counter(DECK) == {weapon: 8 for weapon in Weapon}


@pytest.mark.parametrize(
    ("weapon", "wound"),
    [
        (Weapon.BAT, "Bruise"),
        (Weapon.DAGGER, "Cut"),
        (Weapon.CROSSBOW, "Arrow"),
        (Weapon.PISTOL, "Bullet"),
        (Weapon.WHIP, "Lash"),
        (Weapon.KATANA, "Slice"),
        (Weapon.TASER, "Shock"),
        (Weapon.FLAMETHROWER, "Burn"),
    ],
)
def test_the_bat_gives_a_bruise_and_each_weapon_its_own_wound(weapon, wound):
    assert WOUNDS[weapon] == wound == weapon.wound


def test_nine_cards_are_sent_to_each_player_from_the_shuffled_deck():
    state, events = new_game(random.Random(42))
    assert [len(hand) for hand in state.hands] == [9] * 7
    assert Counter(card for hand in state.hands for card in hand) + Counter(state.undealt) == Counter(DECK)
    reveals = [e for e in events if isinstance(e, Reveal)]
    assert [r.seat for r in reveals] == list(range(7))
    assert [r.data["hand"] for r in reveals] == [[w.value for w in hand] for hand in state.hands]


def test_the_same_seed_deals_the_same_hands_and_another_seed_does_not():
    first, _ = new_game(random.Random(42))
    again, _ = new_game(random.Random(42))
    other, _ = new_game(random.Random(43))
    assert first == again
    assert first.hands != other.hands


def test_a_deal_by_hand_is_taken_as_given():
    state = table()
    assert state.hands[0] == (Weapon.DAGGER,) * 8 + (Weapon.BAT,)
    assert state.undealt == (Weapon.FLAMETHROWER,)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (ORDERED_DEAL[:6], "7 hands"),
        (ORDERED_DEAL[:6] + [ORDERED_DEAL[6][:8]], "exactly 9 cards"),
        ([["dagger"] * 9] + ORDERED_DEAL[1:], "only 8 Dagger"),
        ([["spoon"] * 9] + ORDERED_DEAL[1:], "eight weapons"),
        ("dagger" * 63, "7 hands"),
    ],
)
def test_a_deal_by_hand_is_checked_against_the_deck(deal, message):
    with pytest.raises(RulesError, match=message) as error:
        new_game(random.Random(1), deal=deal)
    assert error.value.field == "deal"


def test_the_order_is_drawn_afresh_each_round_from_the_seed():
    orders = [round_order(42, number, 7) for number in range(1, 10)]
    assert all(sorted(order) == list(range(7)) for order in orders)
    assert len(set(orders)) > 1  # it shifts from round to round
    assert orders == [round_order(42, number, 7) for number in range(1, 10)]  # and replays
    assert orders != [round_order(43, number, 7) for number in range(1, 10)]


def test_each_round_starts_with_its_own_order_and_every_player_presents_once():
    state, _ = new_game(random.Random(5), Settings(wild_cards_offered=False))
    assert state.order == round_order(state.seed, 1, 7)
    attackers = []
    while state.round == 1:
        attackers.append(pending(state)["seats"][0])
        state, _ = apply_timeout(state)  # the attack
        state, _ = apply_timeout(state)  # the challenge
        if state.phase == Phase.OVER:
            pytest.fail("timeouts alone should not end the game in round one")
    assert attackers == list(round_order(state.seed, 1, 7))
    assert state.round == 2 and state.order == round_order(state.seed, 2, 7)


def test_an_attack_timeout_plays_a_random_card_of_the_hand_at_a_random_target_claiming_the_truth():
    state = table()
    action = timeout_action(state)
    assert action["type"] == "attack" and action["card"] == action["claim"]
    assert Weapon(action["card"]) in state.hands[0] and action["target"] in range(1, 7)
    assert timeout_action(state) == action  # drawn from the seed, so it replays
    targets = {timeout_action(replace(state, seed=seed))["target"] for seed in range(30)}
    assert len(targets) > 1


def test_a_respond_timeout_challenges_truth_and_a_redirect_timeout_tells_the_truth():
    state, _ = apply(table(), 0, {"type": "attack", "card": "dagger", "target": 1, "claim": "bat"})
    assert timeout_action(state) == {"type": "challenge", "call": "truth"}
    state, _ = apply(state, 1, {"type": "pass"})
    action = timeout_action(state)
    assert action["type"] == "redirect" and action["claim"] == "dagger" and action["target"] in range(2, 7)
    state, events = apply_timeout(state)
    assert events[0].data == {"event": "timeout", "seat": 1, "decision": "redirect"}
    state, _ = apply_timeout(state)
    assert state.history[-1].timed_out == (1, action["target"])


def test_the_lie_timeout_setting():
    state, _ = apply(
        table(Settings(timeout_call="lie")),
        0,
        {"type": "attack", "card": "dagger", "target": 1, "claim": "bat"},
    )
    assert timeout_action(state) == {"type": "challenge", "call": "lie"}


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        (Settings(players=8), "players"),
        (Settings(rounds=10), "rounds"),
        (Settings(caught_pointer_winner="host"), "caught_pointer_winner"),
        (Settings(final_tiebreak="coin"), "final_tiebreak"),
    ],
)
def test_settings_are_checked(bad, field):
    with pytest.raises(RulesError) as error:
        new_game(random.Random(1), bad)
    assert error.value.field == field
