"""Wild cards: bought between rounds, named before they are played, announced to every player when played."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.arms_race.rules import (
    Phase,
    RulesError,
    Settings,
    Weapon,
    apply,
    apply_timeout,
    pending,
    public_view,
    seat_view,
)
from games.platform.kit import Announce, Ledger, Reveal

from .arms_race_table import table, with_wounds


def end_of_round_one(settings: Settings | None = None):
    """Every player but the last has attacked in Round 1; the last attack's challenge closes the round."""
    state = table(settings)
    state = replace(state, turn=6, hands=tuple(h[1:] if s != 6 else h for s, h in enumerate(state.hands)))
    state, _ = apply(state, 6, {"type": "attack", "card": "pistol", "target": 0, "claim": "pistol"})
    return apply(state, 0, {"type": "challenge", "call": "lie"})


def break_with_wild(state, seat, settings_weapon=None):
    action = (
        {"type": "buy_wild"} if settings_weapon is None else {"type": "buy_wild", "weapon": settings_weapon}
    )
    return apply(state, seat, action)


def everyone_else_declines(state, buyer):
    for seat in range(7):
        if seat != buyer and seat in pending(state)["seats"]:
            state, events = apply(state, seat, {"type": "decline_wild"})
    return state, events


def test_between_rounds_every_player_is_offered_a_wild_card():
    state, events = end_of_round_one()
    assert state.phase == Phase.WILD_CARDS
    assert pending(state)["kind"] == "wild_card" and pending(state)["seats"] == list(range(7))
    assert any("wild card is on offer for 3 garnets" in e.text for e in events)


def test_no_wild_card_is_offered_before_round_one():
    assert table().phase == Phase.ATTACK and table().round == 1


def test_buying_records_the_card_privately_and_leaves_the_garnets_to_the_caller():
    state, _ = end_of_round_one()
    state, events = break_with_wild(state, 2)
    assert state.wilds[2] == (None,)
    assert [type(e) for e in events] == [Reveal, Ledger]
    assert events[1].what == "cards" and events[1].item == "wild"  # never garnets: the caller debits those
    assert "wild_cards_held" not in public_view(state)["players"][2]
    assert seat_view(state, 2)["wild_cards"] == [None]
    with pytest.raises(RulesError, match="not your decision"):
        break_with_wild(state, 2)  # one wild card per break


def test_the_next_round_starts_when_everyone_has_bought_or_declined():
    state, _ = end_of_round_one()
    state, _ = break_with_wild(state, 2)
    state, events = everyone_else_declines(state, 2)
    assert state.round == 2 and state.phase == Phase.ATTACK
    assert any(e.data.get("event") == "round" for e in events)


def test_a_wild_card_named_katana_is_really_a_katana_when_challenged():
    state, _ = end_of_round_one()
    state, _ = break_with_wild(state, 0)
    state, _ = everyone_else_declines(state, 0)
    state = replace(state, order=(0, 1, 2, 3, 4, 5, 6), turn=0)
    hand_before = state.hands[0]
    state, events = apply(
        state, 0, {"type": "attack", "card": "wild", "wild_as": "katana", "target": 1, "claim": "katana"}
    )
    assert isinstance(events[0], Announce) and events[0].text == "Player 1 is playing a wild card."
    assert "katana" not in str(events[0].data)  # told it is wild, not what it was named
    assert state.hands[0] == hand_before and state.wilds[0] == ()
    assert public_view(state)["flight"]["wild"] is True and "weapon" not in public_view(state)["flight"]
    state, _ = apply(state, 1, {"type": "challenge", "call": "lie"})
    assert state.wounds_of(1, Weapon.KATANA) == 1  # "katana" was the truth: a Slice for the challenger
    assert state.history[-1].wild is True and public_view(state)["history"][-1]["weapon"] == "katana"


def test_a_wild_card_must_be_named_before_it_is_played():
    state, _ = end_of_round_one()
    state, _ = break_with_wild(state, 0)
    state, _ = everyone_else_declines(state, 0)
    state = replace(state, order=(0, 1, 2, 3, 4, 5, 6), turn=0)
    with pytest.raises(RulesError) as error:
        apply(state, 0, {"type": "attack", "card": "wild", "target": 1, "claim": "katana"})
    assert error.value.field == "wild_as"


def test_a_passer_learns_it_is_a_wild_card_and_its_named_weapon():
    state, _ = end_of_round_one()
    state, _ = break_with_wild(state, 0)
    state, _ = everyone_else_declines(state, 0)
    state = replace(state, order=(0, 1, 2, 3, 4, 5, 6), turn=0)
    state, _ = apply(
        state, 0, {"type": "attack", "card": "wild", "wild_as": "taser", "target": 1, "claim": "bat"}
    )
    state, events = apply(state, 1, {"type": "pass"})
    reveal = [e for e in events if isinstance(e, Reveal)][0]
    assert reveal.seat == 1 and reveal.data == {"event": "seen", "owner": 0, "weapon": "taser", "wild": True}


def test_a_wild_card_named_at_purchase_keeps_that_weapon():
    settings = Settings(wild_declared_at="purchase")
    state, _ = end_of_round_one(settings)
    with pytest.raises(RulesError) as error:
        break_with_wild(state, 0)
    assert error.value.field == "weapon"
    state, _ = break_with_wild(state, 0, "whip")
    state, _ = everyone_else_declines(state, 0)
    state = with_wounds(replace(state, order=(0, 1, 2, 3, 4, 5, 6), turn=0), 1, Weapon.WHIP, 2)
    state, _ = apply(state, 0, {"type": "attack", "card": "wild", "target": 1, "claim": "whip"})
    state, events = apply(state, 1, {"type": "challenge", "call": "lie"})
    assert state.outcome.loser == 1 and state.outcome.winners == (0,)  # the wild card's owner played it


def test_a_held_wild_card_replaces_one_presentation_and_its_hand_card_stays_unplayed():
    state, _ = end_of_round_one()
    state, _ = break_with_wild(state, 3)
    state, _ = everyone_else_declines(state, 3)
    state = replace(state, order=(3, 0, 1, 2, 4, 5, 6), turn=0)
    cards = len(state.hands[3])
    state, _ = apply(
        state, 3, {"type": "attack", "card": "wild", "wild_as": "dagger", "target": 0, "claim": "dagger"}
    )
    state, _ = apply(state, 0, {"type": "challenge", "call": "truth"})
    assert len(state.hands[3]) == cards and pending(state)["seats"] == [0]


def test_announced_purchases_setting_tells_everyone():
    state, _ = end_of_round_one(Settings(announce_wild_purchases=True))
    state, events = break_with_wild(state, 5)
    assert any(isinstance(e, Announce) and "Player 6 bought a wild card" in e.text for e in events)
    assert public_view(state)["players"][5]["wild_cards_held"] == 1


def test_a_timed_out_break_declines_the_wild_card():
    state, _ = end_of_round_one()
    for seat in range(7):
        state, _ = apply_timeout(state, seat)
    assert state.round == 2 and all(held == () for held in state.wilds)
