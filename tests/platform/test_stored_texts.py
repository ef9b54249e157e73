"""Stored texts name people and times by reference (issue 23.4): an announcement, an inbox line or a ledger
reason written last week reads with the name its people go by today, and its times in each reader's own
zone with the zone named. Rows written before references read as they were written."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from games.platform.kit import Reveal, seat_ref
from games.platform.models import Event, SeasonPlayer
from games.platform.services.events import events_write
from games.platform.services.profiles import profile_save
from games.platform.services.season import pick_open, season_transfer
from games.platform.services.webhooks import payload_for
from games.platform.zones import local_text
from tests.api_support import api
from tests.api_support import page_client as logged_in

pytestmark = pytest.mark.django_db

DEADLINE = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def page_of(game, client=None) -> str:
    return (client or Client()).get(reverse("game", args=[game.id])).content.decode()


def feed_texts(game, user) -> list[str]:
    return [e["text"] for e in api(user).get(reverse("api-feed", args=[game.id])).json()["events"]]


def the_candidate_announced(tally, alice):
    """Alice is named the Elimination Candidate; her pick closes at DEADLINE (the season's 24 hours on)."""
    pick_open(game=tally, candidate=alice, now=DEADLINE - timedelta(hours=24))
    return Event.objects.filter(game=tally).latest("id")


def test_an_old_announcement_reads_with_the_name_a_player_goes_by_now(tally, alice, bob):
    announced = the_candidate_announced(tally, alice)
    assert "alice" not in announced.text, "the row keeps who, not the name they had"
    assert "alice is the Elimination Candidate" in page_of(tally)
    assert "alice is the Elimination Candidate" in feed_texts(tally, bob)[-1]

    profile_save(user=alice, display_name="Ali the Bold")
    page = page_of(tally)
    assert "Ali the Bold is the Elimination Candidate" in page and "alice is the" not in page
    assert feed_texts(tally, bob)[-1].startswith("Ali the Bold is the Elimination Candidate")
    observed = api(bob).get(reverse("api-game", args=[tally.id])).json()
    assert observed["announcements"][-1]["text"].startswith("Ali the Bold is the Elimination Candidate")


def test_an_old_inbox_line_reads_with_the_name_a_player_goes_by_now(tally, alice, bob):
    events_write(game=tally, events=[Reveal(1, f"{seat_ref(0)} offers you their A card.")], public=False)
    assert "alice offers you their A card." in page_of(tally, logged_in(bob))
    profile_save(user=alice, display_name="Ali the Bold")
    page = page_of(tally, logged_in(bob))
    assert "Ali the Bold offers you their A card." in page and "alice offers" not in page
    assert "Ali the Bold offers you" not in page_of(tally, logged_in(alice)), "an inbox stays its owner's"


def test_an_old_ledger_reason_reads_with_the_name_a_player_goes_by_now(season, alice, bob):
    season.settings = {"transfers_allowed": True}
    season.save()
    for user in (alice, bob):
        SeasonPlayer.objects.create(season=season, user=user)
    from games.platform.services.ledger import ledger_post

    ledger_post(season=season, user=alice, what="garnets", delta=5, reason="start")
    season_transfer(season=season, sender=alice, receiver=bob, what="garnets", amount=2)
    ledger = logged_in(bob).get(reverse("my-ledger", args=[season.id])).content.decode()
    assert "Given by alice" in ledger
    profile_save(user=alice, display_name="Ali the Bold")
    ledger = logged_in(bob).get(reverse("my-ledger", args=[season.id])).content.decode()
    assert "Given by Ali the Bold" in ledger and "Given by alice" not in ledger
    assert "Given to bob" in logged_in(alice).get(reverse("my-ledger", args=[season.id])).content.decode()


def test_a_time_in_an_announcement_reads_in_each_viewers_zone_with_the_zone_named(tally, alice, bob):
    the_candidate_announced(tally, alice)
    deadline = DEADLINE
    profile_save(user=alice, time_zone="Asia/Tokyo")
    tokyo = local_text(deadline, ZoneInfo("Asia/Tokyo"))
    assert tokyo.endswith("(Asia/Tokyo)")
    assert feed_texts(tally, alice)[-1].endswith(f"by {tokyo}.")
    assert feed_texts(tally, bob)[-1].endswith(f"by {local_text(deadline, ZoneInfo('UTC'))}.")

    # On the page the time holds the UTC instant, which the page's script writes in the zone the header
    # names; its text is already in that zone (the cached body's is filled in as it is served).
    for _ in range(2):  # rendered, then from the page cache
        page = page_of(tally, logged_in(alice))
        instant = re.escape(deadline.astimezone(UTC).isoformat())
        time = rf'<time class="local" datetime="{instant}">{re.escape(tokyo)}</time>'
        assert re.search(
            rf"Elimination Candidate and picks a Death Match opponent within 24 hours, by {time}\.", page
        )
        assert 'data-zone="Asia/Tokyo"' in page


def test_spectators_share_one_kept_body_and_each_reads_its_times_in_their_zone(tally, alice, make_user):
    # The body a spectator in Tokyo was served is kept for every spectator: it holds no reader's zone.
    the_candidate_announced(tally, alice)
    tokyo, lima = make_user("tokyo"), make_user("lima")
    profile_save(user=tokyo, time_zone="Asia/Tokyo")
    instant = re.escape(DEADLINE.astimezone(UTC).isoformat())
    for user, zone in ((tokyo, "Asia/Tokyo"), (lima, ""), (tokyo, "Asia/Tokyo")):
        page = page_of(tally, logged_in(user))
        said = re.escape(local_text(DEADLINE, ZoneInfo(zone or "UTC")))
        assert re.search(rf'within 24 hours, by <time class="local" datetime="{instant}">{said}</time>', page)
        if user is lima:
            assert "Asia/Tokyo" not in page


def test_a_webhook_names_people_as_they_are_called_and_its_times_in_utc_named(tally, alice):
    announced = the_candidate_announced(tally, alice)
    profile_save(user=alice, display_name="Ali the Bold")
    payload = payload_for(announced)
    assert payload["content"].startswith("Ali the Bold is the Elimination Candidate")
    assert payload["content"].endswith("(UTC).")
    assert payload["genius"]["text"] == payload["content"]


def test_a_name_is_escaped_on_the_page(tally, alice):
    profile_save(user=alice, display_name="<b>Ali</b>")
    the_candidate_announced(tally, alice)
    page = page_of(tally)
    assert "&lt;b&gt;Ali&lt;/b&gt; is the Elimination Candidate" in page and "<b>Ali</b>" not in page


def test_rows_written_before_references_read_as_written(tally, alice):
    Event.objects.create(
        game=tally, kind="announcement", text="alice picks bob by 2026-01-01 10:00 UTC.\n{not a reference}"
    )
    from games.platform.services.events import bump_version

    bump_version(tally)
    profile_save(user=alice, display_name="Ali the Bold")
    page = page_of(tally)
    assert "alice picks bob by 2026-01-01 10:00 UTC.<br>{not a reference}" in page


def test_the_history_and_its_export_tell_the_texts(tally, alice, hank):
    the_candidate_announced(tally, alice)
    profile_save(user=alice, display_name="Ali the Bold")
    history = logged_in(hank).get(reverse("game-history", args=[tally.id])).content.decode()
    assert "Ali the Bold is the Elimination Candidate" in history
    exported = logged_in(hank).get(reverse("game-export", args=[tally.id])).json()
    assert any(e["text"].startswith("Ali the Bold is the Elimination") for e in exported["events"])


def test_the_admin_lists_tell_the_texts(tally, alice, hank):
    the_candidate_announced(tally, alice)
    profile_save(user=alice, display_name="Ali the Bold")
    listing = logged_in(hank).get(reverse("admin:platform_event_changelist")).content.decode()
    assert "Ali the Bold is the Elimination Candidate" in listing and "{user:" not in listing


def test_a_reference_a_host_types_reads_as_typed_and_names_nobody(tally, hank, make_user):
    # A host's words are kept among the platform's references: typing `{user:N}` must not make the site
    # write account N's name (someone who may play in no game of theirs) on every page and in the feed.
    stranger = make_user("stranger")
    profile_save(user=stranger, display_name="Secret Sam")
    typed = f"Welcome {{user:{stranger.pk}}} and {{at:2030-01-01T12:00:00+00:00}}"
    answer = api(hank).post(reverse("api-host-announce", args=[tally.id]), {"text": typed}, format="json")
    assert answer.status_code in (200, 201), answer.content
    page = page_of(tally)
    assert "Secret Sam" not in page and "Secret Sam" not in feed_texts(tally, hank)[-1]
    assert f"user:{stranger.pk}}}" in feed_texts(tally, hank)[-1]
