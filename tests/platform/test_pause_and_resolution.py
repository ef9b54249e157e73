"""A pause and a resolution meet: no round resolves while paused, neither deadlocks the other, and "resolve
now" says what actually happened. Tried as the players and the host would, through the API."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Game, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import Resolution, round_resolve
from tests.api_support import api

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def make_tally(season, hank, players, **settings):
    game = game_services.game_create(
        season=season, game_type="tally", name="T", hosts=[hank], settings=settings, actor=hank
    )
    for player in players:
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def save_final(game, user, number):
    return api(user).post(
        reverse("api-submission", args=[game.id]),
        {"round": 0, "payload": {"number": number}, "final": True},
        format="json",
    )


def host(game, user, action):
    return api(user).post(reverse(f"api-host-{action}", args=[game.id]), format="json")


def test_the_last_final_save_does_not_close_the_round_while_the_game_is_paused(
    season, hank, alice, bob, django_capture_on_commit_callbacks
):
    game = make_tally(season, hank, [alice, bob], close_when_all_final=True)
    assert host(game, hank, "pause").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert save_final(game, alice, 1).status_code == 201
        assert save_final(game, bob, 2).status_code == 201
    rnd = game.rounds.get(number=0)
    assert rnd.status == Round.Status.OPEN and rnd.remaining_when_paused is not None
    assert not game.rounds.filter(number=1).exists()


def test_the_host_cannot_resolve_a_round_while_the_game_is_paused(tally, hank):
    assert host(tally, hank, "pause").status_code == 200
    answer = host(tally, hank, "resolve")
    assert answer.status_code == 409
    assert answer.json()["resolution"] == "paused" and "paused" in answer.json()["detail"]
    assert tally.rounds.get(number=0).status == Round.Status.OPEN
    assert not tally.rounds.filter(number=1).exists()


def test_on_resume_a_round_everyone_marked_final_during_the_pause_closes_with_the_next_one_whole(
    season, hank, alice, bob, django_capture_on_commit_callbacks
):
    game = make_tally(season, hank, [alice, bob], close_when_all_final=True)
    host(game, hank, "pause")
    save_final(game, alice, 1)
    save_final(game, bob, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert host(game, hank, "resume").status_code == 200
    assert game.rounds.get(number=0).status == Round.Status.RESOLVED
    nxt = game.rounds.get(number=1)
    assert nxt.closes_at - nxt.opens_at == timedelta(minutes=60)
    assert nxt.closes_at > timezone.now() + timedelta(minutes=59)


def test_resolve_now_says_when_the_round_was_not_resolved_because_it_failed(season, hank, alice, bob):
    game = make_tally(season, hank, [alice, bob], explode_on_round=0)
    answer = host(game, hank, "resolve")
    assert answer.status_code == 409
    assert answer.json()["resolution"] == "failed" and "attempt 1 of" in answer.json()["detail"]


def test_resolve_now_in_the_admin_says_the_round_was_not_resolved(tally, hank, client):
    client.force_login(hank)
    game_services.game_pause(game=tally, actor=hank)
    page = client.post(
        reverse("admin:platform_game_changelist"),
        {"action": "resolve_now", "_selected_action": [tally.pk]},
        follow=True,
    )
    assert "The game is paused: resume it before resolving Round 0." in page.content.decode()
    assert "Resolve Tally: done." not in page.content.decode()


def test_after_a_host_retries_a_failed_round_its_old_traceback_is_not_shown_as_waiting(
    season, hank, alice, bob, settings
):
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 1
    game = make_tally(season, hank, [alice, bob], explode_on_round=0)
    host(game, hank, "resolve")
    assert game.rounds.get(number=0).status == Round.Status.FAILED
    assert host(game, hank, "retry").status_code == 200
    seen = api(hank).get(reverse("api-game", args=[game.id])).json()
    assert "round_waiting" not in seen and seen["failed_round"] is None
    page = api(hank).get(reverse("game", args=[game.id])).content.decode()
    assert "The round is waiting" not in page and "blew up" not in page


def lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # a transaction sees one snapshot unless cleared
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_pause_racing_the_sweeps_resolution_neither_deadlocks_nor_counts_a_failure(
    season, hank, alice, bob
):
    """The pause holds the game when the resolution starts: the resolution waits its turn, holding nothing
    the pause needs; then sees the game paused and leaves the round alone."""
    if connection.vendor != "postgresql":
        pytest.skip("Row locks need PostgreSQL.")
    game = make_tally(season, hank, [alice, bob])
    now = timezone.now()
    Round.objects.filter(game=game).update(
        opens_at=now - timedelta(minutes=1), closes_at=now - timedelta(seconds=1)
    )
    game_locked, results, errors = threading.Event(), {}, []

    def pause():
        from django.db import transaction

        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)  # the pause has the game...
                game_locked.set()
                for _ in range(100):  # ...when the resolution arrives and waits for a lock
                    if lock_waiters():
                        break
                    time.sleep(0.05)
                results["pause"] = game_services.game_pause(game=game, actor=hank)
        except Exception as exc:
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    def resolve():
        game_locked.wait(10)
        try:
            results["resolve"] = round_resolve(round_id=game.rounds.get(number=0).pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=pause), threading.Thread(target=resolve)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [], "the pause failed"
    assert results["resolve"] == Resolution.PAUSED
    rnd = Round.objects.get(game=game, number=0)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0 and rnd.last_error == ""
    assert Game.objects.get(pk=game.pk).paused_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_resume_racing_a_resolution_neither_deadlocks_nor_counts_a_failure(season, hank, alice, bob):
    """The resume holds the game when a resolution (queued before the pause, or a host's "resolve now")
    starts: the resolution waits its turn, holding no round the resume needs, then finds the round with its
    time given back and not due. Locked round first, as it once was, the two would deadlock."""
    if connection.vendor != "postgresql":
        pytest.skip("Row locks need PostgreSQL.")
    game = make_tally(season, hank, [alice, bob])
    now = timezone.now()
    Round.objects.filter(game=game).update(
        opens_at=now - timedelta(minutes=1), closes_at=now + timedelta(minutes=5)
    )
    game_services.game_pause(game=game, actor=hank)
    game_locked, results, errors = threading.Event(), {}, []

    def resume():
        from django.db import transaction

        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)  # the resume has the game...
                game_locked.set()
                for _ in range(100):  # ...when the resolution arrives and waits for a lock
                    if lock_waiters():
                        break
                    time.sleep(0.05)
                results["resume"] = game_services.game_resume(game=game, actor=hank)
        except Exception as exc:
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    def resolve():
        game_locked.wait(10)
        try:
            results["resolve"] = round_resolve(round_id=game.rounds.get(number=0).pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=resume), threading.Thread(target=resolve)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [], "the resume failed"
    assert results["resolve"] == Resolution.NOT_DUE
    rnd = Round.objects.get(game=game, number=0)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0 and rnd.last_error == ""
    assert rnd.remaining_when_paused is None and rnd.closes_at > timezone.now() + timedelta(minutes=4)
    assert Game.objects.get(pk=game.pk).paused_at is None
