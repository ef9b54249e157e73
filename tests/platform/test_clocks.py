"""Turn clocks of live matches, computed from stored timestamps, moved with time-machine (never slept)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.platform.errors import StateChanged
from games.platform.kit import RulesError
from games.platform.models import Game, Seat, TurnClock
from games.platform.services import games as game_services
from games.platform.services.clocks import seconds_left
from games.platform.services.live import action_apply
from tests.conftest import seat_of
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0)


@pytest.fixture
def duel(season, hank, alice, bob):
    with time_machine.travel(T0, tick=False):
        game = game_services.game_create(
            season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
        )
        game_services.game_seat(game=game, user=alice, actor=hank)
        game_services.game_seat(game=game, user=bob, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def clock(game):
    return TurnClock.objects.select_related("seat").get(game=game)


def at(seconds):
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def test_the_first_turn_gets_its_allowance_and_each_seat_its_reserve(duel):
    c = clock(duel)
    assert c.seat.number == 0 and c.kind == "turn" and c.deadline == T0 + timedelta(seconds=60)
    assert set(Seat.objects.filter(game=duel).values_list("reserve_seconds", flat=True)) == {60.0}


def test_a_move_passes_the_turn_with_a_fresh_allowance(duel, alice):
    with at(20):
        action_apply(seat=seat_of(duel, alice), payload={"say": 2})
    c = clock(duel)
    assert c.seat.number == 1 and c.deadline == T0 + timedelta(seconds=80)


def test_out_of_turn_moves_are_refused_with_a_reason(duel, bob):
    with at(5), pytest.raises(RulesError, match="not your move"):
        action_apply(seat=seat_of(duel, bob), payload={"say": 1})


def test_when_the_turn_runs_out_the_reserve_is_drawn_in_increments(duel):
    with at(61):
        assert sweep()["clocks"] == 1
        assert sweep()["clocks"] == 0  # the same expiry is not drawn twice
    c = clock(duel)
    assert c.deadline == T0 + timedelta(seconds=90) and c.increments_used == 1
    assert Seat.objects.get(game=duel, number=0).reserve_seconds == 30


def test_a_player_whose_reserve_runs_out_loses_at_once(duel):
    for second in (61, 91, 121):
        with at(second):
            sweep()
    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED and duel.state["loser"] == 0
    assert duel.events.filter(text="Seat 1 ran out of time and loses.").count() == 1


def test_a_decision_owed_by_the_other_player_gets_its_own_minute_and_the_turn_time_is_kept(duel, alice, bob):
    with at(10):
        action_apply(seat=seat_of(duel, alice), payload={"say": 1, "ask": True})
    c = clock(duel)
    assert c.seat.number == 1 and c.kind == "answer" and c.deadline == T0 + timedelta(seconds=70)
    with at(40):
        action_apply(seat=seat_of(duel, bob), payload={"say": 1})
    c = clock(duel)
    # alice had 50 s left when the question went out; she gets them back when it returns to her.
    assert c.seat.number == 0 and c.deadline == T0 + timedelta(seconds=40 + 50)


def test_pause_freezes_the_clock_and_resume_restores_what_was_left(duel, hank, alice):
    with at(15):
        game_services.game_pause(game=duel, actor=hank)
    with at(500):
        assert sweep()["clocks"] == 0
        with pytest.raises(StateChanged):
            action_apply(seat=seat_of(duel, alice), payload={"say": 1})
        game_services.game_resume(game=duel, actor=hank)
        assert seconds_left(clock(duel)) == 45


def test_remaining_time_survives_a_restart_because_it_is_stored(duel):
    with at(30):
        fresh = TurnClock.objects.get(game=duel)  # as a new process would read it
        assert seconds_left(fresh) == 30


def poll(game, version, user=None):
    """The live part's poll as a page sends it, with the version the page shows."""
    from django.test import Client
    from django.urls import reverse

    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("game-feed", args=[game.id]), {"v": version})


def test_a_reserve_step_drawn_by_the_sweep_moves_what_every_poll_sees(duel, bob):
    # Issue 20.2: a drawn step changed nothing a poll compared, so the opponent's and the spectators' pages
    # answered "nothing new" and kept the old reserve and "closing…" until the game ended.
    version = Game.objects.get(pk=duel.pk).version
    with at(61):
        assert poll(duel, version).status_code == 204
        assert sweep()["clocks"] == 1
        for viewer in (None, bob):
            answer = poll(duel, version, viewer)
            assert answer.status_code == 200
            # The page's clock reads the stored clock: the new deadline, the reserve left, drawing.
            clock_tag = answer.content.decode().split('class="countdown turn-countdown"')[1].split(">")[0]
            assert f'data-until="{(T0 + timedelta(seconds=90)).isoformat()}"' in clock_tag
            assert 'data-reserve="30"' in clock_tag and 'data-step="30"' in clock_tag
            assert "data-in-reserve" in clock_tag
    assert Game.objects.get(pk=duel.pk).version == version + 1


def test_a_late_move_draws_its_steps_and_moves_the_version_with_the_move(duel, alice):
    version = Game.objects.get(pk=duel.pk).version
    with at(70):
        action_apply(seat=seat_of(duel, alice), payload={"say": 1})
    assert Seat.objects.get(game=duel, number=0).reserve_seconds == 30
    assert Game.objects.get(pk=duel.pk).version > version
    assert poll(duel, version).status_code == 200


def test_pause_and_resume_each_move_the_version(duel, hank):
    version = Game.objects.get(pk=duel.pk).version
    with at(15):
        game_services.game_pause(game=duel, actor=hank)
    paused = Game.objects.get(pk=duel.pk).version
    assert paused > version
    with at(20):
        game_services.game_resume(game=duel, actor=hank)
    assert Game.objects.get(pk=duel.pk).version > paused
