"""A broker that refuses never turns a stored write into an error, and what it refused is sent later
(issue 18.1, 28), through HTTP: a live move owes the turn email, a host's announcement the webhook posts,
each an outbox row of the move's own transaction that the relay publishes once the broker answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from celery.app.task import Task
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError

from games.platform import outbox
from games.platform.models import Event, NotificationPreference, OutboxTask, TurnClock, Webhook
from games.platform.services import games as game_services
from tests.api_support import page_client
from tests.sitting import all_here

pytestmark = pytest.mark.django_db


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
    OutboxTask.objects.all().delete()  # the first turn's email, owed by the setup: not what is tested
    return game


@pytest.fixture
def broker(monkeypatch, settings):
    """The broker, refusing until `broker.back()`; counts what was offered to it."""
    monkeypatch.setattr(outbox, "_broker_down_until", 0.0)
    settings.GENIUS_BROKER_RETRY_SECONDS = 3600  # within one test, the back-off never runs out
    real = Task.apply_async

    class Broker:
        offered: list = []
        away = True

        def back(self):
            self.away = False
            monkeypatch.setattr(outbox, "_broker_down_until", 0.0)

    state = Broker()

    def apply_async(task, args=None, kwargs=None, **options):
        state.offered.append(task.name)
        if state.away:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return real(task, args, kwargs, **options)

    monkeypatch.setattr(Task, "apply_async", apply_async)
    return state


def logged_in(user) -> Client:
    return page_client(user, raise_request_exception=False)


def test_a_move_is_answered_200_and_its_email_is_sent_once_the_broker_is_back(
    duel, alice, broker, django_capture_on_commit_callbacks, mailoutbox
):
    prefs = NotificationPreference(user=duel.seats.get(number=1).user)
    prefs.choose("your_turn", "email", True)  # not by email unless chosen: a live match's turns are many
    prefs.save()
    with django_capture_on_commit_callbacks(execute=True):
        moved = logged_in(alice).post(
            f"/api/games/{duel.id}/action/", {"payload": {"say": 2}}, content_type="application/json"
        )
    assert moved.status_code == 200, moved.content
    assert Event.objects.filter(game=duel, text__contains="says 2").exists()
    kept = list(OutboxTask.objects.values_list("name", "args"))
    clock = TurnClock.objects.get(game=duel)  # each turn is notified once, a few seconds late
    bob = duel.seats.get(number=1).user_id
    assert kept == [("notify_your_turn", [duel.id, bob, "turn", clock.generation, clock.turn_key])]
    later = timezone.now() + timedelta(seconds=11)
    assert OutboxTask.objects.get().due_at < later  # due for the relay once its wait is over
    with time_machine.travel(later, tick=False):
        assert outbox.relay() == 0  # still away: kept, and due again at the next tick
        assert OutboxTask.objects.get().due_at <= timezone.now()
        broker.back()
        assert outbox.relay() == 1
    assert not OutboxTask.objects.exists()
    assert [m.subject for m in mailoutbox] == ["Duel: your turn"]


def test_an_announcement_is_answered_201_and_its_webhook_posts_are_kept(
    duel, hank, broker, django_capture_on_commit_callbacks
):
    Webhook.objects.create(game=duel, url="https://hooks.example.com/a")
    Webhook.objects.create(season=duel.season, url="https://hooks.example.com/b")
    with django_capture_on_commit_callbacks(execute=True):
        told = logged_in(hank).post(
            f"/api/games/{duel.id}/host/announce/", {"text": "Broker away"}, content_type="application/json"
        )
    assert told.status_code == 201, told.content
    assert OutboxTask.objects.filter(name="deliver_webhook").count() == 2
    # After the first refusal the process does not ask the broker again for a while: no wait per task.
    assert broker.offered == ["games.platform.tasks.deliver_webhook"]
