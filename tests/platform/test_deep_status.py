"""The deep status (/healthz/deep/) and the hosts' admin index say when the background does not keep up
(issue 28.6): the sweep late or a due round waiting, no worker answering on a queue, the outbox not draining.

They read the traces the sweep and the workers leave in the database (games/platform/heartbeats.py); a
trace is put back in time here by moving its row, as a sweep that stopped would leave it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games.platform import heartbeats, tasks
from games.platform.models import Game, Heartbeat, OutboxTask, Round
from games.platform.services import games as game_services
from games.platform.services.sweep import sweep
from tests.api_support import page_client

pytestmark = pytest.mark.django_db


def everything_runs() -> None:
    sweep()
    for queue in heartbeats.queues():
        tasks.heartbeat(queue)  # what a worker of each queue runs every GENIUS_WORKER_HEARTBEAT_SECONDS


def back_in_time(name: str, seconds: float) -> None:
    Heartbeat.objects.filter(name=name).update(at=F("at") - timedelta(seconds=seconds))


def deep(client) -> tuple[bool, dict]:
    """(`ok`, the whole answer): 200 either way, the JSON says."""
    answer = client.get(reverse("healthz-deep"))
    assert answer.status_code == 200
    said = answer.json()
    return said["ok"], said


def test_with_the_sweep_and_every_queue_answering_the_deep_status_is_200(client, tally):
    everything_runs()
    ok, said = deep(client)
    assert ok, said
    assert said["ok"] and said["deadlines"]["ok"] and said["workers"]["ok"] and said["outbox"]["ok"]
    assert 0 <= said["deadlines"]["sweep_seconds_ago"] < 5
    assert set(said["workers"]["seconds_ago"]) == {"celery", "deadlines"}


def test_a_site_whose_sweep_never_ran_and_no_worker_answered_is_not_ok(client):
    ok, said = deep(client)
    assert not ok
    assert said["deadlines"] == {"ok": False, "sweep_seconds_ago": None, "oldest_overdue_seconds": None}
    assert said["workers"] == {"ok": False, "seconds_ago": {"celery": None, "deadlines": None}}


def test_a_sweep_that_stopped_three_periods_ago_is_late_and_the_hosts_are_told(client, settings, hank):
    everything_runs()
    back_in_time(heartbeats.SWEEP, 4 * 60)
    ok, said = deep(client)
    assert not ok and not said["deadlines"]["ok"] and said["workers"]["ok"]
    assert 239 < said["deadlines"]["sweep_seconds_ago"] < 250
    index = page_client(hank).get("/admin/").content.decode()
    assert (
        "Deadlines are late: the last sweep ran 4 min ago; rounds wait to close. Check the worker." in index
    )


def test_a_due_round_waiting_past_a_minute_makes_deadlines_late_even_with_the_sweep_running(
    client, tally, hank
):
    everything_runs()
    Round.objects.filter(game=tally, number=0).update(
        opens_at=timezone.now() - timedelta(minutes=10), closes_at=timezone.now() - timedelta(minutes=3)
    )
    heartbeats.beat(heartbeats.SWEEP)  # the sweep runs, and the round still waits (a worker down, say)
    ok, said = deep(client)
    assert not ok and not said["deadlines"]["ok"]
    assert 179 < said["deadlines"]["oldest_overdue_seconds"] < 190
    index = page_client(hank).get("/admin/").content.decode()
    assert "Deadlines are late: a round passed its deadline 3 min ago and is still open" in index


def test_a_paused_game_s_round_is_not_late(client, tally, hank):
    everything_runs()
    game_services.game_pause(game=tally, actor=hank)
    Game.objects.filter(pk=tally.pk).update(paused_at=timezone.now() - timedelta(hours=1))
    Round.objects.filter(game=tally, number=0).update(
        opens_at=timezone.now() - timedelta(minutes=10), closes_at=timezone.now() - timedelta(minutes=3)
    )
    assert deep(client)[1]["deadlines"]["ok"]
    assert 'id="deadlines-late"' not in page_client(hank).get("/admin/").content.decode()


def test_a_queue_whose_workers_missed_three_heartbeats_is_not_answering(client, settings):
    everything_runs()
    back_in_time(heartbeats.worker("celery"), 4 * settings.GENIUS_WORKER_HEARTBEAT_SECONDS)
    ok, said = deep(client)
    assert not ok and not said["workers"]["ok"] and said["deadlines"]["ok"]
    assert said["workers"]["seconds_ago"]["deadlines"] < 5


def test_an_outbox_whose_oldest_message_waits_too_long_is_not_draining(client, settings):
    everything_runs()
    OutboxTask.objects.create(name="notify_round_resolved", args=[1], due_at=timezone.now())
    assert deep(client)[1]["outbox"]["ok"]
    OutboxTask.objects.update(
        due_at=timezone.now() - timedelta(seconds=settings.GENIUS_OUTBOX_LATE_SECONDS + 5)
    )
    ok, said = deep(client)
    assert not ok and not said["outbox"]["ok"] and said["outbox"]["overdue_seconds"] > 300


def test_the_deep_status_tells_nothing_hidden_and_costs_the_same_however_many_games(
    client, season, hank, alice, bob, django_assert_num_queries
):
    everything_runs()
    # The heartbeats, the most overdue round and message, and the messages that gave up.
    with django_assert_num_queries(4):
        deep(client)
    for number in range(5):
        game = game_services.game_create(
            season=season, game_type="tally", name=f"Secret game {number}", hosts=[hank], actor=hank
        )
        for player in (alice, bob):
            game_services.game_seat(game=game, user=player, actor=hank)
        game_services.game_start(game=game, actor=hank)
    Round.objects.update(
        opens_at=timezone.now() - timedelta(minutes=10), closes_at=timezone.now() - timedelta(minutes=3)
    )
    with django_assert_num_queries(4):
        body = client.get(reverse("healthz-deep")).content.decode()
    for hidden in ("Secret game", "alice", "bob", "hank", "Season"):
        assert hidden not in body
