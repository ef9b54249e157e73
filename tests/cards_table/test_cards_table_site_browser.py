"""Through a real browser: a player flips two cards (confirming each) and sees both face up at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import in_view

from .site_support import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_flips_two_cards_and_sees_them_revealed(season, hank, alice, bob, page_as, live_server):
    game = make_game(season, hank, [alice, bob])
    url = live_server.url + reverse("game", args=[game.id])
    page = page_as(alice, width=360)
    asked = []

    def confirm(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", confirm)
    page.goto(url)
    assert page.locator("button.ct-back").count() == 25

    with page.expect_navigation():
        page.get_by_role("button", name="Turn over R1C1").click()
    assert "R1C1 is a 2 blue card" in page.locator("main .messages").inner_text()
    assert in_view(page, "main .messages")  # the flip confirms itself where the player is looking
    first = page.locator('.ct-table .ct-face[data-cell="R1C1"]')
    assert "2" in first.locator(".ct-num").inner_text() and "Blue" in first.inner_text()
    assert first.locator(".ct-heat .ct-tri").count() == 4

    page.get_by_label("Replace").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Declare").click()
    assert "You declared Replace" in page.locator(".ct-declare").inner_text()

    with page.expect_navigation():
        page.get_by_role("button", name="Turn over R2C2").click()
    second = page.locator('.ct-table .ct-face[data-cell="R2C2"]')
    assert second.locator(".ct-num").inner_text() == "1" and "Blue" in second.inner_text()
    assert asked == ["Flips are final. Turn over R1C1?", "Flips are final. Turn over R2C2?"]
    assert page.locator(".ct-table button.ct-back").count() == 23
    assert "you replaced your starting card" in page.locator(".inbox").inner_text()

    # The other player and a spectator still see every card face down.
    other = page_as(bob)
    other.goto(url)
    assert other.locator(".ct-face").count() == 0
    watcher = page_as(None)
    watcher.goto(url)
    assert watcher.locator(".ct-face").count() == 0 and watcher.locator("button.ct-back").count() == 0
