"""Phone-first layouts through a real browser at 390 px (and 1280): the ledger never scrolls sideways, the
horse race's spectating table and the season's standings fit or say that they scroll (in their own box),
and Cards on the Table's guess grid is tap-sized and sits after the board it is about."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import round_resolve, submission_save
from tests.cards_table.site_support import make_game as make_cards
from tests.horse_race.site_support import make_game as make_race

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WIDTH = "document.documentElement.scrollWidth"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_ledger_and_the_spectating_table_fit_the_screen_or_say_they_scroll(
    season, hank, make_user, page_as, live_server, width
):
    players = [make_user(f"a-rather-long-player-name-{n}") for n in range(9)]
    race = make_race(season, hank, players)
    round_resolve(round_id=race.rounds.get(number=0).id, early=True)
    race.refresh_from_db()
    for seat in race.seats.all():
        submission_save(seat=seat, round_number=1, payload={"ability": None, "space": seat.number + 1})
    round_resolve(round_id=race.rounds.get(number=1).id, early=True)
    for n in range(30):
        ledger_post(
            season=season, user=players[0], what="garnets", delta=1, reason=f"a long reason, number {n}"
        )

    page = page_as(players[0], width=width)
    page.goto(live_server.url + reverse("my-ledger", args=[season.id]))
    assert page.evaluate(PAGE_WIDTH) == width
    page.goto(live_server.url + reverse("game", args=[race.id]))
    assert page.evaluate(PAGE_WIDTH) == width
    box = page.locator(".spectating .scroll-x")
    fits = box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    hint = box.locator(".scroll-hint")
    assert fits != hint.is_visible(), "a table that does not fit must say so, and only then"
    if width == 390:
        assert not fits and "scroll sideways" in hint.inner_text()

    # The season's standings, with these long names, fit even a phone: the names wrap (issue 29.6).
    page.goto(live_server.url + reverse("season", args=[season.id]))
    assert page.evaluate(PAGE_WIDTH) == width
    box = page.locator(".scroll-x", has=page.locator("table.standings"))
    fits = box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    assert fits != box.locator(".scroll-hint").is_visible(), "the standings fit, or say that they scroll"
    assert fits

    # How the site reaches you: every way's column of tick boxes fits beside the kinds (issue 30).
    page.goto(live_server.url + reverse("notification-settings"))
    assert page.evaluate(PAGE_WIDTH) == width
    grid = page.locator("table.reach-grid")
    assert grid.evaluate("t => t.getBoundingClientRect().right <= document.documentElement.clientWidth + 1")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_guess_grid_is_tap_sized_and_after_the_board(
    season, hank, make_user, page_as, live_server, width
):
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    game = make_cards(season, hank, players)
    page = page_as(players[0], width=width)
    page.goto(live_server.url + reverse("game", args=[game.id]))
    board = page.locator("#ct-board").bounding_box()
    grid = page.locator(".ct-guess").bounding_box()
    assert grid["y"] > board["y"] + board["height"]
    colour = page.get_by_label("R1C1 colour")
    assert (
        colour.bounding_box()["height"] >= 44
        and page.get_by_label("R5C5 number").bounding_box()["height"] >= 44
    )
    colour.select_option("yellow")
    # The chosen word fits its box (no "Yellov"): its width in the select's font, inside the padding and,
    # for a native select, beside Chromium's arrow (about 20 px).
    assert colour.evaluate(
        """s => { const st = getComputedStyle(s), ctx = document.createElement("canvas").getContext("2d");
                  ctx.font = st.font;
                  const arrow = st.appearance === "none" ? 0 : 20;
                  const pad = parseFloat(st.paddingLeft) + parseFloat(st.paddingRight);
                  const room = s.clientWidth - pad - arrow;
                  return ctx.measureText(s.selectedOptions[0].text).width <= room; }"""
    )
    assert page.evaluate(PAGE_WIDTH) == width
