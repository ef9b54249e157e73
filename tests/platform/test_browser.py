"""Through a real browser: a player saves the round form; a spectator sees the result arrive live."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.platform.services.rounds import round_resolve

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_saves_the_form_and_a_spectator_sees_the_announcement_live(
    tally, alice, page_as, live_server
):
    url = live_server.url + reverse("game", args=[tally.id])
    player = page_as(alice, width=360)  # a phone-sized screen
    player.goto(url)
    # The countdown is written as an absolute deadline (pages may come from the cache) and counted here.
    left = player.locator("#live time.countdown").first.inner_text()
    assert re.fullmatch(r"closes in (59m|1h 0m) \d+s", left), left
    player.fill("input[name=number]", "12")
    player.click("button[name=save]")
    assert player.locator(".has-error .error").inner_text() == "Pick a number from 0 to 10."
    player.fill("input[name=number]", "7")
    player.click("button[name=save]")
    assert "Saved." in player.locator(".messages").inner_text()
    assert player.input_value("input[name=number]") == "7"

    spectator = page_as(None)
    spectator.goto(url)
    assert "Round 0 total" not in spectator.content()
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    spectator.wait_for_selector("text=Round 0 total: 7.", timeout=10000)
    assert "you picked" not in spectator.content()
