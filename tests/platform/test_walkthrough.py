"""A walk through the whole site in a real browser.

The host sets a game up in the admin, players submit, the round closes, a spectator reads the result.
Set GENIUS_SCREENSHOTS=<folder> to keep a picture of each step.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.platform.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    folder = os.environ.get("GENIUS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_host_sets_up_in_the_admin_players_submit_the_round_closes_a_spectator_reads(
    season, hank, alice, bob, page_as, live_server
):
    host = page_as(hank)
    host.goto(live_server.url + "/admin/platform/game/add/")
    host.select_option("select[name=season]", str(season.id))
    host.select_option("select[name=game_type]", "tally")
    host.fill("input[name=name]", "Walkthrough Tally")
    host.fill("input[name=seat_players]", "alice bob")
    shot(host, "01-host-creates-a-game")
    host.click("input[name=_save]")
    host.wait_for_selector("text=Seated alice (seat 1), bob (seat 2)")
    # The new game's page opens, with the settings its type does not describe in their JSON box.
    host.fill("textarea[name=settings]", '{"rounds": 2, "window_minutes": 30}')
    host.click("input[name=_save]")
    game = Game.objects.get(name="Walkthrough Tally")
    assert game.seats.count() == 2
    host.wait_for_selector("text=was changed successfully")
    game.refresh_from_db()
    assert game.settings["rounds"] == 2

    host.check(f"input[name=_selected_action][value='{game.id}']")
    host.select_option("select[name=action]", "start")
    host.click("button[name=index]")
    host.wait_for_selector("text=Start Walkthrough Tally: done.")

    for user, number in ((alice, "4"), (bob, "5")):
        player = page_as(user, width=360)
        player.goto(f"{live_server.url}/games/{game.id}/")
        player.fill("input[name=number]", number)
        player.click("button[name=save]")
        player.wait_for_selector("text=Saved.")
        shot(player, f"02-{user.username}-saves-the-round-form")

    spectator = page_as(None)
    spectator.goto(f"{live_server.url}/games/{game.id}/")
    assert "Round 0 total" not in spectator.content()

    host.goto(live_server.url + "/admin/platform/game/")
    host.check(f"input[name=_selected_action][value='{game.id}']")
    host.select_option("select[name=action]", "resolve_now")
    host.click("button[name=index]")
    host.click("button[name=confirm]")  # early: it asks first (issue 29.4)
    host.wait_for_selector("text=Resolve Walkthrough Tally: done.")

    spectator.wait_for_selector("text=Round 0 total: 9.", timeout=10000)
    assert "you picked" not in spectator.content()
    shot(spectator, "03-spectator-reads-the-result")
