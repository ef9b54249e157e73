"""Emails where the players are: round opened, reminder, results, your turn; each user chooses."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.platform import outbox
from games.platform.models import NotificationPreference
from games.platform.services.live import action_apply
from games.platform.services.rounds import round_resolve
from tests.conftest import seat_of
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db


def subjects():
    return sorted((m.to[0], m.subject) for m in mail.outbox)


def test_results_and_the_next_round_reach_those_who_want_them(
    tally, alice, bob, django_capture_on_commit_callbacks
):
    NotificationPreference.objects.create(user=bob, round_opened=False)
    with django_capture_on_commit_callbacks(execute=True):
        round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    assert subjects() == [
        ("alice@example.com", "Tally: Round 0 is resolved"),
        ("alice@example.com", "Tally: Round 1 is open"),
        ("bob@example.com", "Tally: Round 0 is resolved"),
    ]


def test_a_player_who_switched_reminders_off_gets_none(tally, alice, bob, settings):
    settings.GENIUS_REMINDER_HOURS = 1
    NotificationPreference.objects.create(user=alice, reminder=False)
    closes_soon = tally.rounds.get(number=0).closes_at - timedelta(minutes=5)
    with time_machine.travel(closes_soon):
        sweep()
    assert subjects() == [("bob@example.com", "Tally: Round 0 closes soon")]


def your_turn_by_email(*users):
    for user in users:
        prefs = NotificationPreference(user=user)
        prefs.choose("your_turn", "email", True)
        prefs.save()


def test_your_turn_is_sent_when_the_move_passes(season, hank, alice, bob, django_capture_on_commit_callbacks):
    """To those who ticked it by email: by default a live match's turns fill no inbox."""
    from games.platform.services import games as game_services

    your_turn_by_email(alice, bob)

    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    relay_later()  # alice's, a few seconds after the clocks started
    with django_capture_on_commit_callbacks(execute=True):
        action_apply(seat=seat_of(game, alice), payload={"say": 1})
    relay_later()
    assert subjects() == [("alice@example.com", "Duel: your turn"), ("bob@example.com", "Duel: your turn")]


def test_by_default_no_your_turn_email_reaches_anyone(
    season, hank, alice, bob, django_capture_on_commit_callbacks
):
    from games.platform.services import games as game_services

    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_start(game=game, actor=hank)
        all_here(game)
    with django_capture_on_commit_callbacks(execute=True):
        action_apply(seat=seat_of(game, alice), payload={"say": 1})
    assert subjects() == []


def relay_later(seconds: float = 11):
    """What the outbox's relay publishes `seconds` from now (a live match's "your turn" waits ten)."""
    with time_machine.travel(timezone.now() + timedelta(seconds=seconds)):
        outbox.relay()


def test_the_settings_page_saves_the_choices(alice, client):
    client.force_login(alice)
    client.post(reverse("notification-settings"), {"results__email": "on", "your_turn__email": "on"})
    prefs = NotificationPreference.objects.get(user=alice)
    wants = [prefs.wants(kind, "email") for kind in ("round_opened", "reminder", "results", "your_turn")]
    assert wants == [False, False, True, True]
    assert (
        'name="results__email" id="results__email"'
        in client.get(reverse("notification-settings")).content.decode()
    )


def test_every_email_links_to_its_game_page_under_the_sites_address(
    tally, alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.GENIUS_SITE_URL = "https://genius.example.org"
    settings.GENIUS_REMINDER_HOURS = 1
    link = f"https://genius.example.org/games/{tally.id}/"
    with time_machine.travel(tally.rounds.get(number=0).closes_at - timedelta(minutes=5)):
        sweep()
    with django_capture_on_commit_callbacks(execute=True):
        round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    assert len(mail.outbox) == 6  # reminders, results and the next round, to both
    assert all(link in m.body for m in mail.outbox), [m.body for m in mail.outbox]


def test_the_your_turn_email_links_to_the_game(season, hank, alice, bob, django_capture_on_commit_callbacks):
    from games.platform.services import games as game_services

    your_turn_by_email(alice, bob)

    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    relay_later()
    assert [m.body.splitlines()[-1] for m in mail.outbox] == [f"http://localhost:8000/games/{game.id}/"]
