"""Attacks by hand: challenges both ways, pass chains to the last unseen player, the forced challenge."""

from __future__ import annotations

import pytest

from games.arms_race.rules import Phase, RulesError, Weapon, apply, pending, public_view, seat_view
from games.platform.kit import Announce, Reveal

from .arms_race_table import table


def attack(state, seat, card, target, claim):
    return apply(state, seat, {"type": "attack", "card": card, "target": target, "claim": claim})


@pytest.mark.parametrize(
    ("claim", "call", "wounded", "right"),
    [
        ("dagger", "truth", 0, True),  # true claim called truth: the attacker is wounded
        ("dagger", "lie", 1, False),  # true claim called lie: the challenger is wounded
        ("pistol", "lie", 0, True),  # false claim called lie: the attacker is wounded
        ("pistol", "truth", 1, False),  # false claim called truth: the challenger is wounded
    ],
)
def test_challenge_right_wounds_the_attacker_wrong_wounds_the_challenger(claim, call, wounded, right):
    state, _ = attack(table(), 0, "dagger", 1, claim)
    state, events = apply(state, 1, {"type": "challenge", "call": call})
    assert state.wounds_of(wounded, Weapon.DAGGER) == 1
    assert sum(state.total_wounds(s) for s in range(7)) == 1
    record = state.history[-1]
    assert (record.correct, record.wounded, record.wound) == (right, wounded, "Cut")
    challenge = [e for e in events if e.data.get("event") == "challenge"][0]
    assert challenge.data["weapon"] == "dagger" and challenge.data["wounded"] == wounded


def test_the_wound_is_the_real_weapons_not_the_claimed_one():
    state, _ = attack(table(order=(1, 0, 2, 3, 4, 5, 6)), 1, "bat", 2, "katana")
    state, _ = apply(state, 2, {"type": "challenge", "call": "truth"})
    assert state.wounds_of(2, Weapon.BAT) == 1  # a Bruise, not a Slice
    assert state.wounds_of(2, Weapon.KATANA) == 0


def test_the_next_player_in_the_round_order_attacks_after_a_challenge():
    state = table(order=(3, 0, 1, 2, 4, 5, 6))
    assert pending(state)["seats"] == [3]
    state, _ = attack(state, 3, "katana", 0, "katana")
    state, _ = apply(state, 0, {"type": "challenge", "call": "lie"})
    assert pending(state)["kind"] == "attack" and pending(state)["seats"] == [0]
    assert state.hands[3].count(Weapon.KATANA) == 4


def test_a_pass_shows_the_real_card_only_to_the_passer():
    state, _ = attack(table(), 0, "dagger", 1, "bat")
    state, events = apply(state, 1, {"type": "pass"})
    reveals = [e for e in events if isinstance(e, Reveal)]
    assert [(r.seat, r.data["weapon"]) for r in reveals] == [(1, "dagger")]
    assert all("dagger" not in str(e.data) for e in events if isinstance(e, Announce))
    assert pending(state) == {
        "kind": "redirect",
        "seats": [1],
        "round": 1,
        "turn": 0,
        "types": ["redirect"],
        "options": {"targets": [2, 3, 4, 5, 6], "claims": pending(state)["options"]["claims"]},
    }
    assert seat_view(state, 1)["weapon_in_flight"]["weapon"] == "dagger"
    assert seat_view(state, 2)["weapon_in_flight"] is None
    assert "weapon" not in public_view(state)["flight"]


def test_a_redirect_must_aim_at_someone_who_has_not_seen_the_weapon():
    state, _ = attack(table(), 0, "dagger", 1, "bat")
    state, _ = apply(state, 1, {"type": "pass"})
    for seen in (0, 1):
        with pytest.raises(RulesError) as error:
            apply(state, 1, {"type": "redirect", "target": seen, "claim": "bat"})
        assert error.value.field == "target"


def test_a_pass_chain_runs_to_the_last_unseen_player_who_must_challenge():
    state, _ = attack(table(), 0, "dagger", 1, "dagger")
    chain = [1, 2, 3, 4, 5]
    for passer, nxt in zip(chain, chain[1:] + [6], strict=True):
        assert pending(state)["options"]["pass"] is True
        state, _ = apply(state, passer, {"type": "pass"})
        state, _ = apply(state, passer, {"type": "redirect", "target": nxt, "claim": "whip"})
    decision = pending(state)
    assert decision["seats"] == [6] and decision["types"] == ["challenge"]
    assert decision["options"]["pass"] is False
    assert public_view(state)["flight"]["seen"] == [0, 1, 2, 3, 4, 5]
    assert public_view(state)["flight"]["unseen"] == [6]


def test_the_forced_challenge_refuses_a_pass():
    state, _ = attack(table(), 0, "dagger", 1, "dagger")
    for passer, nxt in [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]:
        state, _ = apply(state, passer, {"type": "pass"})
        state, _ = apply(state, passer, {"type": "redirect", "target": nxt, "claim": "whip"})
    with pytest.raises(RulesError, match="must challenge") as error:
        apply(state, 6, {"type": "pass"})
    assert error.value.field == "type"


def test_after_passes_the_last_pointer_is_the_attacker_a_right_call_wounds():
    state, _ = attack(table(), 0, "dagger", 1, "dagger")
    state, _ = apply(state, 1, {"type": "pass"})
    state, _ = apply(state, 1, {"type": "redirect", "target": 4, "claim": "pistol"})
    state, _ = apply(state, 4, {"type": "challenge", "call": "lie"})  # Pistol is a lie: 4 is right
    assert state.wounds_of(1, Weapon.DAGGER) == 1  # the last pointer, not the owner
    assert state.total_wounds(0) == 0 and state.total_wounds(4) == 0


def test_the_call_judges_the_last_claim_not_the_first():
    state, _ = attack(table(), 0, "dagger", 1, "bat")  # the owner lied
    state, _ = apply(state, 1, {"type": "pass"})
    state, _ = apply(state, 1, {"type": "redirect", "target": 2, "claim": "dagger"})  # 1 tells the truth
    state, _ = apply(state, 2, {"type": "challenge", "call": "lie"})
    assert state.wounds_of(2, Weapon.DAGGER) == 1


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "attack", "card": "katana", "target": 1, "claim": "dagger"}, "card"),
        ({"type": "attack", "card": "spoon", "target": 1, "claim": "dagger"}, "card"),
        ({"type": "attack", "card": "dagger", "target": 0, "claim": "dagger"}, "target"),
        ({"type": "attack", "card": "dagger", "target": 7, "claim": "dagger"}, "target"),
        ({"type": "attack", "card": "dagger", "target": 1, "claim": "spoon"}, "claim"),
        ({"type": "attack", "card": "wild", "target": 1, "claim": "dagger"}, "card"),
        ({"type": "challenge", "call": "truth"}, "type"),
    ],
)
def test_illegal_attacks_name_their_field(action, field):
    with pytest.raises(RulesError) as error:
        apply(table(), 0, action)
    assert error.value.field == field


def test_only_the_player_whose_decision_it_is_may_act():
    state = table()
    with pytest.raises(RulesError, match="not your decision"):
        attack(state, 1, "bat", 2, "bat")
    state, _ = attack(state, 0, "dagger", 1, "dagger")
    with pytest.raises(RulesError, match="not your decision"):
        apply(state, 2, {"type": "challenge", "call": "truth"})
    with pytest.raises(RulesError) as error:
        apply(state, 1, {"type": "challenge", "call": "maybe"})
    assert error.value.field == "call"
    assert state.phase == Phase.RESPOND
