"""The daily digest (issue 30.2): a player who chose it gets one email a day at 08:00 in their own zone with
what awaits them, instead of the news emails; once per day, whatever runs the check again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from games.platform import tasks
from games.platform.models import NotificationPreference
from games.platform.services import games as game_services
from games.platform.services.digest import due
from games.platform.services.profiles import profile_save
from games.platform.services.rounds import round_resolve
from tests.api_support import page_client

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 6, 30, tzinfo=UTC)  # 07:30 in Paris, 01:30 in New York


@pytest.fixture
def tally(season, hank, alice, bob):
    """Round 0 open from T0 for a day; alice (Paris) chose the digest, bob (New York) did not."""
    with time_machine.travel(T0, tick=False):
        game = game_services.game_create(
            season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank,
            settings={"rounds": 3, "window_minutes": 24 * 60, "explode_on_round": None,
                      "close_when_all_final": False},
        )  # fmt: skip
        game_services.game_seat(game=game, user=alice, actor=hank)
        game_services.game_seat(game=game, user=bob, actor=hank)
        game_services.game_start(game=game, actor=hank)
    profile_save(user=alice, time_zone="Europe/Paris")
    profile_save(user=bob, time_zone="America/New_York")
    NotificationPreference.objects.create(user=alice, email_digest=True)
    game.refresh_from_db()
    return game


@pytest.fixture
def check(django_capture_on_commit_callbacks):
    """Beat's check at `when`, and the digest tasks it owes run once it commits."""

    def run(when: datetime) -> int:
        with time_machine.travel(when, tick=False), django_capture_on_commit_callbacks(execute=True):
            return tasks.digests()

    return run


def test_the_digest_goes_at_eight_in_the_players_own_zone(tally, alice, bob):
    assert due(datetime(2026, 3, 2, 6, 59, tzinfo=UTC)) == []  # 07:59 in Paris
    assert due(datetime(2026, 3, 2, 7, 0, tzinfo=UTC)) == [(alice.pk, "2026-03-02")]
    NotificationPreference.objects.create(user=bob, email_digest=True)
    assert due(datetime(2026, 3, 2, 12, 59, tzinfo=UTC)) == [(alice.pk, "2026-03-02")]  # 07:59 in New York
    assert due(datetime(2026, 3, 2, 13, 0, tzinfo=UTC)) == [(alice.pk, "2026-03-02"), (bob.pk, "2026-03-02")]


def test_one_email_lists_what_awaits_with_its_deadline_in_the_players_zone_and_its_page(tally, check):
    assert check(datetime(2026, 3, 2, 7, 5, tzinfo=UTC)) == 1
    [digest] = mail.outbox
    assert (digest.to, digest.subject) == (["alice@example.com"], "genius: 1 thing awaits you")
    assert "- Tally: Round 0: not submitted, by 3 Mar 2026, 07:30 (Europe/Paris)" in digest.body
    assert f"  http://localhost:8000/games/{tally.pk}/" in digest.body
    assert "http://localhost:8000/account/notifications/" in digest.body


def test_once_a_day_however_often_the_check_runs_and_again_the_next_day(
    tally, check, django_capture_on_commit_callbacks
):
    check(datetime(2026, 3, 2, 7, 5, tzinfo=UTC))
    assert check(datetime(2026, 3, 2, 7, 15, tzinfo=UTC)) == 0
    assert check(datetime(2026, 3, 2, 22, 0, tzinfo=UTC)) == 0
    tasks.send_digest(tally.seats.get(number=0).user_id, "2026-03-02")  # a copy of the task: nothing more
    assert len(mail.outbox) == 1
    with time_machine.travel(datetime(2026, 3, 3, 6, 31, tzinfo=UTC), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            round_resolve(round_id=tally.rounds.get(number=0).id)  # no email to alice: the digest has it
    assert check(datetime(2026, 3, 3, 7, 5, tzinfo=UTC)) == 1
    assert [m.subject for m in mail.outbox if m.to == ["alice@example.com"]] == [
        "genius: 1 thing awaits you",
        "genius: 2 things await you",
    ]
    assert "- Tally: Round 1: not submitted, by 4 Mar 2026, 07:30 (Europe/Paris)" in mail.outbox[-1].body
    assert "- Tally: Results are in your inbox" in mail.outbox[-1].body


def test_a_day_with_nothing_awaiting_sends_nothing_and_is_done(tally, alice, check):
    tally.seats.filter(user=alice).delete()
    assert check(datetime(2026, 3, 2, 7, 5, tzinfo=UTC)) == 1
    assert mail.outbox == []
    assert due(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)) == []


def test_who_chose_the_digest_gets_no_news_email_but_still_the_reminder(
    tally, settings, django_capture_on_commit_callbacks
):
    with (
        time_machine.travel(T0 + timedelta(days=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        round_resolve(round_id=tally.rounds.get(number=0).id)
    sent = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert sent == [
        ("bob@example.com", "Tally: Round 0 is resolved"),
        ("bob@example.com", "Tally: Round 1 is open"),
    ]
    mail.outbox.clear()
    with (
        time_machine.travel(T0 + timedelta(days=2) - timedelta(hours=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        tasks.sweep()
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]


def test_the_settings_page_keeps_the_digest_choice(bob):
    client = page_client(bob)
    client.post(reverse("notification-settings"), {"results": "on", "email_digest": "on"})
    assert NotificationPreference.objects.get(user=bob).email_digest
    assert 'name="email_digest" checked' in client.get(reverse("notification-settings")).text
    client.post(reverse("notification-settings"), {"results": "on"})
    assert not NotificationPreference.objects.get(user=bob).email_digest
