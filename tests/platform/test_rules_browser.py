"""The rules pages in a real browser, on a desktop and a 390 px phone: reached from the top bar and from a
game, the rulings beside the guide (after it on a phone), nothing running off the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.platform.services import games as game_services
from tests.sitting import all_here

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_visitor_finds_every_games_rules_and_reads_the_guide_beside_the_rulings(
    page_as, live_server, width
):
    page = page_as(None, width=width)
    page.goto(live_server.url + reverse("home"))
    page.get_by_role("link", name="Rules", exact=True).click()
    page.wait_for_url("**/rules/")
    links = page.locator("main ul.games a")
    names = [
        "Arms Race",
        "Blackout Middle Horse Race",
        "Cards on the Table",
        "Host-run Death Match",
        "Host-run Main Match",
        "Middle Marathon",
    ]
    assert links.all_inner_texts() == names
    for name in names:
        page.goto(live_server.url + reverse("rules-index"))
        page.get_by_role("link", name=name, exact=True).click()
        page.wait_for_selector("#rulings-title")
        assert page.locator("h1").inner_text().startswith(name)
        guide, rulings = (
            page.locator("article.guide").bounding_box(),
            page.locator("aside.rulings").bounding_box(),
        )
        if width >= 1024:
            assert rulings["x"] > guide["x"] + guide["width"] - 1  # beside it
        else:
            assert rulings["y"] > guide["y"] + guide["height"] - 1  # after it
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling


def test_a_player_opens_the_rules_from_the_game_page(season, hank, alice, bob, page_as, live_server):
    duel = game_services.game_create(
        season=season, game_type="middle_marathon", name="The duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=duel, user=alice, actor=hank)
    game_services.game_seat(game=duel, user=bob, actor=hank)
    game_services.game_start(game=duel, actor=hank)
    all_here(duel)  # the players sit down: the clocks run
    page = page_as(alice, width=390)
    page.goto(live_server.url + reverse("game", args=[duel.id]))
    page.get_by_role("link", name="Rules of Middle Marathon").click()
    page.wait_for_url("**/rules/middle_marathon/")
    page.get_by_role("link", name="The rulings").click()
    assert page.url.endswith("#rulings-title")
    assert page.locator("#rulings-title").is_visible()
