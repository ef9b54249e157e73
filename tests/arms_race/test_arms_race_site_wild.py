"""Wild cards through the API: 3 garnets from the season ledger, refused with a reason when short."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.arms_race.rules import Phase
from games.platform.models import LedgerAccount
from games.platform.services.ledger import balances, ledger_post
from tests.arms_race.arms_race_site import act, api, arms_game, drive, honest, my_view, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def at_the_break(season, hank, alice, bob, charlie):
    """Round 1 played by three honest players; alice holds 3 garnets, bob 2."""
    ledger_post(season=season, user=alice, what="garnets", delta=3, reason="season start")
    ledger_post(season=season, user=bob, what="garnets", delta=2, reason="season start")
    game = arms_game(season, hank, [alice, bob, charlie])
    drive(game, [alice, bob, charlie], honest, until=lambda s: s.phase == Phase.WILD_CARDS)
    return game


def garnets(game, user) -> int:
    return balances(season=game.season, user=user).get("garnets", 0)


def test_a_wild_card_is_bought_with_three_garnets_and_played_as_a_named_weapon(
    at_the_break, alice, bob, charlie
):
    game = at_the_break
    response = act(game, alice, {"type": "buy_wild"})
    assert response.status_code == 200
    assert garnets(game, alice) == 0
    assert response.json()["state"]["wild_cards"] == [None]
    assert "You bought a wild card for 3 garnets." in [e["text"] for e in response.json()["inbox"]]
    # A purchase is private: the others are not told who bought.
    assert "bought a wild card" not in str(api(bob).get(reverse("api-game", args=[game.id])).json())
    assert act(game, bob, {"type": "decline_wild"}).status_code == 200
    assert act(game, charlie, {"type": "decline_wild"}).status_code == 200
    assert state_of(game).round == 2
    users = [alice, bob, charlie]
    drive(game, users, honest, until=lambda s: s.attacker == 0)
    aim = {"type": "attack", "card": "wild", "wild_as": "katana", "target": 1, "claim": "pistol"}
    assert act(game, alice, aim).status_code == 200
    bob_view = my_view(game, bob)
    assert bob_view["flight"]["wild"] is True and "weapon" not in bob_view["flight"]
    texts = [e["text"] for e in api(charlie).get(reverse("api-feed", args=[game.id])).json()["events"]]
    assert texts[-2:] == [
        "alice is playing a wild card.",
        "alice aims a weapon at bob, claiming it is a Pistol.",
    ]
    # Its weapon was named in secret: nobody else learns it before the challenge.
    assert "katana" not in str(bob_view["flight"]).lower() and bob_view["weapon_in_flight"] is None
    assert act(game, bob, {"type": "challenge", "call": "lie"}).status_code == 200
    assert state_of(game).wounds[0][3] == 1  # bob was right: alice takes the Katana's Slice


def test_a_wild_card_is_refused_when_the_garnets_are_short_and_nothing_changes(at_the_break, bob):
    game = at_the_break
    before_state, before_version = dict(game.state), game.version
    response = act(game, bob, {"type": "buy_wild"})
    assert response.status_code == 400
    assert response.json()["detail"] == "You have 2 garnets; this needs 3."
    game.refresh_from_db()
    assert game.state == before_state and game.version == before_version
    assert garnets(game, bob) == 2
    assert not LedgerAccount.objects.filter(user=bob, what="cards").exclude(balance=0).exists()
    assert my_view(game, bob)["my_decision"]["kind"] == "wild_card"
    assert act(game, bob, {"type": "decline_wild"}).status_code == 200
