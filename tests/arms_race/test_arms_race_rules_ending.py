"""The two ends by hand: three wounds of one type (both winner cases, caught bluffs), nine rounds played."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.arms_race.rules import Phase, RulesError, Settings, Weapon, apply, pending, public_view
from games.platform.kit import Ledger

from .arms_race_table import table, with_wounds


def attack(state, seat, card, target, claim):
    return apply(state, seat, {"type": "attack", "card": card, "target": target, "claim": claim})[0]


def redirect(state, seat, target, claim):
    state, _ = apply(state, seat, {"type": "pass"})
    return apply(state, seat, {"type": "redirect", "target": target, "claim": claim})[0]


def challenge(state, seat, call):
    return apply(state, seat, {"type": "challenge", "call": call})


def awards(events):
    return sorted((e.seat, e.what, e.delta) for e in events if isinstance(e, Ledger))


def test_two_wounds_of_one_type_do_not_end_the_game():
    state = with_wounds(table(), 3, Weapon.DAGGER, 1)
    state, events = challenge(attack(state, 0, "dagger", 3, "dagger"), 3, "lie")
    assert state.wounds_of(3, Weapon.DAGGER) == 2
    assert state.phase == Phase.ATTACK and state.outcome is None and awards(events) == []


def test_three_wounds_of_one_type_end_the_game_the_moment_they_land():
    state = with_wounds(table(), 3, Weapon.DAGGER, 2)
    state, events = challenge(attack(state, 0, "dagger", 3, "dagger"), 3, "lie")
    assert state.phase == Phase.OVER and state.outcome.loser == 3 and state.round == 1
    assert pending(state) is None
    with pytest.raises(RulesError, match="over"):
        apply(state, 1, {"type": "attack", "card": "bat", "target": 2, "claim": "bat"})


def test_wounds_of_different_types_never_add_up_to_a_loss():
    state = table()
    for weapon in (Weapon.DAGGER, Weapon.BAT, Weapon.WHIP, Weapon.KATANA):
        state = with_wounds(state, 3, weapon, 2)
    state, _ = challenge(attack(state, 0, "dagger", 3, "pistol"), 3, "lie")  # right: 0 takes a Cut
    assert state.outcome is None and state.total_wounds(3) == 8


def test_one_player_played_and_pointed_the_killing_weapon_two_tokens_seven_garnets():
    state = with_wounds(table(), 3, Weapon.DAGGER, 2)
    state, events = challenge(attack(state, 0, "dagger", 3, "dagger"), 3, "lie")
    assert state.outcome.winners == (0,)
    assert awards(events) == [(0, "garnets", 7), (0, "tokens_of_life", 2)]


def test_two_players_played_and_pointed_the_killing_weapon_one_token_three_garnets_each():
    state = with_wounds(table(), 3, Weapon.DAGGER, 2)
    state = redirect(attack(state, 0, "dagger", 1, "bat"), 1, 3, "dagger")
    state, events = challenge(state, 3, "lie")
    assert (state.outcome.loser, state.outcome.original, state.outcome.pointer) == (3, 0, 1)
    assert awards(events) == [
        (0, "garnets", 3),
        (0, "tokens_of_life", 1),
        (1, "garnets", 3),
        (1, "tokens_of_life", 1),
    ]


def test_a_caught_pointer_loses_and_the_challenger_counts_as_pointing_it_at_them():
    state = with_wounds(table(), 1, Weapon.DAGGER, 2)
    state = redirect(attack(state, 0, "dagger", 1, "dagger"), 1, 3, "bat")
    state, events = challenge(state, 3, "lie")
    assert state.outcome.loser == 1
    assert (state.outcome.original, state.outcome.pointer) == (0, 3)
    assert awards(events) == [
        (0, "garnets", 3),
        (0, "tokens_of_life", 1),
        (3, "garnets", 3),
        (3, "tokens_of_life", 1),
    ]


def test_a_caught_pointer_with_the_previous_pointer_reading():
    state = with_wounds(table(Settings(caught_pointer_winner="previous")), 1, Weapon.DAGGER, 2)
    state = redirect(attack(state, 0, "dagger", 1, "dagger"), 1, 3, "bat")
    state, events = challenge(state, 3, "lie")
    # 0 played it first and had pointed it at 1, who then lost with it: one player, both roles.
    assert state.outcome.winners == (0,)
    assert awards(events) == [(0, "garnets", 7), (0, "tokens_of_life", 2)]


def test_an_attacker_caught_on_their_own_card_leaves_the_challenger_the_only_winner():
    state = with_wounds(table(), 0, Weapon.DAGGER, 2)
    state, events = challenge(attack(state, 0, "dagger", 3, "bat"), 3, "lie")
    assert state.outcome.loser == 0 and state.outcome.original is None
    assert state.outcome.winners == (3,)
    assert awards(events) == [(3, "garnets", 3), (3, "tokens_of_life", 1)]


def test_an_attacker_caught_on_their_own_card_with_the_previous_reading_has_no_winner():
    state = with_wounds(table(Settings(caught_pointer_winner="previous")), 0, Weapon.DAGGER, 2)
    state, events = challenge(attack(state, 0, "dagger", 3, "bat"), 3, "lie")
    assert state.outcome.loser == 0 and state.outcome.winners == ()
    assert awards(events) == []


def last_turn_of_round_nine(settings: Settings | None = None):
    """Round 9, seat 6 attacks last with its one remaining card; every other hand is empty."""
    state = table(settings)
    hands = tuple(() for _ in range(6)) + ((Weapon.FLAMETHROWER,),)
    return replace(state, round=9, order=(0, 1, 2, 3, 4, 5, 6), turn=6, hands=hands)


def spread(state, seat, counts):
    wounds = list(state.wounds)
    wounds[seat] = tuple(counts)
    return replace(state, wounds=tuple(wounds))


def test_after_nine_rounds_the_most_wounds_in_total_loses_no_winners_no_awards():
    state = last_turn_of_round_nine()
    state = spread(state, 2, (2, 2, 2, 2, 1, 1, 0, 0))  # 10 wounds
    state = spread(state, 4, (2, 2, 1, 1, 1, 1, 1, 0))  # 9 wounds
    state = attack(state, 6, "flamethrower", 0, "flamethrower")
    state, events = challenge(state, 0, "truth")  # right: 6 takes a Burn, 1 wound in all
    assert "takes a Burn (1 Burn, 1 wound in all)." in events[0].text
    assert state.phase == Phase.OVER
    assert (state.outcome.reason, state.outcome.loser, state.outcome.winners) == ("nine_rounds", 2, ())
    assert awards(events) == []
    assert public_view(state)["outcome"]["loser"] == 2


def test_a_tie_for_most_wounds_goes_to_the_player_closest_to_three_of_a_kind():
    state = last_turn_of_round_nine()
    state = spread(state, 2, (2, 2, 1, 1, 1, 1, 1, 1))  # 10: two pairs
    state = spread(state, 4, (2, 2, 2, 2, 1, 1, 0, 0))  # 10: four pairs
    state, _ = challenge(attack(state, 6, "flamethrower", 0, "flamethrower"), 0, "truth")
    assert state.outcome.loser == 4
    assert "next type" in state.outcome.tiebreak


def test_a_tie_nothing_separates_is_drawn_from_the_seed_and_replays():
    losers = set()
    for seed in range(12):
        state = last_turn_of_round_nine(replace(Settings()))
        state = replace(state, seed=seed)
        state = spread(state, 2, (2, 2, 2, 2, 1, 1, 0, 0))
        state = spread(state, 4, (0, 0, 1, 1, 2, 2, 2, 2))
        end, _ = challenge(attack(state, 6, "flamethrower", 0, "flamethrower"), 0, "truth")
        again, _ = challenge(attack(state, 6, "flamethrower", 0, "flamethrower"), 0, "truth")
        assert end.outcome.loser == again.outcome.loser in (2, 4)
        assert "random draw" in end.outcome.tiebreak
        losers.add(end.outcome.loser)
    assert losers == {2, 4}


def test_the_random_tiebreak_setting_skips_the_wound_types():
    state = last_turn_of_round_nine(Settings(final_tiebreak="random"))
    state = spread(state, 2, (2, 2, 1, 1, 1, 1, 1, 1))
    state = spread(state, 4, (2, 2, 2, 2, 1, 1, 0, 0))
    state, _ = challenge(attack(state, 6, "flamethrower", 0, "flamethrower"), 0, "truth")
    assert state.outcome.loser in (2, 4) and state.outcome.tiebreak.startswith("a random draw")


def test_the_last_attack_of_round_nine_can_still_end_the_game_by_wounds():
    state = with_wounds(last_turn_of_round_nine(), 0, Weapon.FLAMETHROWER, 2)
    state, events = challenge(attack(state, 6, "flamethrower", 0, "flamethrower"), 0, "lie")
    assert state.outcome.reason == "three_wounds" and state.outcome.winners == (6,)
    assert awards(events) == [(6, "garnets", 7), (6, "tokens_of_life", 2)]
