"""A worker whose clock is 30 s ahead of the web's and the database's (issue 28.4), under a live gunicorn and
a Celery worker with beat whose wall clock is set 30 s ahead (tests/faults/clock_off.py, which says why not
libfaketime).

With each process on its own clock, such a worker closed rounds 30 s early (39 saves sent before the deadline
were refused "closed") and ran a live player's clock out early. On the database's clock (genius/clock.py),
every save sent before the deadline is stored and counts, the round resolves at its deadline and not
before, and a live player's move a second before their time runs out is made.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

import pytest
import requests
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.platform.models import Event, Game, Round, TurnClock
from games.platform.services import games as game_services
from tests.faults.stack import Stack, on_the_tests_database, wait_until
from tests.sitting import all_here

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30
AHEAD = 30  # seconds the worker's clock is ahead
LEAD = 12  # seconds from the test's start to the deadlines: the stack is up, and saves go in until then


@pytest.fixture
def stack_with_worker_ahead(transactional_db, own_redis, tmp_path):
    live = on_the_tests_database(own_redis, tmp_path, worker_clock_off=AHEAD)
    live.start()
    yield live
    live.stop()


def game_of(season, hank, players, game_type, name):
    game = game_services.game_create(season=season, game_type=game_type, name=name, hosts=[hank], actor=hank)
    for player in players:
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)
    return game


def worker_clock_ahead(stack: Stack) -> float:
    """How far ahead of ours the worker's log lines are stamped (its clock, as it reads it)."""
    stamps = re.findall(r"^\[?(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+", stack.log("worker"), re.MULTILINE)
    if not stamps:
        return 0.0
    theirs = datetime.strptime(stamps[-1], "%Y-%m-%d %H:%M:%S")
    return (theirs - datetime.now()).total_seconds()


def test_a_worker_30_s_ahead_closes_no_round_and_no_clock_before_its_deadline(
    stack_with_worker_ahead, season, hank, alice, bob
):
    stack = stack_with_worker_ahead
    tally = game_of(season, hank, [alice, bob], "tally", "Tally")
    duel = game_of(season, hank, [alice, bob], "tally_duel", "Duel")
    wait_until(lambda: worker_clock_ahead(stack) > AHEAD - 5, "the worker logging 30 s ahead", 30)
    deadline = timezone.now() + timedelta(seconds=LEAD)
    Round.objects.filter(game=tally, number=0).update(
        opens_at=deadline - timedelta(hours=1), closes_at=deadline
    )
    TurnClock.objects.filter(game=duel).update(deadline=deadline)
    mover = TurnClock.objects.select_related("seat__user").get(game=duel).seat.user
    tokens = {u.username: Token.objects.create(user=u).key for u in (alice, bob)}

    def post(who, path, body):
        headers = {"Authorization": f"Token {tokens[who]}"}
        return requests.post(f"{stack.url}/api/{path}", json=body, headers=headers, timeout=TIMEOUT)

    refused, number = [], 0
    while timezone.now() < deadline - timedelta(seconds=1.5):
        number = (number + 1) % 11
        saved = post("alice", f"games/{tally.id}/submission/", {"round": 0, "payload": {"number": number}})
        if saved.status_code != 201:
            refused.append((timezone.now(), saved.status_code, saved.text))
        assert Round.objects.get(game=tally, number=0).status == Round.Status.OPEN, "closed early"
        assert TurnClock.objects.get(game=duel).increments_used == 0, "the live clock ran out early"
        time.sleep(0.5)
    assert refused == []
    moved = post(mover.username, f"games/{duel.id}/action/", {"payload": {"say": 3}})
    assert moved.status_code == 200, moved.text  # a second before the player's time ran out: made

    wait_until(
        lambda: Round.objects.get(game=tally, number=0).status == Round.Status.RESOLVED,
        "the round resolving once its deadline came",
        AHEAD,
    )
    rnd = Round.objects.get(game=tally, number=0)
    assert rnd.resolved_at >= rnd.closes_at
    # The last save counted (bob saved nothing).
    assert Event.objects.filter(game=tally, text=f"Round 0 total: {number}.").exists()
    assert Game.objects.get(pk=duel.pk).status == Game.Status.RUNNING
    assert "Traceback" not in stack.log("worker")
