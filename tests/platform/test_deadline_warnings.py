"""Deadlines that warn in time (issue 30.3): a round's reminder an eighth of its window before it closes, a
last call an hour before for a window over 4 h, each once and only to those who still owe the round."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games.platform.models import ExcusedRound
from games.platform.services import games as game_services
from games.platform.services.leads import reminder_lead
from games.platform.services.profiles import profile_save
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def round_of(season, hank, alice, bob, charlie):
    """A Tally whose Round 0 opens at T0 for `minutes`; alice, bob and charlie play."""

    def make(minutes: int):
        with time_machine.travel(T0, tick=False):
            game = game_services.game_create(
                season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank,
                settings={"window_minutes": minutes},
            )  # fmt: skip
            for user in (alice, bob, charlie):
                game_services.game_seat(game=game, user=user, actor=hank)
            game_services.game_start(game=game, actor=hank)
        return game.rounds.get(number=0)

    return make


def sent_at(when: datetime) -> list[tuple[str, str]]:
    """What one sweep at `when` emails: (address, subject)."""
    mail.outbox.clear()
    sweep(now=when)
    return sorted((m.to[0], m.subject) for m in mail.outbox)


def everyone(subject: str) -> list[tuple[str, str]]:
    return [(f"{name}@example.com", subject) for name in ("alice", "bob", "charlie")]


@pytest.mark.parametrize(
    ("hours", "lead"),
    [
        (24, timedelta(hours=3)),
        (48, timedelta(hours=6)),
        (0.5, timedelta(minutes=3.75)),
        (6, timedelta(hours=2)),
    ],
)
def test_the_reminders_lead_grows_with_the_window(hours, lead):
    assert reminder_lead(timedelta(hours=hours)) == lead


def test_a_day_long_round_reminds_three_hours_before_and_calls_an_hour_before_each_once(round_of):
    rnd = round_of(24 * 60)
    closes = rnd.closes_at
    assert sent_at(closes - timedelta(hours=3, minutes=1)) == []
    assert sent_at(closes - timedelta(hours=3)) == everyone("Tally: Round 0 closes soon")
    assert sent_at(closes - timedelta(hours=2)) == []
    assert sent_at(closes - timedelta(hours=1)) == everyone("Tally: last call, Round 0 closes in an hour")
    assert sent_at(closes - timedelta(minutes=30)) == []


def test_a_demo_round_of_thirty_minutes_reminds_four_minutes_before_and_has_no_last_call(round_of):
    rnd = round_of(30)
    assert sent_at(rnd.closes_at - timedelta(minutes=4)) == []
    assert sent_at(rnd.closes_at - timedelta(minutes=3, seconds=45)) == everyone("Tally: Round 0 closes soon")
    assert sent_at(rnd.closes_at - timedelta(minutes=1)) == []


def test_only_those_who_still_owe_the_round_are_warned(round_of, alice, bob):
    rnd = round_of(24 * 60)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        submission_save(seat=seat_of(rnd.game, alice), round_number=0, payload={"number": 1})
    ExcusedRound.objects.create(seat=seat_of(rnd.game, bob), round=rnd)
    assert sent_at(rnd.closes_at - timedelta(hours=3)) == [
        ("charlie@example.com", "Tally: Round 0 closes soon")
    ]
    called = sent_at(rnd.closes_at - timedelta(hours=1))
    assert called == [("charlie@example.com", "Tally: last call, Round 0 closes in an hour")]


def test_the_warning_names_the_deadline_in_the_players_zone_and_links_the_games_page(round_of, charlie):
    profile_save(user=charlie, time_zone="Asia/Tokyo")
    rnd = round_of(24 * 60)
    sent_at(rnd.closes_at - timedelta(hours=1))
    [body] = [m.body for m in mail.outbox if m.to == ["charlie@example.com"]]
    assert "It closes at 3 Mar 2026, 21:00 (Asia/Tokyo)." in body
    assert f"http://localhost:8000/games/{rnd.game_id}/" in body


def test_a_sweep_that_finds_both_due_sends_only_the_last_call(round_of):
    rnd = round_of(24 * 60)
    assert sent_at(rnd.closes_at - timedelta(minutes=50)) == everyone(
        "Tally: last call, Round 0 closes in an hour"
    )
    assert sent_at(rnd.closes_at - timedelta(minutes=40)) == []
