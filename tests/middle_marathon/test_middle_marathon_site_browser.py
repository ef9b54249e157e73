"""Through a real browser: Blue and Red, each in their own context, play cards and answer choices live."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.middle_marathon.marathon_site import marathon_game, put_state, state_of
from tests.middle_marathon.positions import make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_both_players_move_and_choose_in_two_browsers(season, hank, alice, bob, page_as, live_server):
    game = marathon_game(season, hank, alice, bob)
    # Blue's Force on 3 and a 2 to play: the Force must take one of several pieces along (not forced).
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}))
    url = live_server.url + reverse("game", args=[game.id])
    blue = page_as(alice, width=360)  # a phone-sized screen
    red = page_as(bob)
    blue.goto(url)
    red.goto(url)
    assert red.locator("button[name=action]").count() == 0
    assert red.locator("#my-hand").inner_text() == "Your hand: 0 1 2 3 4"

    blue.get_by_role("button", name="Play 2 on Force (blue)").click()
    assert "Choose another piece to move 2 space(s) forwards" in blue.locator(".mm-prompt").inner_text()
    blue.get_by_role("button", name="Movement (purple) on space 2").click()
    assert state_of(game).positions["M"] == 4 and state_of(game).positions["FB"] == 5

    # Red's page learns of its turn by polling, without a reload.
    red.get_by_role("button", name="Play 0 on Swap (red)").click(timeout=10000)
    assert "Choose another piece of your colour to swap places" in red.locator(".mm-prompt").inner_text()
    red.get_by_role("button", name="Gravity (red) on space 5").click()
    state = state_of(game)
    assert state.positions["SR"] == 5 and state.positions["GR"] == 1 and state.to_move == 0

    blue.wait_for_selector("text=Red chooses Gravity (red) for Swap (red)", timeout=10000)
    assert blue.locator("#my-hand").inner_text() == "Your hand: 0 1 3 4"
    assert blue.locator(".mm-waiting").inner_text() == "Turn 3: your turn (Blue): play a movement card."
    assert blue.locator("[data-space='5'] [data-piece='SR']").count() == 1
    assert red.locator("#my-hand").inner_text() == "Your hand: 1 2 3 4"
