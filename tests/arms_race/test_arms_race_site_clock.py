"""Each decision on its own clock; when it runs out the sweep applies the rulings' default (time is moved)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.arms_race.rules import Phase
from games.platform.models import TurnClock
from tests.api_support import told
from tests.arms_race.arms_race_site import act, arms_game, drive, honest, my_view, state_of
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0)
LIMITS = {"attack_seconds": 60, "respond_seconds": 30, "redirect_seconds": 45, "wild_seconds": 300}


def at(seconds):
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def clock(game):
    return TurnClock.objects.select_related("seat").get(game=game)


@pytest.fixture
def trio(alice, bob, charlie):
    return [alice, bob, charlie]


@pytest.fixture
def game(season, hank, trio):
    with at(0):
        return arms_game(season, hank, trio, settings=LIMITS)


def test_an_absent_attacker_attacks_with_the_truth_and_an_absent_redirector_aims_it_on(game, trio):
    attacker = state_of(game).attacker
    assert clock(game).seat.number == attacker and clock(game).kind == "attack"
    assert clock(game).deadline == T0 + timedelta(seconds=60)
    with at(59):
        assert sweep()["clocks"] == 0
    with at(61):
        assert sweep()["clocks"] == 1
    state = state_of(game)
    assert state.phase == Phase.RESPOND and state.flight.last.weapon == state.flight.weapon
    target = state.flight.last.target
    assert clock(game).seat.number == target and clock(game).kind == "challenge or pass"
    assert clock(game).deadline == T0 + timedelta(seconds=61 + 30)
    assert told(game).count(f"{trio[attacker].username}'s time ran out (attack).") == 1
    with at(70):
        assert act(game, trio[target], {"type": "pass"}).status_code == 200
    assert clock(game).kind == "redirect" and clock(game).deadline == T0 + timedelta(seconds=70 + 45)
    with at(116):
        assert sweep()["clocks"] == 1
    state = state_of(game)
    last = state.flight.last
    assert (
        last.pointer == target
        and last.weapon == state.flight.weapon
        and last.target not in (attacker, target)
    )
    # The last player who has not seen it must challenge; their clock running out says "truth".
    with at(116 + 31):
        assert sweep()["clocks"] == 1
    record = state_of(game).history[-1]
    assert record.call.value == "truth" and record.correct and record.wounded == target
    assert record.timed_out == (attacker, target, last.target)


def test_the_wild_card_break_is_one_window_and_whoever_has_not_decided_declines(game, trio):
    with at(0):
        drive(game, trio, honest, until=lambda s: s.phase == Phase.WILD_CARDS)
    assert clock(game).kind == "wild card" and clock(game).seat.number == 0
    assert clock(game).deadline == T0 + timedelta(seconds=300)
    with at(100):
        assert act(game, trio[0], {"type": "decline_wild"}).status_code == 200
    # The clock names the next player still deciding; the window's end does not move.
    assert clock(game).seat.number == 1 and clock(game).deadline == T0 + timedelta(seconds=300)
    with at(301):
        assert sweep()["clocks"] == 1
    state = state_of(game)
    assert state.round == 2 and state.phase == Phase.ATTACK and state.wilds == ((), (), ())
    for user in trio[1:]:
        assert told(game).count(f"{user.username}'s time ran out (wild card).") == 1
    assert clock(game).kind == "attack" and clock(game).deadline == T0 + timedelta(seconds=301 + 60)


def test_a_paused_game_keeps_its_decision_clock(game, hank):
    from games.platform.services import games as game_services

    with at(10):
        game_services.game_pause(game=game, actor=hank)
    with at(500):
        assert sweep()["clocks"] == 0
        game_services.game_resume(game=game, actor=hank)
    assert clock(game).deadline == T0 + timedelta(seconds=550)
    assert state_of(game).phase == Phase.ATTACK


# -- a late decision is charged when it arrives, with no sweep run (no worker) ------------------------------


def attack(game, trio):
    attacker = state_of(game).attacker
    view = my_view(game, trio[attacker])
    return attacker, honest(view)


@pytest.fixture
def reserved(season, hank, trio):
    with at(0):
        return arms_game(
            season, hank, trio, settings={**LIMITS, "reserve_seconds": 60, "reserve_increment": 30}
        )


def test_an_attack_25_seconds_late_draws_a_reserve_increment_when_it_arrives(reserved, trio):
    attacker, move = attack(reserved, trio)
    with at(85):
        assert act(reserved, trio[attacker], move).status_code == 200
    reserves = dict(reserved.seats.values_list("number", "reserve_seconds"))
    assert reserves[attacker] == 30 and sorted(reserves.values()) == [30, 60, 60]
    assert state_of(reserved).phase == Phase.RESPOND


def test_an_attack_after_the_time_and_the_reserve_ran_out_is_not_made_the_time_out_is(reserved, trio):
    attacker, move = attack(reserved, trio)
    with at(170):  # out of time at 60 + 30 + 30
        response = act(reserved, trio[attacker], move)
    assert response.status_code == 409
    assert response.json()["detail"].startswith("Your time ran out at ")
    state = state_of(reserved)
    # Ruling 19's default instead of the move: the attack goes out with the truth.
    assert state.phase == Phase.RESPOND and state.flight.last.weapon == state.flight.weapon
    assert told(reserved).count(f"{trio[attacker].username}'s time ran out (attack).") == 1
    assert clock(reserved).deadline == T0 + timedelta(seconds=170 + 30)
    with at(171):
        assert sweep()["clocks"] == 0


def test_without_reserve_a_late_attack_is_refused_at_once(game, trio):
    attacker, move = attack(game, trio)
    with at(61):
        response = act(game, trio[attacker], move)
    assert response.status_code == 409 and "this move was not made" in response.json()["detail"]
    assert state_of(game).phase == Phase.RESPOND
