"""Every time in the viewer's zone (issue 23.4), for those who never picked one too: a logged-in user's
browser's zone becomes theirs at their first page, until they pick another; and a page read without its
script says its deadlines in the viewer's zone, named, whether its body was rendered for them or served
from the page cache."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.platform.models import Profile
from games.platform.services.profiles import profile_save
from games.platform.tasks import send_reminder
from games.platform.zones import local_text
from tests.api_support import page_client as logged_in

pytestmark = pytest.mark.django_db

DETECT = reverse("zone-detected")


def test_a_new_account_has_no_zone_and_its_pages_ask_the_browser_for_one(alice):
    assert Profile.objects.get(user=alice).time_zone == ""
    page = logged_in(alice).get(reverse("home")).content.decode()
    assert f'data-zone-detect-url="{DETECT}"' in page and "data-zone=" not in page


def test_the_browsers_zone_becomes_the_users_and_their_emails_are_in_it(tally, alice):
    client = logged_in(alice)
    assert client.post(DETECT, {"time_zone": "America/Lima"}).status_code == 204
    assert Profile.objects.get(user=alice).time_zone == "America/Lima"
    page = client.get(reverse("home")).content.decode()
    assert 'data-zone="America/Lima"' in page and "data-zone-detect-url" not in page
    rnd = tally.rounds.get(number=0)
    mail.outbox.clear()
    send_reminder(rnd.id, [alice.id])
    (email,) = mail.outbox
    assert f"It closes at {local_text(rnd.closes_at, ZoneInfo('America/Lima'))}." in email.body
    # The account page shows it selected, to keep or change.
    profile = client.get(reverse("profile")).content.decode()
    assert re.search(r'<option value="America/Lima" selected>', profile)


def test_a_zone_the_user_picked_is_never_replaced_by_the_browsers(alice):
    client = logged_in(alice)
    client.post(reverse("profile"), {"display_name": "", "time_zone": "Asia/Tokyo"})
    assert client.post(DETECT, {"time_zone": "America/Lima"}).status_code == 204
    assert Profile.objects.get(user=alice).time_zone == "Asia/Tokyo"
    # Nor is the first browser's zone by a second browser's.
    profile_save(user=alice, time_zone="UTC")
    client.post(DETECT, {"time_zone": "Europe/Paris"})
    assert Profile.objects.get(user=alice).time_zone == "UTC"


def test_a_zone_that_is_not_one_is_refused_and_a_visitor_has_none_to_set(alice):
    answer = logged_in(alice).post(DETECT, {"time_zone": "Mars/Olympus"})
    assert answer.status_code == 400
    assert answer.json() == {"time_zone": ["That is not a time zone this site knows."]}
    assert Profile.objects.get(user=alice).time_zone == ""
    assert Client().post(DETECT, {"time_zone": "Europe/Paris"}).status_code == 403
    assert logged_in(alice).get(DETECT).status_code == 405


def test_the_account_page_offers_the_browsers_zone_until_one_is_chosen(alice):
    client = logged_in(alice)
    assert "data-browser-zone" in client.get(reverse("profile")).content.decode()
    refused = client.post(reverse("profile"), {"display_name": "x" * 41, "time_zone": "Asia/Tokyo"})
    assert refused.status_code == 400 and "data-browser-zone" not in refused.content.decode()
    profile_save(user=alice, time_zone="Asia/Tokyo")
    assert "data-browser-zone" not in client.get(reverse("profile")).content.decode()


def countdown_text(page: str) -> str:
    running = r'<time class="countdown" datetime="[^"]+" data-until="[^"]+"[^>]*>([^<]+)</time>'
    found = re.search(running, page)
    assert found, "a running countdown"
    return found.group(1)


@pytest.mark.parametrize("cached", [False, True], ids=["rendered", "from the page cache"])
def test_without_the_script_a_countdown_says_its_deadline_in_the_viewers_zone(tally, alice, cached):
    profile_save(user=alice, time_zone="Asia/Kolkata")
    closes = tally.rounds.get(number=0).closes_at
    client = logged_in(alice)
    if cached:
        client.get(reverse("game", args=[tally.id]))  # the body is kept
    page = client.get(reverse("game", args=[tally.id])).content.decode()
    assert countdown_text(page) == f"closes at {local_text(closes, ZoneInfo('Asia/Kolkata'))}"
    assert "(UTC)" not in page.split("<main>", 1)[1]


def test_viewers_of_one_cached_body_each_read_its_times_in_their_own_zone(tally, make_user):
    tokyo, lima = make_user("tokyo"), make_user("lima")
    profile_save(user=tokyo, time_zone="Asia/Tokyo")
    profile_save(user=lima, time_zone="America/Lima")
    closes = tally.rounds.get(number=0).closes_at
    first = logged_in(tokyo).get(reverse("game", args=[tally.id])).content.decode()
    second = logged_in(lima).get(reverse("game", args=[tally.id])).content.decode()
    assert countdown_text(first) == f"closes at {local_text(closes, ZoneInfo('Asia/Tokyo'))}"
    assert countdown_text(second) == f"closes at {local_text(closes, ZoneInfo('America/Lima'))}"
    # A visitor's page names UTC: the server does not know the browser's zone (its script does).
    visitor = Client().get(reverse("game", args=[tally.id])).content.decode()
    assert countdown_text(visitor) == f"closes at {local_text(closes, ZoneInfo('UTC'))}"


def test_the_live_partial_says_its_times_in_the_viewers_zone(tally, alice):
    profile_save(user=alice, time_zone="Asia/Kolkata")
    closes = tally.rounds.get(number=0).closes_at
    client = logged_in(alice)
    for _ in range(2):  # rendered, then from the page cache
        live = client.get(reverse("game-feed", args=[tally.id])).content.decode()
        assert f"closes at {local_text(closes, ZoneInfo('Asia/Kolkata'))}" in live
        assert "\x00" not in live


def test_the_awaiting_list_says_its_deadlines_in_the_viewers_zone(tally, alice):
    profile_save(user=alice, time_zone="Pacific/Auckland")
    closes = tally.rounds.get(number=0).closes_at
    home = logged_in(alice).get(reverse("home")).content.decode()
    assert f"closes at {local_text(closes, ZoneInfo('Pacific/Auckland'))}" in home


def test_without_the_script_a_turn_clock_says_its_deadline_in_the_viewers_zone(season, hank, alice, bob):
    from games.platform.services import games as game_services
    from tests.sitting import all_here

    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)
    profile_save(user=bob, time_zone="Asia/Kolkata")
    client = logged_in(bob)
    for _ in range(2):  # rendered, then from the page cache
        page = client.get(reverse("game", args=[game.id])).content.decode()
        clock = re.search(
            r'<time class="countdown turn-countdown" datetime="([^"]+)"[^>]*>([^<]+)</time>', page
        )
        assert clock, "a running turn clock"
        assert clock.group(2).startswith(f"until {local_text(clock.group(1), ZoneInfo('Asia/Kolkata'))}")
        assert "UTC" not in clock.group(2)


def test_no_template_writes_a_time_in_utc():
    # A time on a page is `|when` or `|local` (the viewer's zone, named), never a slice of the instant
    # followed by "UTC": that is what the countdowns' and the turn clock's no-script texts once said.
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    written = []
    for template in [*root.glob("templates/**/*.html"), *root.glob("games/*/templates/**/*.html")]:
        text = re.sub(r"\{#.*?#\}", "", template.read_text(), flags=re.S)
        if re.search(r"\bUTC\b", text) or re.search(r"\|slice:\"1[01]:1[69]\"", text):
            written.append(str(template.relative_to(root)))
    assert not written, f"these templates write a time in UTC: {written}"
