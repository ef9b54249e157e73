"""A profile (issue 23.4): a display name shown in place of the username, and a time zone every time is
shown in, with the zone named; countdowns stay absolute, and the page cache never hands one viewer's
rendering to another."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.platform.errors import RoundClosed
from games.platform.models import Profile
from games.platform.services import games as game_services
from games.platform.services.ledger import ledger_post
from games.platform.services.profiles import profile_save
from games.platform.tasks import send_reminder
from games.platform.zones import local_text
from tests.api_support import api
from tests.sitting import all_here

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def duel(season, hank, alice, bob):
    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def test_the_profile_page_saves_a_display_name_and_a_zone(alice):
    client = logged_in(alice)
    page = client.get(reverse("profile"))
    assert page.status_code == 200 and 'name="time_zone"' in page.content.decode()
    saved = client.post(reverse("profile"), {"display_name": "Ali the Bold", "time_zone": "Asia/Tokyo"})
    assert saved.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.time_zone) == ("Ali the Bold", "Asia/Tokyo")
    assert ">Ali the Bold</a>" in client.get(reverse("home")).content.decode(), "the header shows the name"


def test_a_display_name_someone_else_goes_by_is_refused_next_to_the_field(alice, bob):
    profile_save(user=bob, display_name="Robert")
    client = logged_in(alice)
    for taken in ("robert", "BOB"):
        answer = client.post(reverse("profile"), {"display_name": taken, "time_zone": "UTC"})
        assert answer.status_code == 400
        assert re.search(
            r'has-error">.*name="display_name".*Another player already goes by that name',
            answer.content.decode(),
            re.S,
        )
    bad_zone = client.post(reverse("profile"), {"display_name": "", "time_zone": "Mars/Olympus"})
    assert bad_zone.status_code == 400 and "time_zone" in bad_zone.context["form"].errors


def test_the_display_name_replaces_the_username_on_game_pages_standings_and_chats(
    duel, season, alice, bob, hank
):
    profile_save(user=alice, display_name="Ali the Bold")
    spectator = Client()
    game_page = spectator.get(reverse("game", args=[duel.id])).content.decode()
    assert "Waiting for <strong>Ali the Bold</strong>" in game_page and "alice" not in game_page
    standings = spectator.get(reverse("season", args=[season.id])).content.decode()
    assert "<td>Ali the Bold</td>" in standings
    chats = logged_in(bob).get(reverse("chat-list", args=[duel.id])).content.decode()
    assert "With Ali the Bold" in chats
    observed = api(bob).get(reverse("api-game", args=[duel.id])).json()
    assert {"seat": 0, "name": "Ali the Bold", "username": "alice"} in observed["players"]


def test_a_new_display_name_is_not_hidden_by_a_cached_page(duel, alice):
    spectator = Client()
    assert (
        "Waiting for <strong>alice</strong>"
        in spectator.get(reverse("game", args=[duel.id])).content.decode()
    )
    profile_save(user=alice, display_name="Ali the Bold")
    assert (
        "Waiting for <strong>Ali the Bold</strong>"
        in spectator.get(reverse("game", args=[duel.id])).content.decode()
    )


def test_times_on_a_page_are_in_the_viewers_zone_with_the_zone_named(season, alice):
    profile_save(user=alice, time_zone="Asia/Tokyo")
    entry = ledger_post(season=season, user=alice, what="garnets", delta=5, reason="start")
    page = logged_in(alice).get(reverse("my-ledger", args=[season.id])).content.decode()
    tokyo = entry.created_at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{tokyo:%H:%M} (Asia/Tokyo)</time>" in page
    assert 'data-zone="Asia/Tokyo"' in page, "the page's script shows times in the same zone"
    assert f'datetime="{entry.created_at.astimezone(UTC).isoformat()}"' in page, "the instant stays absolute"


def test_a_visitor_has_no_zone_of_their_own_on_the_page(season, tally):
    # Without a profile the page names no zone: its script shows each time in the browser's own
    # (test_accounts_browser); without the script the times read in UTC, named.
    page = Client().get(reverse("game", args=[tally.id])).content.decode()
    assert "data-zone=" not in page and "(UTC)</time>" in page


def test_a_cached_game_page_is_one_body_for_viewers_in_different_zones_each_reading_their_own(
    tally, make_user
):
    # Two logged-in spectators share one cached body: it carries UTC instants and marks for the times'
    # text, written in each viewer's zone as it is served; each header names its viewer's zone, which the
    # page's script shows the times in.
    from django.core.cache import cache

    tokyo, lima = make_user("tokyo"), make_user("lima")
    profile_save(user=tokyo, time_zone="Asia/Tokyo")
    profile_save(user=lima, time_zone="America/Lima")
    first = logged_in(tokyo).get(reverse("game", args=[tally.id])).content.decode()
    second = logged_in(lima).get(reverse("game", args=[tally.id])).content.decode()
    assert 'data-zone="Asia/Tokyo"' in first and 'data-zone="America/Lima"' in second
    assert "Asia/Tokyo" not in second and "America/Lima" not in first
    tally.refresh_from_db()
    kept = cache.get(f"page:{tally.id}:{tally.version}:page:spectator")
    assert kept is not None and "Asia/Tokyo" not in kept[1] and "\x00time:" in kept[1]
    instants = lambda page: re.findall(r'datetime="([^"]+)"', page.split("<main>", 1)[1])  # noqa: E731
    assert instants(first) == instants(second) and instants(first)


def test_countdowns_stay_absolute(tally, alice):
    profile_save(user=alice, time_zone="Asia/Tokyo")
    page = logged_in(alice).get(reverse("game", args=[tally.id])).content.decode()
    until = re.search(r'class="countdown" datetime="([^"]+)" data-until="([^"]+)"', page)
    assert until and until.group(1) == until.group(2)
    assert datetime.fromisoformat(until.group(1)).utcoffset().total_seconds() == 0


def test_the_round_closed_error_is_in_the_readers_zone(tally, alice):
    profile_save(user=alice, time_zone="Asia/Kolkata")
    tally.rounds.filter(number=0).update(closes_at=datetime(2030, 1, 1, 12, 0, tzinfo=UTC))
    from django.utils import timezone

    from games.platform.people import zone_named

    with timezone.override(zone_named("Asia/Kolkata")):
        message = RoundClosed(datetime(2030, 1, 1, 12, 0, tzinfo=UTC)).message
    assert message == "The round closed at 1 Jan 2030, 17:30 (Asia/Kolkata); this submission was not saved."
    assert "(UTC)" in RoundClosed(datetime(2030, 1, 1, 12, 0, tzinfo=UTC)).message


def test_an_api_client_reads_errors_in_its_own_zone(tally, alice, time_machine):
    profile_save(user=alice, time_zone="Asia/Kolkata")
    rnd = tally.rounds.get(number=0)
    time_machine.move_to(rnd.closes_at.replace(microsecond=0) + timedelta(seconds=30))
    client = Client()
    token = client.post(
        reverse("api-token"), {"username": "alice", "password": "pw-alice"}, content_type="application/json"
    ).json()["token"]
    answer = client.post(
        reverse("api-submission", args=[tally.id]),
        {"round": 0, "payload": {"number": 3}},
        content_type="application/json",
        headers={"authorization": f"Token {token}"},
    )
    assert answer.status_code == 409
    assert f"{local_text(rnd.closes_at, ZoneInfo('Asia/Kolkata'))}" in answer.json()["detail"]


def test_a_reminder_email_gives_the_closing_time_in_each_players_zone(tally, alice, bob):
    profile_save(user=alice, time_zone="Pacific/Auckland")
    rnd = tally.rounds.get(number=0)
    mail.outbox.clear()
    send_reminder(rnd.id, [alice.id, bob.id])
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert "(Pacific/Auckland)." in bodies["alice@example.com"]
    assert "(UTC)." in bodies["bob@example.com"]
