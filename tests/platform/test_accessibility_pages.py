"""Every page type, as each kind of viewer, on a desktop (1280 px) and a 390 px phone, through axe-core (the
check `page_as` runs on every page visited): home, each game type as a player and as a spectator, pair
chats, the ledger, the season, the rules (a host-run game's own rules too), login, the site's 404 page, the
account pages, the hosts' admin console (with a host-run game's design and its resolve page) and an empty
site's first-run page. A serious or critical fault fails."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from games.host_run.models import Design
from games.platform import registry
from games.platform.models import Game, Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_page_type_has_no_serious_accessibility_fault_on_a_desktop_and_a_phone(page_as, live_server):
    for toy in ("tally", "tally_duel"):  # the tests' own types are not the site's
        registry.unregister(toy)
    visited = set()
    for width in (1280, 390):  # an empty site's first page: it asks for the first host
        page = page_as(None, width=width)
        first_run = live_server.url + reverse("first-run")
        assert page.goto(first_run).status == 200
        page.click("button[type=submit]")  # sent empty: each field's error beside it
        page.wait_for_selector(".has-error")
        page.goto(first_run)
        visited.add((f"a visitor at {width} px", first_run))
        page.reload()
    call_command("load_demo", stdout=StringIO())  # a season with a running game of every type
    users = {u.username: u for u in get_user_model().objects.all()}
    season = Season.objects.get()
    games = {g.game_type: g for g in Game.objects.all()}
    assert set(games) == {
        "horse_race",
        "cards_table",
        "middle_marathon",
        "arms_race",
        "host_run",
        "host_run_death",
    }
    host_run = games["host_run"]
    url = live_server.url
    pages = {
        "player1": [
            reverse("home"),
            *(reverse("game", args=[g.id]) for g in games.values()),
            reverse("chat-list", args=[games["horse_race"].id]),
            reverse("chat", args=[games["horse_race"].id, 0, 1]),
            reverse("game-rules", args=[host_run.id]),  # the hosts' own rules
            reverse("my-ledger", args=[season.id]),
            reverse("season", args=[season.id]),
            reverse("profile"),
            reverse("notification-settings"),
        ],
        "spectator": [reverse("home"), *(reverse("game", args=[g.id]) for g in games.values())],
        None: [
            reverse("home"),
            reverse("login"),
            reverse("season", args=[season.id]),
            reverse("rules-index"),
            *(reverse("rules", args=[slug]) for slug in games),
            reverse("game-rules", args=[host_run.id]),
            reverse("game", args=[games["arms_race"].id]),
            "/no-such-page/",  # the site's own 404 page
        ],
        "host": [
            reverse("admin:index"),
            reverse("admin:platform_game_changelist"),
            *(reverse("admin:platform_game_change", args=[g.id]) for g in games.values()),
            reverse("admin:platform_season_change", args=[season.id]),
            reverse("admin:platform_season_add"),
            reverse("admin:host_run_design_change", args=[Design.objects.get(game=host_run).pk]),
            reverse("admin:host_run_resolution_resolve", args=[host_run.id]),
        ],
    }

    for width in (1280, 390):
        for username, paths in pages.items():
            page = page_as(users[username] if username else None, width=width)
            who = f"{username or 'a visitor'} at {width} px"
            for path in paths:
                response = page.goto(url + path)
                assert response.status == (404 if path == "/no-such-page/" else 200), path
                visited.add((who, url + path))
            page.reload()  # the last page's check is under way: a move waits for it
    assert page_as.axe.checked == visited  # every page was checked, once per viewer and width
