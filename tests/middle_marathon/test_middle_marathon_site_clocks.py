"""Middle Marathon's clocks with moved time: the turn, each extra interaction, off-turn decisions, reserve."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.middle_marathon.rules import pending
from games.platform.models import Game, Seat, TurnClock
from tests.api_support import told
from tests.middle_marathon.marathon_site import act, api, marathon_game, put_state, state_of
from tests.middle_marathon.positions import make
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0)


def at(seconds):
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def clock(game) -> TurnClock:
    return TurnClock.objects.select_related("seat").get(game=game)


def due(game) -> float:
    """Seconds from T0 to the pending move's deadline."""
    return (clock(game).deadline - T0).total_seconds()


def reserve(game, seat: int) -> float:
    return Seat.objects.get(game=game, number=seat).reserve_seconds


@pytest.fixture
def start(season, hank, alice, bob):
    def started(settings=None, position=None):
        with at(0):
            game = marathon_game(season, hank, alice, bob, settings=settings)
            if position is not None:
                put_state(game, position)
        return game

    return started


def test_a_turn_gets_one_minute_and_each_player_ten_minutes_of_reserve(start, alice):
    game = start()
    assert clock(game).seat.number == 0 and clock(game).kind == "turn" and due(game) == 60
    assert reserve(game, 0) == reserve(game, 1) == 600
    with at(25):
        assert act(game, alice, {"type": "play", "card": 1, "piece": "SB"}).status_code == 200
    # Red's turn starts fresh: a minute from the move, nothing carried over.
    assert clock(game).seat.number == 1 and clock(game).kind == "turn" and due(game) == 25 + 60


def test_an_additional_interaction_in_the_same_turn_adds_30_seconds(start, alice):
    # Blue's Force on 3 with a 2 must take another piece along: Blue is asked which.
    game = start(position=make({"FB": 3, "GR": 5, "M": 2}))
    with at(10):
        act(game, alice, {"type": "play", "card": 2, "piece": "FB"})
    assert clock(game).seat.number == 0 and clock(game).kind == "choice 1: Force's companion"
    assert due(game) == 60 + 30


def test_a_decision_off_your_turn_gets_a_minute_and_the_turn_time_comes_back_with_the_next_interaction(
    start, alice, bob
):
    # Blue's Force takes Red's Gravity along; Red's pull (off Red's turn) drags Blue's Gravity, whose pull
    # is Blue's to choose again.
    game = start(position=make({"FB": 3, "GR": 6, "GB": 5}))
    with at(10):
        act(game, alice, {"type": "play", "card": 3, "piece": "FB"})
    assert due(game) == 90
    with at(20):
        act(game, alice, {"type": "choose", "choice": "GR"})
    c = clock(game)
    assert c.seat.number == 1 and c.kind == "choice 2: Gravity's targets" and due(game) == 20 + 60
    assert c.banked == {"0": 70}
    assert pending(state_of(game))["off_turn"] is True
    with at(50):
        act(game, bob, {"type": "choose", "choice": "GB"})
    c = clock(game)
    # Blue's 70 banked seconds come back, plus 30 for this additional interaction.
    assert c.seat.number == 0 and c.kind == "choice 3: Gravity's targets" and due(game) == 50 + 70 + 30


def test_each_off_turn_decision_adds_a_minute_to_what_that_player_has_left_from_earlier_in_the_same_turn(
    start, alice, bob
):
    # "they will be given an extra minute instead" (of the turn player's extra 30 seconds): added to what
    # the off-turn player has left in this turn, like the turn player's 30 s; nothing carries to the next.
    game = start(position=make({"FB": 3, "GR": 6, "GB": 5, "RR": 12, "SB": 13}, rest=None))
    with at(10):
        act(game, alice, {"type": "play", "card": 3, "piece": "FB"})
    with at(20):
        act(game, alice, {"type": "choose", "choice": "GR"})  # GR 6 -> 9: Red's pull, off Red's turn
    assert clock(game).seat.number == 1 and due(game) == 20 + 60
    with at(50):
        act(game, bob, {"type": "choose", "choice": "GB"})  # GB 5 -> 6: Blue's pull; Red keeps 30 s
    assert clock(game).seat.number == 0 and clock(game).banked == {"1": 30}
    with at(60):
        act(game, alice, {"type": "choose", "choice": "SB"})  # back to Red for its pull's ahead part
    c = clock(game)
    assert c.seat.number == 1 and c.kind == "choice 4: Gravity's targets" and due(game) == 60 + 30 + 60
    with at(70):
        act(game, bob, {"type": "choose", "choice": "RR"})  # RR 12 -> 11: Red's own reflection, in a row
    c = clock(game)
    assert c.seat.number == 1 and c.kind == "choice 5: Reflect's reflection" and due(game) == 150 + 60
    with at(80):
        act(game, bob, {"type": "choose", "choice": "FB"})  # the turn ends; Red's 130 s left go with it
    c = clock(game)
    assert c.seat.number == 1 and c.kind == "turn" and due(game) == 80 + 60 and c.banked == {}


def test_the_off_turn_players_reserve_pays_for_their_slow_decision(start, alice):
    game = start(position=make({"FB": 3, "GR": 6, "GB": 5}))
    with at(10):
        act(game, alice, {"type": "play", "card": 3, "piece": "FB"})
    with at(20):
        act(game, alice, {"type": "choose", "choice": "GR"})
    with at(81):
        assert sweep()["clocks"] == 1
    assert reserve(game, 1) == 570 and reserve(game, 0) == 600 and due(game) == 110


def test_a_forced_resolution_is_not_asked_and_gives_no_time(start, alice):
    # Only Red's Gravity can go with Blue's Force; its pull has only Blue's Force behind it: both forced.
    game = start(position=make({"FB": 3, "GR": 8}, rest=None))
    with at(10):
        act(game, alice, {"type": "play", "card": 2, "piece": "FB"})
    state = state_of(game)
    assert [(d["kind"], d["forced"]) for d in state.decisions] == [
        ("force_companion", True),
        ("gravity", True),
    ]
    assert clock(game).seat.number == 1 and clock(game).kind == "turn" and due(game) == 10 + 60


def test_when_the_turn_runs_out_the_reserve_is_drawn_30_seconds_at_a_time(start):
    game = start()
    with at(61):
        assert sweep()["clocks"] == 1
        assert sweep()["clocks"] == 0  # the same expiry is not drawn twice
    assert reserve(game, 0) == 570 and due(game) == 90
    with at(91):
        sweep()
    assert reserve(game, 0) == 540 and due(game) == 120 and clock(game).increments_used == 2


def test_a_player_whose_reserve_runs_out_loses_at_once(start, alice, bob):
    game = start(settings={"reserve_seconds": 60})
    for second in (61, 91, 121):
        with at(second):
            sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = state_of(game).result
    assert result["winner"] == 1 and result["ended_because"] == "timeout"
    assert told(game).count("Result: Blue ran out of reserve time. bob (Red) wins.") == 1
    assert game.events.filter(text__contains="Blue ran out of reserve time and loses").count() == 1


def test_every_clock_value_is_a_game_setting(start, alice):
    settings = {
        "turn_seconds": 300,
        "interaction_seconds": 120,
        "reserve_seconds": 3600,
        "reserve_increment_seconds": 60,
    }
    game = start(settings=settings, position=make({"FB": 3, "GR": 5, "M": 2}))
    assert due(game) == 300 and reserve(game, 0) == 3600
    with at(10):
        act(game, alice, {"type": "play", "card": 2, "piece": "FB"})
    assert due(game) == 420
    with at(421):
        sweep()
    assert reserve(game, 0) == 3540 and due(game) == 480


def test_the_host_pauses_and_resumes_and_no_move_is_taken_meanwhile(start, hank, alice):
    game = start()
    with at(15):
        assert api(hank).post(reverse("api-host-pause", args=[game.id])).status_code == 200
    with at(500):
        assert sweep()["clocks"] == 0
        response = act(game, alice, {"type": "play", "card": 1, "piece": "SB"})
        assert response.status_code == 409 and "paused" in response.json()["detail"]
        assert api(hank).post(reverse("api-host-resume", args=[game.id])).status_code == 200
    assert due(game) == 500 + 45 and reserve(game, 0) == 600


# -- a late move is charged when it arrives, with no sweep run (no worker) --------------------------------


def test_a_move_25_seconds_late_draws_a_reserve_increment_when_it_arrives(start, alice):
    game = start()
    with at(85):
        assert act(game, alice, {"type": "play", "card": 1, "piece": "SB"}).status_code == 200
    assert reserve(game, 0) == 570 and reserve(game, 1) == 600
    assert clock(game).seat.number == 1 and due(game) == 85 + 60


def test_a_move_50_seconds_late_draws_each_increment_its_wait_used(start, alice):
    game = start()
    with at(110):
        assert act(game, alice, {"type": "play", "card": 1, "piece": "SB"}).status_code == 200
    assert reserve(game, 0) == 540 and clock(game).seat.number == 1


def test_a_move_after_the_turn_and_the_reserve_ran_out_loses_instead_of_being_made(start, alice):
    game = start(settings={"reserve_seconds": 60})  # out of time at 60 + 30 + 30
    with at(170):
        response = act(game, alice, {"type": "play", "card": 1, "piece": "SB"})
    assert response.status_code == 409
    assert response.json()["detail"].startswith("Your time ran out at ")
    assert "this move was not made" in response.json()["detail"]
    game.refresh_from_db()
    state = state_of(game)
    assert game.status == Game.Status.FINISHED and state.result["winner"] == 1
    assert state.result["ended_because"] == "timeout" and state.played == []
    assert reserve(game, 0) == 0
    assert game.events.filter(text__contains="Blue ran out of reserve time and loses").count() == 1
    with at(171):
        assert sweep()["clocks"] == 0  # nothing left for the sweep to do


def test_the_opponents_move_after_the_clock_ran_out_names_whose_time_it_was(start, alice, bob):
    game = start(settings={"reserve_seconds": 30})
    with at(95):
        response = act(game, bob, {"type": "play", "card": 1, "piece": "SR"})
    assert response.status_code == 409 and response.json()["detail"].startswith("alice's time ran out at ")
    assert state_of(game).result["winner"] == 1


def test_a_move_on_time_draws_nothing(start, alice):
    game = start()
    with at(59):
        assert act(game, alice, {"type": "play", "card": 1, "piece": "SB"}).status_code == 200
    assert reserve(game, 0) == 600 and clock(game).increments_used == 0
