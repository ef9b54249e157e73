"""The game page: the table and the viewer's decision; a form keeps what was typed and says what is wrong."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.arms_race.rules import Phase, Weapon
from games.platform.services.ledger import balances, ledger_post
from tests.arms_race.arms_race_site import arms_game, drive, honest, state_of
from tests.arms_race.arms_race_table import ORDERED_DEAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(alice, bob, charlie):
    return [alice, bob, charlie]


@pytest.fixture
def game(season, hank, trio):
    return arms_game(season, hank, trio)


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_attacker_sees_the_attack_form_and_the_others_only_the_table(game, trio):
    attacker = state_of(game).attacker
    for seat, user in enumerate(trio):
        html = client_for(user).get(reverse("game", args=[game.id])).content.decode()
        assert "The table" in html
        # The attacker is asked ("Your decision"), never told they are waited for (issue 20.3).
        assert ("Waiting for" in html) == (seat != attacker) != ("Your decision" in html)
        assert ('name="claim"' in html) == (seat == attacker)
    assert 'name="claim"' not in Client().get(reverse("game", args=[game.id])).content.decode()


def test_a_wrong_attack_form_keeps_what_was_typed_and_says_what_is_missing(game, trio):
    attacker = state_of(game).attacker
    target = (attacker + 1) % 3
    card = ORDERED_DEAL[attacker][0]
    response = client_for(trio[attacker]).post(
        reverse("arms_race:move", args=[game.id]),
        {"kind": "attack", "card": card, "target": str(target), "claim": ""},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Say which weapon you claim it is." in html
    assert f'<option value="{card}" selected>' in html and f'<option value="{target}" selected>' in html
    assert state_of(game).phase == Phase.ATTACK


def test_an_attack_by_form_then_a_challenge_by_button(game, trio):
    attacker = state_of(game).attacker
    target = (attacker + 1) % 3
    card = ORDERED_DEAL[attacker][0]
    response = client_for(trio[attacker]).post(
        reverse("arms_race:move", args=[game.id]),
        {"kind": "attack", "card": card, "target": str(target), "claim": "pistol"},
    )
    assert response.status_code == 302
    page = client_for(trio[target]).get(reverse("game", args=[game.id])).content.decode()
    assert "Challenge: &quot;lie&quot;" in page
    assert "claiming <strong>Pistol</strong>" in page
    client_for(trio[target]).post(
        reverse("game", args=[game.id]), {"action": json.dumps({"type": "challenge", "call": "lie"})}
    )
    record = state_of(game).history[-1]
    assert record.correct and record.wounded == attacker
    third = 3 - attacker - target
    page = client_for(trio[third]).get(reverse("game", args=[game.id])).content.decode()
    assert "said “lie” and was right" in page and f"takes a {record.wound}" in page


def test_a_move_out_of_turn_is_refused_with_a_reason(game, trio):
    bystander = next(s for s in range(3) if s != state_of(game).attacker)
    response = client_for(trio[bystander]).post(
        reverse("arms_race:move", args=[game.id]),
        {"kind": "attack", "card": "dagger", "target": "0", "claim": "dagger"},
        follow=True,
    )
    assert "no longer yours to make" in response.content.decode()
    assert state_of(game).phase == Phase.ATTACK


def test_a_wild_card_named_when_bought_is_named_in_a_form(season, hank, trio):
    ledger_post(season=season, user=trio[0], what="garnets", delta=3, reason="season start")
    game = arms_game(season, hank, trio, settings={"wild_declared_at": "purchase"})
    drive(game, trio, honest, until=lambda s: s.phase == Phase.WILD_CARDS)
    buyer = client_for(trio[0])
    assert 'name="weapon"' in buyer.get(reverse("game", args=[game.id])).content.decode()
    unnamed = buyer.post(reverse("arms_race:move", args=[game.id]), {"kind": "buy_wild", "weapon": ""})
    assert unnamed.status_code == 400 and "Name the weapon first." in unnamed.content.decode()
    named = buyer.post(reverse("arms_race:move", args=[game.id]), {"kind": "buy_wild", "weapon": "katana"})
    assert named.status_code == 302
    assert state_of(game).wilds[0] == (Weapon.KATANA,)
    assert balances(season=season, user=trio[0])["garnets"] == 0


def test_an_attack_form_sent_after_the_clock_ran_out_shows_the_page_as_it_now_is(season, hank, trio):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    start = timezone.now()
    with time_machine.travel(start, tick=False):
        game = arms_game(season, hank, trio, settings={"attack_seconds": 60})
    attacker = state_of(game).attacker
    card = ORDERED_DEAL[attacker][0]
    with time_machine.travel(start + timedelta(seconds=75), tick=False):
        response = client_for(trio[attacker]).post(
            reverse("arms_race:move", args=[game.id]),
            {"kind": "attack", "card": card, "target": str((attacker + 1) % 3), "claim": "pistol"},
            follow=True,
        )
    html = response.content.decode()
    assert "Your time ran out at " in html and "this move was not made" in html
    assert 'name="claim"' not in html  # the attack went out with the truth: no attack form left
    state = state_of(game)
    assert state.phase == Phase.RESPOND and state.flight.last.weapon == state.flight.weapon


def test_a_player_one_wound_of_a_type_from_losing_is_marked_for_every_viewer(game, trio):
    def near(state):
        losing = state.settings.wounds_to_lose - 1
        return {s for s in range(state.players) if any(state.wounds_of(s, w) == losing for w in Weapon)}

    drive(game, trio, honest, until=lambda state: near(state))
    marked = [trio[seat].username for seat in sorted(near(state_of(game)))]
    url = reverse("game", args=[game.id])
    for client in (Client(), client_for(trio[0]), client_for(trio[1])):
        html = client.get(url).content.decode()
        rows = re.findall(r'<tr class="([^"]*)"><th scope="row">(\w+)', html)
        assert len(rows) == 3
        assert [name for classes, name in rows if "ar-near-loss" in classes] == marked
        assert "One wound from losing: <strong>" + marked[0] in html
