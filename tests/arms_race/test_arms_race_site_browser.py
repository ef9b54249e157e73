"""Through real browsers: one attack, passed on by its target and challenged by the last player to see it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.arms_race.arms_race_site import arms_game, state_of
from tests.arms_race.arms_race_table import ORDERED_DEAL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_attack_passed_on_and_challenged_as_three_players_see_it(
    season, hank, alice, bob, charlie, page_as, live_server
):
    users = [alice, bob, charlie]
    game = arms_game(season, hank, users)
    attacker, passer, last = state_of(game).order
    url = live_server.url + reverse("game", args=[game.id])
    pages = {
        seat: page_as(users[seat], width=360 if seat == passer else 1000) for seat in (attacker, passer, last)
    }
    for page in pages.values():
        page.goto(url)

    # The attacker aims their first card at the passer, claiming a Pistol.
    card = ORDERED_DEAL[attacker][0]
    pages[attacker].select_option("select[name=card]", card)
    pages[attacker].select_option("select[name=target]", str(passer))
    pages[attacker].select_option("select[name=claim]", "pistol")
    pages[attacker].click("button[name=move]")

    # The passer's page learns of the claim without a reload, and they pass.
    pages[passer].get_by_role("button", name="Pass and look at the weapon").click()
    learned = pages[passer].locator(".ar-learned").inner_text()
    assert f"it is a {card.title()}" in learned
    assert pages[passer].locator("select[name=target] option").all_inner_texts() == [users[last].username]
    pages[passer].select_option("select[name=claim]", "bat")
    pages[passer].click("button[name=move]")

    # The last player who has not seen it must challenge: no pass is offered.
    challenge = pages[last].get_by_role("button", name='Challenge: "lie"')
    challenge.wait_for()
    assert "you must challenge" in pages[last].locator(".ar-my-decision").inner_text()
    assert pages[last].get_by_role("button", name="Pass and look at the weapon").count() == 0
    assert pages[last].locator(".ar-learned").count() == 0
    challenge.click()

    wound = f"{users[passer].username} takes a"
    for page in pages.values():
        page.locator(".ar-attacks").get_by_text(wound).wait_for()
    spectator = page_as(None)
    spectator.goto(url)
    attack = spectator.locator(".ar-attacks li").first.inner_text()
    assert (
        f"{users[passer].username} → {users[last].username} (“Bat”)" in attack
        and "was right" in attack
        and f"played a {card.title()}" in attack
    )
    assert spectator.locator(".ar-hand").count() == 0
