"""Issue 21's "done": a host runs a nine-player Horse Race round from the game's admin page, in a browser,
without typing JSON, and gives a Cards on the Table heat verdict there; the page loads are counted.

Set GENIUS_SCREENSHOTS=<folder> to keep pictures of the console (1280 and 390 px wide); the README's are
taken with GENIUS_SCREENSHOTS=docs/screenshots.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core import mail

from games.horse_race.models import MovementTable
from games.platform.models import Game, Round
from games.platform.services.rounds import submission_save
from tests.cards_table.site_support import make_game as make_cards
from tests.horse_race.site_support import NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name: str) -> None:
    folder = os.environ.get("GENIUS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))  # what the host sees first: the console


class Loads:
    """Counts the documents a page loads (every navigation: a link, a form's POST and its redirect's GET)."""

    def __init__(self, page):
        self.count = 0
        page.on("load", self._loaded)

    def _loaded(self, _page):
        self.count += 1


def said(page) -> str:
    """The admin's messages after the last action (what the button answered)."""
    return page.locator("ul.messagelist").inner_text()


def act(page, selector: str) -> None:
    """Click what submits a form (or follows a link) and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def test_a_host_runs_a_nine_player_horse_race_round_from_the_console(
    season, hank, make_user, page_as, live_server
):
    players = [make_user(name) for name in NAMES]
    host = page_as(hank, width=1280)
    loads = Loads(host)
    admin = live_server.url + "/admin"

    # Add the game and seat nine players in one go: the new game's page (the console) opens.
    host.goto(f"{admin}/platform/game/add/")
    host.select_option("select[name=season]", str(season.id))
    host.select_option("select[name=game_type]", "horse_race")
    host.fill("input[name=name]", "Tuesday Race")
    host.fill("input[name=seat_players]", " ".join(NAMES))
    act(host, "input[name=_save]")
    assert "Seated ann (seat 1), ben (seat 2)" in said(host) and "9 players in all" in said(host)
    game = Game.objects.get(name="Tuesday Race")
    assert host.locator("#console tbody tr").count() == 9
    assert "Before the start: the movement table is missing" in host.inner_text("#console")

    # The movement table: one value typed and saved is a draft, then drawn from the seed.
    act(host, "#console >> text=Enter the hidden data")
    host.fill("input[name=A1]", "2")
    act(host, "input[name=_continue]")
    assert "Saved as a draft: 89 cells missing." in said(host)
    host.check("input[name=from_seed]")
    act(host, "input[name=_save]")
    assert MovementTable.objects.get(game=game).summary() == ""

    # A setting through its field, with its ruling's sentence beside it.
    host.goto(f"{admin}/platform/game/{game.id}/change/")
    assert "For Round 0, you have 48 hours to submit" in host.inner_text("#game_form")
    host.fill("input[name=set__round0_hours]", "36")
    act(host, "input[name=_continue]")
    game.refresh_from_db()
    assert game.settings["round0_hours"] == 36

    act(host, "button[value=start]")
    assert said(host).startswith("Started: Round 0 is open until")
    shot(host, "admin-console-started")

    # Six players save (three of them final); the console says who is missing, and reminds them.
    game.refresh_from_db()
    for user in players[:6]:
        seat = game.seats.get(user=user)
        submission_save(
            seat=seat,
            round_number=0,
            payload={"ability": {"kind": "clue", "use": {"ABCDEFGHI"[seat.number]: 1}}},
            final=seat.number < 3,
        )
    host.reload()
    table = host.inner_text("#console table")
    assert "Round 0: 3 final, 3 saved, 3 not submitted" in table and "Clue with A×1" in table
    assert "Not submitted: gus, hal, ivy." in host.inner_text("#console")
    mail.outbox.clear()
    act(host, "text=Remind those missing")
    assert "gus: email sent; hal: email sent; ivy: email sent." in said(host)
    assert sorted(m.to[0] for m in mail.outbox) == [f"{n}@example.com" for n in ("gus", "hal", "ivy")]
    shot(host, "admin-console")
    phone = page_as(hank, width=390)
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{admin}/platform/game/{game.id}/change/")
    shot(phone, "admin-console-phone")

    act(host, "button[value=resolve]")  # early: it asks first, naming the consequence
    assert "Close Round 0 now, 35 h early? 3 players have not submitted." in host.inner_text("#console")
    act(host, "#console button[name=confirm]")
    assert said(host).startswith("Round 0 resolved. Round 1 is open until")
    assert Round.objects.get(game=game, number=0).status == Round.Status.RESOLVED

    # Cards on the Table: a round asked to close early waits for a heat verdict, given in place.
    cards = make_cards(season, hank, players[:3] + [make_user(n) for n in ("jo", "kim", "lu", "max")])
    assert cards.seats.count() == 7
    submission_save(seat=cards.seats.get(number=2), round_number=1, payload={"heat_guess": "hot corners"})
    host.goto(f"{admin}/platform/game/{cards.id}/change/")
    act(host, "button[value=resolve]")
    act(host, "#console button[name=confirm]")
    assert "Round 1 was not resolved: waiting for 1 verdict (cat)." in said(host)
    assert "Heat indicator guess: “hot corners”" in host.inner_text("#console")
    shot(host, "admin-console-verdict")
    act(host, "#console button[value=Wrong]")
    assert said(host).startswith("Verdict given: cat, wrong. Round 1 resolved. Round 2 is open until")
    assert Round.objects.get(game=cards, number=1).status == Round.Status.RESOLVED

    # One page load for each step above (a form's POST and the redirect it answers with make one), Resolve
    # now's question included.
    assert loads.count == 16
