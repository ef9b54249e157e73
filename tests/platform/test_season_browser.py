"""A season in a real browser from an Arms Race: its sole loser the Elimination Candidate, the pick, a Death
Match lost on the clock, and a Token of Life spent instead of an elimination (the horse race's whole season,
from an empty site, is test_season_from_an_empty_site_browser.py).

Everything a person does here is done on the site's pages: the hosts in the admin, the players on their game
pages and the pick page. Nothing is typed as JSON and nothing is written to the database by the test; it
reads the database only to check what the pages said. Time is moved only where the site must wait (a clock
running out). Set GENIUS_SCREENSHOTS=docs/screenshots/season to keep a picture of each step.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.platform.models import DeathMatchPick, Game, SeasonPlayer
from tests.season_play import (
    shot,
)
from tests.sitting import sit_down_in
from tests.sweeping import sweep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Host:
    """A host at the admin: every step is a form filled in or an action run from a list."""

    def __init__(self, page, url: str):
        self.page, self.url = page, url

    def go(self, path: str):
        self.page.goto(self.url + path)

    def run(self, model: str, ids: list[int], action: str, says: str) -> None:
        """Select rows of an admin list, run an action, and read the message it answers with."""
        self.go(f"/admin/{model}/")
        for pk in ids:
            self.page.check(f"input[name=_selected_action][value='{pk}']")
        self.page.select_option("select[name=action]", action)
        self.page.click("button[name=index]")
        self.page.wait_for_load_state()
        if self.page.locator("button[name=confirm]").count():
            self.page.click("button[name=confirm]")  # Resolve now and Pause ask first (issue 29.4)
        self.page.wait_for_selector(f"text={says}")

    def create_game(self, season_id: int, game_type: str, name: str, seed: int, players: list[str]) -> Game:
        self.go("/admin/platform/game/add/")
        self.page.select_option("select[name=season]", str(season_id))
        self.page.select_option("select[name=game_type]", game_type)
        self.page.fill("input[name=name]", name)
        self.page.fill("input[name=seed]", str(seed))
        self.page.fill("input[name=seat_players]", " ".join(players))
        self.page.click("input[name=_save]")
        self.page.wait_for_selector("text=Seated")
        return Game.objects.get(name=name)

    def settings(self, game: Game, **boxes) -> None:
        """Type settings into their own boxes on the game's page (a tick box: True or False)."""
        self.go(f"/admin/platform/game/{game.id}/change/")
        for name, value in boxes.items():
            box = f"[name=set__{name}]"
            if isinstance(value, bool):
                self.page.set_checked(box, value)
            else:
                self.page.fill(box, str(value))
        self.page.click("input[name=_save]")
        self.page.wait_for_selector("text=was changed successfully")


def season_made_by_the_organiser(organiser, url: str, name: str):
    """A superuser makes the season (only superusers make seasons) and names hank its host."""
    from games.platform.models import Season

    organiser.goto(url + "/admin/platform/season/add/")
    organiser.fill("input[name=name]", name)
    organiser.select_option("#id_hosts_from", label="hank")
    organiser.click("#id_hosts_add")
    organiser.click("input[name=_save]")
    organiser.wait_for_selector("text=was added successfully")
    return Season.objects.get(name=name)


def elimination_candidate_picks(page, game_url: str) -> str:
    """The EC opens the pick from the game's page and picks the first player offered; returns the name."""
    page.goto(game_url)
    page.get_by_role("link", name=re.compile("Death Match pick")).click()
    opponent = page.locator("select[name=opponent] option").first.inner_text()
    page.select_option("select[name=opponent]", label=opponent)
    page.get_by_role("button", name="Pick", exact=True).click()
    page.wait_for_selector(f"text=You picked {opponent}.")
    return opponent


def death_match_lost_on_the_clock(host: Host, main: Game, candidate, opponent, url: str, prefix: str) -> Game:
    """The hosts make the Death Match from the pick, give it a 30-second reserve and start it; each player
    makes their first move live, then the candidate lets the turn and the reserve run out."""
    pick = DeathMatchPick.objects.get(main_match=main)
    host.run(
        "platform/deathmatchpick", [pick.id], "create_death_match", f"Death Match for {main.name}: done."
    )
    dm = Game.objects.get(decides_pick=pick)
    host.settings(dm, reserve_seconds=30)
    host.run("platform/game", [dm.id], "start", f"Start {dm.name}: done.")
    dm_url = url + reverse("game", args=[dm.id])
    for page in (candidate, opponent):
        sit_down_in(page, dm_url)  # the clocks start when both are here
    for page in (candidate, opponent):
        page.goto(dm_url)
        page.wait_for_selector("button[name=action]", timeout=10000)  # the opponent's by polling
        while page.locator("button[name=action]").count():
            with page.expect_navigation():
                page.locator("button[name=action]").first.click()
    candidate.wait_for_selector("button[name=action]", timeout=10000)
    shot(candidate, f"{prefix}-the-death-match-waits-on-the-candidate", full=False)
    with time_machine.travel(timezone.now() + timedelta(minutes=5), tick=False):
        for _ in range(4):
            sweep()  # what beat does every 5 s: the turn runs out, then the reserve, 30 s at a time
    dm.refresh_from_db()
    assert dm.status == Game.Status.FINISHED
    candidate.goto(dm_url)
    candidate.wait_for_selector("text=ran out of reserve time and loses")
    return dm


def test_a_season_from_an_arms_race_to_a_token_of_life_spent(make_user, live_server, page_as):
    url = live_server.url
    organiser = make_user("olga", is_staff=True, is_superuser=True)
    hank = make_user("hank", is_staff=True)
    names = ["ana", "ben", "cleo"]
    players = {name: make_user(name) for name in names}
    season = season_made_by_the_organiser(page_as(organiser), url, "Season 8")
    host = Host(page_as(hank, width=1200), url)
    arms = host.create_game(season.id, "arms_race", "Arms Race 1", 404, names)
    host.settings(arms, **{"rounds": 1, "wild_cards_offered": False})
    host.run("platform/game", [arms.id], "start", "Start Arms Race 1: done.")

    # Each attacker tells the truth about their first card; each target calls "truth" and is right.
    game_url = url + reverse("game", args=[arms.id])
    pages = {name: page_as(players[name], width=390) for name in names}
    for page in pages.values():
        sit_down_in(page, game_url)  # the clocks start when all three are here
    for turn in range(len(names) * 2 + 1):
        acted = False
        for page in pages.values():
            page.goto(game_url)
            if page.locator("select[name=card]").count():
                card = page.locator("select[name=card] option").first.get_attribute("value")
                page.select_option("select[name=card]", card)
                page.select_option("select[name=claim]", card)
                if turn == 0:
                    shot(page, "11-an-arms-race-attack")
                with page.expect_navigation():
                    page.click("button[name=move]")
                acted = True
            elif page.get_by_role("button", name='Challenge: "truth"').count():
                with page.expect_navigation():
                    page.get_by_role("button", name='Challenge: "truth"').click()
                acted = True
        if not acted:
            break
    arms.refresh_from_db()
    assert arms.status == Game.Status.FINISHED
    spectator = page_as(None)
    spectator.goto(game_url)
    named = re.search(r"(\w+) is the Elimination Candidate and picks", spectator.locator("body").inner_text())
    assert named, "the sole loser is named the Elimination Candidate"
    ec = named.group(1)
    assert "is the sole loser" in spectator.locator("body").inner_text()
    shot(spectator, "12-the-arms-races-sole-loser-is-the-elimination-candidate", full=False)

    # An earlier season's Token of Life, granted by the host in the season's admin, with its reason.
    host.go(f"/admin/platform/season/{season.id}/change/")
    host.page.get_by_label(re.compile(rf"(^|\s){ec}: ")).check()
    host.page.select_option("select[name=grant_what]", "tokens_of_life")
    host.page.fill("input[name=grant_delta]", "1")
    host.page.fill("input[name=grant_reason]", "carried from Season 7")
    host.page.click("input[name=_save]")
    host.page.wait_for_selector(f"text=Granted 1 Token of Life to {ec}: {ec} 1.")

    opponent = elimination_candidate_picks(pages[ec], game_url)
    death_match_lost_on_the_clock(host, arms, pages[ec], pages[opponent], url, "13")

    # The season spends the candidate's Token of Life instead of eliminating them.
    standings = page_as(None)
    standings.goto(url + reverse("season", args=[season.id]))
    cells = standings.locator("tr", has_text=ec).locator("td").all_inner_texts()
    assert cells[3] == "0" and cells[1] == "in"  # its Tokens of Life, and its status
    shot(standings, "14-a-token-of-life-is-spent-instead")
    assert not SeasonPlayer.objects.get(season=season, user__username=ec).eliminated


def test_a_season_from_cards_on_the_table_to_an_elimination(make_user, live_server, page_as):
    url = live_server.url
    organiser = make_user("olga", is_staff=True, is_superuser=True)
    hank = make_user("hank", is_staff=True)
    names = ["ann", "ben", "cat", "dan"]
    players = {name: make_user(name) for name in names}
    season = season_made_by_the_organiser(page_as(organiser), url, "Season 9")
    host = Host(page_as(hank, width=1200), url)
    cards = host.create_game(season.id, "cards_table", "Cards 1", 4242, names)
    # A table of four: Tokens of Life to the top two (Threshold 2), as ten players would give them to five.
    host.settings(cards, rules__tokens_of_life_threshold=2)
    host.go("/admin/cards_table/boardset/add/")
    host.page.select_option("select[name=game]", str(cards.id))
    host.page.check("input[name=from_seed]")
    host.page.select_option("select[name=heat_rule]", "extremes")
    host.page.click("input[name=_save]")
    host.page.wait_for_selector("text=was added successfully")
    host.run("platform/game", [cards.id], "start", "Start Cards 1: done.")

    # ann and ben turn two cards a round, declaring an action between them; dan turns one; cat none.
    game_url = url + reverse("game", args=[cards.id])
    pages = {name: page_as(players[name], width=390) for name in names}
    for page in pages.values():
        page.on("dialog", lambda dialog: dialog.accept())  # "Flips are final. Turn over R1C1?"
    for number in (1, 2, 3):
        for seat, name in enumerate(names[:2]):
            page = pages[name]
            page.goto(game_url)
            with page.expect_navigation():
                page.get_by_role("button", name=f"Turn over R{seat + 1}C{number}").click()
            page.get_by_label(["Nullify", "Replace", "Scout"][(seat + number) % 3]).check()
            with page.expect_navigation():
                page.get_by_role("button", name="Declare").click()
            with page.expect_navigation():
                page.get_by_role("button", name=f"Turn over R{seat + 2}C{number + 1}").click()
            if number == 1 and seat == 0:
                shot(page, "15-a-cards-on-the-table-player-turns-two-cards", full=False)
        pages["dan"].goto(game_url)
        with pages["dan"].expect_navigation():
            pages["dan"].get_by_role("button", name=f"Turn over R5C{number}").click()
        host.run("platform/game", [cards.id], "resolve_now", "Resolve Cards 1: done.")
    cards.refresh_from_db()
    assert cards.status == Game.Status.FINISHED
    spectator = page_as(None)
    spectator.goto(game_url)
    text = spectator.locator("body").inner_text()
    assert "Points: ann: 9, ben: 11, cat: 3, dan: 3" in text
    assert "cat is the loser and elimination candidate (lowest card sum)." in text
    assert "cat is the Elimination Candidate and picks" in text

    opponent = elimination_candidate_picks(pages["cat"], game_url)
    assert opponent == "dan"  # ann and ben hold the Tokens of Life: immune, as the season's settings say
    death_match_lost_on_the_clock(host, cards, pages["cat"], pages[opponent], url, "16")

    standings = page_as(None)
    standings.goto(url + reverse("season", args=[season.id]))
    assert standings.locator("tr", has_text="cat").locator("td.status").inner_text() == "eliminated"
    shot(standings, "17-cards-on-the-tables-candidate-is-eliminated")
    assert SeasonPlayer.objects.get(season=season, user__username="cat").eliminated
