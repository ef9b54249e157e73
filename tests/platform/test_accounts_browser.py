"""Accounts through a real browser (issue 23): joining a season from an invitation as a new user, logging in
with (a stand-in for) Discord and connecting it to an existing account, resetting a password from the email
in the test outbox, and a page's times in a chosen zone and in a visitor's browser's zone. Screenshots at 1280
and 390 px with GENIUS_SCREENSHOTS=<dir> (the README's: docs/screenshots/accounts)."""

from __future__ import annotations

import os
import re
from zoneinfo import ZoneInfo

import pytest
import responses
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Profile, SeasonPlayer
from games.platform.services.invitations import invitation_create
from games.platform.services.ledger import ledger_post
from games.platform.services.season import pick_open
from games.platform.zones import local_text
from tests.platform.discord_standin import NELLY, Discord, configure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NEW = "a-Fresh-Secret-5521"


def shoot(page, name: str) -> None:
    """GENIUS_SCREENSHOTS=docs/screenshots/accounts takes the README's pictures again."""
    where = os.environ.get("GENIUS_SCREENSHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{where}/{name}-{width}.png", full_page=True)


def test_a_newcomer_joins_the_season_from_the_invitation(season, hank, page_as, live_server):
    invitation = invitation_create(season=season, actor=hank, max_uses=5)
    page = page_as(None, width=390, zone="America/Lima")
    page.goto(live_server.url + reverse("join", args=[invitation.token]))
    assert "You are invited to play in Season 1" in page.inner_text("main")
    shoot(page, "join")
    page.click("text=Create an account and join")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=password1]", NEW)
    page.fill("input[name=password2]", NEW)
    shoot(page, "signup")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/seasons/\d+/$"))
    assert "You are a player of Season 1." in page.inner_text(".messages")
    assert "newcomer" in page.inner_text("table.standings")
    user = get_user_model().objects.get(username="newcomer")
    assert SeasonPlayer.objects.filter(season=season, user=user).exists()
    # Their browser's zone is theirs from the first page on (emails included), until they pick another.
    for _ in range(50):  # the page's script sends it as the page loads
        if Profile.objects.get(user=user).time_zone:
            break
        page.wait_for_timeout(100)
    assert Profile.objects.get(user=user).time_zone == "America/Lima"
    page.reload()
    assert page.get_attribute("body", "data-zone") == "America/Lima"


def test_logging_in_with_discord_and_connecting_it_to_an_existing_account(
    settings, alice, page_as, live_server
):
    configure(settings)
    discord = Discord(user=dict(NELLY))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add_passthru(live_server.url)
        discord.serve(mock)
        page = page_as(None)
        # The browser's trip to Discord's consent page is answered here: accepted, straight back.
        page.route(
            "https://discord.com/**",
            lambda route: route.fulfill(
                status=302, headers={"Location": discord.authorize(route.request.url)}
            ),
        )
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=login]", "alice")
        page.fill("input[name=password]", "pw-alice")
        page.click("form.card button[type=submit]")
        page.goto(live_server.url + reverse("profile"))
        shoot(page, "profile")
        page.click("text=Connect Discord")
        # Back from Discord, the site asks for alice's password before it adds a way into her account.
        page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
        page.fill("input[name=password]", "pw-alice")
        page.click("form.card button[type=submit]")
        page.wait_for_selector("text=Connected to Discord as")
        assert SocialAccount.objects.get(provider="discord").user == alice
        assert page.inner_text("header nav a[href='/account/']") == "Nelly the Great"
        page.click("text=Log out")
        page.goto(live_server.url + reverse("login"))
        shoot(page, "login")
        page.click("text=Log in with Discord")
        page.wait_for_selector("header >> text=Nelly the Great")
        assert "Log in" not in page.inner_text("header")


def test_a_forgotten_password_is_reset_from_the_email(alice, page_as, live_server):
    mail.outbox.clear()
    page = page_as(None, width=390)
    page.goto(live_server.url + reverse("login"))
    page.click("text=Forgot your password?")
    page.fill("input[name=email]", "alice@example.com")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/password/reset/done/"))
    (message,) = mail.outbox
    link = re.search(r"http://\S+(/accounts/password/reset/key/\S+/)", message.body).group(1)
    page.goto(live_server.url + link)
    page.fill("input[name=password1]", NEW)
    page.fill("input[name=password2]", NEW)
    page.click("button[type=submit]")
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", NEW)
    page.click("form.card button[type=submit]")
    page.wait_for_selector("header >> text=alice")
    assert "Log in" not in page.inner_text("header")


def test_a_pages_times_are_in_the_zone_the_player_chose(tally, alice, page_as, live_server):
    page = page_as(alice)
    page.goto(live_server.url + reverse("profile"))
    page.select_option("select[name=time_zone]", "Asia/Kolkata")
    page.click("form.card button[type=submit]")
    assert Profile.objects.get(user=alice).time_zone == "Asia/Kolkata"
    closes = tally.rounds.get(number=0).closes_at
    expected = local_text(closes, ZoneInfo("Asia/Kolkata"))
    page.goto(live_server.url + reverse("game", args=[tally.id]))
    # The game page comes from a body shared by every viewer; the script writes it in alice's zone.
    page.wait_for_selector(f"#live time.local >> text={expected}")
    shoot(page, "game-times")
    entry = ledger_post(season=tally.season, user=alice, what="garnets", delta=3, reason="a prize")
    page.goto(live_server.url + reverse("my-ledger", args=[tally.season_id]))
    assert page.inner_text("time.local") == local_text(entry.created_at, ZoneInfo("Asia/Kolkata"))
    assert page.inner_text("time.local").endswith("(Asia/Kolkata)")


def test_a_visitor_reads_times_in_their_browsers_zone_named(tally, alice, browser, live_server):
    # No profile to choose a zone on: the page's script takes the browser's own (Intl's resolved zone).
    pick_open(game=tally, candidate=alice, now=timezone.now())
    deadline = tally.death_match_pick.deadline
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="America/Lima")
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("game", args=[tally.id]))
        lima = ZoneInfo("America/Lima")
        closes = local_text(tally.rounds.get(number=0).closes_at, lima)
        page.wait_for_selector(f"#live time.local >> text={closes}")
        announced = page.locator(".feed li", has_text="is the Elimination Candidate")
        assert announced.inner_text().endswith(f"by {local_text(deadline, lima)}.")
        assert "(America/Lima)" in announced.inner_text() and "(UTC)" not in page.inner_text("main")
        shoot(page, "visitor-times")
    finally:
        context.close()


def test_without_the_script_a_pages_times_and_countdowns_are_in_the_chosen_zone(
    tally, alice, browser, live_server
):
    # The game page's body is kept in the page cache with each time a mark, written in the viewer's zone
    # as it is served: a browser that runs no script reads them, the countdown's deadline too, in alice's.
    from django.conf import settings
    from django.test import Client

    from games.platform.services.profiles import profile_save

    profile_save(user=alice, time_zone="Asia/Kolkata")
    client = Client()
    client.force_login(alice)
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False)
    try:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        for _ in range(2):  # rendered, then from the page cache
            page.goto(live_server.url + reverse("game", args=[tally.id]))
            closes = local_text(tally.rounds.get(number=0).closes_at, ZoneInfo("Asia/Kolkata"))
            assert page.inner_text("#live time.countdown") == f"closes at {closes}"
            assert "(UTC)" not in page.inner_text("main")
    finally:
        context.close()
