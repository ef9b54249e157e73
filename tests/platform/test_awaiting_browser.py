"""Through a real browser, on a desktop and a 390 px phone: "awaiting you" in order, and the title's count."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of
from tests.sitting import all_here

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("GENIUS_SHOTS")  # a folder: the test leaves its screenshots there to look at


def duel_of(season, hank, first, second, name):
    game = game_services.game_create(
        season=season, game_type="tally_duel", name=name, hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=first, actor=hank)
    game_services.game_seat(game=game, user=second, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    return game


@pytest.mark.parametrize("width", [1000, 390])
def test_the_home_page_lists_what_awaits_the_soonest_first_and_every_title_counts(
    season, hank, alice, bob, charlie, tally, page_as, live_server, width
):
    duel = duel_of(season, hank, alice, bob, "Duel at noon")  # alice's turn: a minute
    duel_of(season, hank, bob, charlie, "Someone else's duel")  # bob's turn: nothing for alice
    home = page_as(alice, width=width)
    home.goto(live_server.url + reverse("home"))
    rows = home.locator(".awaiting-list li")
    assert rows.count() == 2
    assert rows.nth(0).locator("a").inner_text() == "Duel at noon"
    assert "Your turn" in rows.nth(0).inner_text()
    assert re.search(r"clock \d+s|clock 1m \d+s", rows.nth(0).inner_text())
    assert "Round 0: not submitted" in rows.nth(1).inner_text()
    assert re.search(r"closes in (59m|1h 0m) \d+s", rows.nth(1).inner_text())
    assert home.title() == "(2) genius"
    box = home.locator(".awaiting").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width  # nothing runs off a phone's screen
    if SHOTS:
        home.screenshot(path=f"{SHOTS}/awaiting-{width}.png", full_page=True)

    # Another page: its body may come from the cache, shared by every player of the game; the count is
    # the viewer's own, asked by the page's script.
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3}, final=True)
    game_page = page_as(alice, width=width)
    game_page.goto(live_server.url + reverse("game", args=[tally.id]))
    expect(game_page).to_have_title("(1) Tally · genius")
    bob_page = page_as(bob, width=width)  # alice's turn in this duel; bob's own things elsewhere
    bob_page.goto(live_server.url + reverse("game", args=[duel.id]))
    expect(bob_page).to_have_title("(2) Duel at noon · genius")
    charlie_page = page_as(charlie, width=width)  # bob's turn in charlie's duel: nothing awaits charlie
    charlie_page.goto(live_server.url + reverse("game", args=[duel.id]))
    expect(charlie_page).to_have_title("Duel at noon · genius")
    spectator = page_as(None, width=width)
    spectator.goto(live_server.url + reverse("game", args=[tally.id]))
    assert spectator.title() == "Tally · genius"


def test_a_page_left_open_counts_what_awaits_in_other_games_too(
    season, hank, alice, bob, tally, page_as, live_server
):
    """The title matters most in a background tab: news from another game (which this page's polls never
    bring) reaches its count within a minute."""
    page = page_as(alice, width=390)
    page.clock.install()
    page.goto(live_server.url + reverse("game", args=[tally.id]))
    expect(page).to_have_title("(1) Tally · genius")
    duel_of(season, hank, alice, bob, "Duel at noon")  # alice's turn, in a game this page does not show
    page.clock.fast_forward("01:01")
    expect(page).to_have_title("(2) Tally · genius")


def test_a_home_page_left_open_follows_what_awaits(season, hank, alice, bob, tally, page_as, live_server):
    page = page_as(alice, width=1000)
    page.clock.install()
    page.goto(live_server.url + reverse("home"))
    expect(page.locator(".awaiting-list li")).to_have_count(1)
    expect(page).to_have_title("(1) genius")
    duel_of(season, hank, alice, bob, "Duel at noon")
    page.clock.fast_forward("01:01")
    expect(page.locator(".awaiting-list li")).to_have_count(2)
    expect(page.locator(".awaiting-list li").first).to_contain_text("Duel at noon")
    expect(page).to_have_title("(2) genius")
