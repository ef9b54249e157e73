"""A host runs a whole season alone, in a real browser, from an empty site to an elimination (issue 29).

The database starts with no account at all. The first visitor is asked for the site's first host (the
first-run page, the README's first step); that host creates the season, sets it up through its form (no JSON
typed), makes an invitation whose link nine players open to sign up and join, creates and seeds a Blackout
Middle Horse Race, starts it from the season's console, and runs it to its end; the players save their rounds
from their own pages (at 390 px). The host then creates the Death Match from the season's console (one press,
its start time picked there), the two play it live, and the standings show who is eliminated.

Nothing is written to the database by the test and nothing is typed as JSON; it reads the database only to
check what the pages said. The site's clock is moved only where the season waits for time to pass (a round's
window, the Death Match's start time). The host's page loads and clicks are counted (`Tally`) and bounded, so
a change that makes hosting take more steps fails here. axe checks every page visited (`page_as`).
Set GENIUS_SCREENSHOTS=docs/screenshots/season-from-empty to keep a picture of each step, at 1280 and 390 px.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Game, Invitation, LedgerAccount, Season, SeasonPlayer
from tests.season_play import RACE, play_the_death_match, race_round_script, save_round, shot, window_closes
from tests.sitting import sit_down_in
from tests.sweeping import sweep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long horse-race password 7"


class Tally:
    """The host's effort: every page the host's browser loads and every button or link the host presses."""

    def __init__(self):
        self.loads = 0
        self.clicks = 0

    def watch(self, page):
        page.on("load", lambda: setattr(self, "loads", self.loads + 1))
        return page

    def click(self, page, selector, **kwargs):
        """Press `selector` (a CSS or text selector, or a Playwright locator) on `page`."""
        self.clicks += 1
        if isinstance(selector, str):
            page.click(selector, **kwargs)
        else:
            selector.click(**kwargs)


def first_host(page, url: str, tally: Tally) -> None:
    """The empty site's first visitor is asked for its first host, and becomes it."""
    page.goto(url + "/")
    page.wait_for_selector("text=Your site's first host")
    shot(page, "01-the-empty-site-asks-for-its-first-host-390")
    page.fill("input[name=username]", "hank")
    page.fill("input[name=email]", "hank@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    tally.click(page, "button:has-text('Make the host and open the admin')")
    page.wait_for_selector("text=you are this site's first host")


def a_player_joins(page, link: str, name: str) -> None:
    """A player opens the invitation's link, makes an account, and is in the season."""
    page.goto(link)
    page.click("text=Create an account and join")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=You are a player of Season 9")


def test_a_host_runs_a_season_alone_from_an_empty_site_to_an_elimination(live_server, page_as):
    url = live_server.url
    assert not get_user_model().objects.exists()
    tally = Tally()

    # The first host, from the empty site's first page; the admin opens on "Add season".
    host = tally.watch(page_as(None, width=1280))
    first_host(host, url, tally)
    host.fill("input[name=name]", "Season 9")
    host.fill("input[name=set__starting_garnets]", "2")
    shot(host, "02-the-host-names-the-season-and-its-starting-garnets-1280")
    tally.click(host, "input[name=_continue]")
    host.wait_for_selector("text=was added successfully")
    season = Season.objects.get(name="Season 9")
    assert [h.username for h in season.hosts.all()] == ["hank"]

    # An invitation from the season's page (the season already picked), its link read off the page.
    tally.click(host, host.get_by_role("link", name="invite players"))
    assert host.input_value("select[name=season]") == str(season.id)
    tally.click(host, "input[name=_save]")
    host.wait_for_selector("text=Invitation made")
    shot(host, "03-the-invitation-and-its-link-1280")
    invitation = Invitation.objects.get(season=season)
    shown = host.locator("input[value*='/join/']").input_value()
    assert shown.endswith(f"/join/{invitation.token}/"), "the page shows the link to hand out"
    link = url + shown[shown.index("/join/") :]  # the site's own address is GENIUS_SITE_URL's, not the test's

    players = {}
    for name in RACE:
        page = page_as(None, width=390)
        a_player_joins(page, link, name)
        players[name] = page
    shot(players["ivy"], "04-a-player-joined-from-the-link-390")
    garnets = {
        a.user.username: a.balance for a in LedgerAccount.objects.filter(season=season, what="garnets")
    }
    assert garnets == dict.fromkeys(RACE, 2), "each player was given the starting garnets as they joined"

    # The Main Match: created in the season with its nine players, its movement table drawn from its seed,
    # its windows 30 minutes; then started from the season's console.
    host.goto(f"{url}/admin/platform/game/add/")
    host.select_option("select[name=season]", str(season.id))
    host.select_option("select[name=game_type]", "horse_race")
    host.fill("input[name=name]", "Main Match 1")
    host.fill("input[name=seed]", "20261")
    host.fill("input[name=seat_players]", " ".join(RACE))
    tally.click(host, "input[name=_continue]")
    host.wait_for_selector("text=Seated")
    race = Game.objects.get(name="Main Match 1")
    host.fill("input[name=set__window_minutes]", "30")
    tally.click(host, "input[name=_continue]")
    host.wait_for_selector("text=was changed successfully")
    tally.click(host, "text=Enter the hidden data")
    host.check("input[name=from_seed]")
    tally.click(host, "input[name=_save]")
    host.wait_for_selector("text=was added successfully")

    season_console = f"{url}/admin/platform/season/{season.id}/change/"
    host.goto(season_console)
    shot(host, "05-the-season-console-has-the-race-ready-1280")
    tally.click(host, f"#game-{race.id} button:has-text('Start')")
    host.wait_for_selector("text=Started Main Match 1.")
    host.wait_for_selector("text=Round 0 closes in")

    with time_machine.travel(timezone.now(), tick=True) as clock:
        game_url = url + reverse("game", args=[race.id])
        for number in range(11):
            for name, fill in race_round_script(number):
                save_round(players[name], game_url, fill)
            if number == 0:
                # Round 0 closed at once from the game's console: Resolve now asks first, naming what it does.
                host.goto(f"{url}/admin/platform/game/{race.id}/change/")
                tally.click(host, "button:has-text('Resolve now')")
                host.wait_for_selector("text=Close Round 0 now")
                shot(host, "06-resolve-now-asks-first-1280")
                tally.click(host, "button:has-text('Yes')")
                host.wait_for_selector("text=Round 0 resolved.")
            else:
                window_closes(clock)

        # The decision rounds: ann, the sole winner, gives the other Token of Life, then votes on the EC.
        ann = players["ann"]
        ann.goto(game_url)
        ann.select_option("select[name=choice]", label="ben")
        ann.click("button[name=save]")
        ann.wait_for_selector("text=Saved.")
        window_closes(clock)
        ann.goto(game_url)
        ann.select_option("select[name=vote]", label="ivy")
        ann.click("button[name=save]")
        ann.wait_for_selector("text=Saved.")
        window_closes(clock)
        race.refresh_from_db()
        assert race.status == Game.Status.FINISHED

        # The season's console says how it ended and what comes next: ivy picks.
        phone_host = tally.watch(page_as(get_user_model().objects.get(username="hank"), width=390))
        phone_host.goto(season_console)
        phone_host.wait_for_selector("text=ivy is the EC")
        phone_host.wait_for_selector("text=ivy picks a Death Match opponent")
        shot(phone_host, "07-the-season-console-after-the-main-match-390")

        ivy = players["ivy"]
        ivy.goto(game_url)
        ivy.get_by_role("link", name="Death Match pick: ivy").click()
        ivy.select_option("select[name=opponent]", label="hal")
        ivy.get_by_role("button", name="Pick", exact=True).click()
        ivy.wait_for_selector("text=You picked hal.")

        # One press on the season's console: the Death Match created, seated, timed and opened.
        phone_host.goto(season_console)
        phone_host.wait_for_selector("text=Create the Death Match ivy vs hal")
        shot(phone_host, "08-create-the-death-match-from-the-season-console-390")
        tally.click(phone_host, f"#game-{race.id} button:has-text('Create')")
        phone_host.wait_for_selector("text=Create the Death Match ivy vs hal, its clocks starting")
        shot(phone_host, "09-it-asks-first-naming-what-it-does-390", full=False)
        tally.click(phone_host, "button:has-text('Yes, create it')")
        phone_host.wait_for_selector("text=Death Match after Main Match 1")
        dm = Game.objects.get(name="Death Match after Main Match 1")
        assert {s.user.username for s in dm.seats.all()} == {"ivy", "hal"}
        assert dm.status == Game.Status.RUNNING

        # The two sit down; the clocks start at the start time the host picked, then they play it live.
        dm_url = url + reverse("game", args=[dm.id])
        hal = players["hal"]
        for page in (ivy, hal):
            sit_down_in(page, dm_url)
        clock.shift(timedelta(hours=25))
        sweep()
        moves = play_the_death_match({"ivy": ivy, "hal": hal}, dm_url, random.Random(2606))
        dm.refresh_from_db()
        assert dm.status == Game.Status.FINISHED and moves > 10
        hal.goto(dm_url)
        result = re.search(r"(ivy|hal) \((?:Blue|Red)\) wins\.", hal.locator("body").inner_text())
        assert result, "the race names its winner"
        loser = {"ivy": "hal", "hal": "ivy"}[result.group(1)]

        # The standings, as anyone reads them, and the season's console, as the host does.
        standings = page_as(None, width=390)
        standings.goto(url + reverse("season", args=[season.id]))
        row = standings.locator("tr", has_text=loser)
        assert row.locator("td.status").inner_text() == "eliminated"
        shot(standings, "10-the-standings-show-the-elimination-390")
        host.goto(season_console)
        host.wait_for_selector(f"text={loser} eliminated")
        shot(host, "11-the-season-console-at-the-end-1280")
        assert SeasonPlayer.objects.get(season=season, user__username=loser).eliminated

        # The season's next game cannot seat the eliminated player.
        host.goto(f"{url}/admin/platform/game/add/")
        host.select_option("select[name=season]", str(season.id))
        host.select_option("select[name=game_type]", "arms_race")
        host.fill("input[name=name]", "Main Match 2")
        host.fill("input[name=seat_players]", f"cat dan {loser}")
        tally.click(host, "input[name=_save]")
        host.wait_for_selector(f"text={loser} has been eliminated from Season 9.")
        nxt = Game.objects.get(name="Main Match 2")
        assert sorted(nxt.seats.values_list("user__username", flat=True)) == ["cat", "dan"]

    # The host's effort, counted: a change that makes hosting take more steps fails here (the figures are
    # in the README's "How to host a season").
    print(f"\nThe host's page loads: {tally.loads}, clicks: {tally.clicks}")
    assert tally.clicks <= 14, tally.clicks
    assert tally.loads <= 30, tally.loads
