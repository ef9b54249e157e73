"""A row lock held by a transaction left open, under a live gunicorn, Celery worker and beat (issue 18.7).

One game's round row, and another game's game row, are held by an open transaction (a stuck request, an
admin edit left open) while rounds of other games fall due: those resolve while the rows are still held, no
later than a sweep and one lock wait after their deadline, and the stuck games' pages say "closed, results
coming". Once the rows are free, the stuck rounds resolve too, each once. Saves sent to the held round are
answered "busy, try again" within a lock wait, and another game's requests are not held up (issue 28.3).
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.platform.models import Event, Game, Round, Submission
from games.platform.services import games as game_services
from tests.faults.stack import wait_until

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30
# The live stack's sweep runs every second (tests/faults/stack.py) and waits GENIUS_LOCK_WAIT_SECONDS for a
# row lock. A free game's round is due to resolve within one sweep and one lock wait; the slack is for a
# loaded machine. A sweep that queued the held games every second would put one lock wait per sweep in front
# of them: far more than this.
SWEEP_SECONDS = 1
SLACK_SECONDS = 6


def tally(season, hank, players, name):
    game = game_services.game_create(season=season, game_type="tally", name=name, hosts=[hank], actor=hank)
    for player in players:
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


def round_zero(game) -> Round:
    return Round.objects.get(game=game, number=0)


def test_rows_held_by_an_open_transaction_delay_only_their_own_games(stack, season, hank, alice, bob):
    round_held, game_held = (
        tally(season, hank, [alice, bob], "Round held"),
        tally(season, hank, [alice, bob], "Game held"),
    )
    free = [tally(season, hank, [alice, bob], f"Free {n}") for n in range(3)]
    now = timezone.now()
    # The held games fall due first (the sweep meets them first, in deadline order); the free ones a few
    # seconds later, when a sweep that queued a task per held game every second would have a backlog.
    deadlines = {round_held.pk: 2, game_held.pk: 2, free[0].pk: 6, free[1].pk: 7, free[2].pk: 8}
    for game_id, seconds in deadlines.items():
        Round.objects.filter(game_id=game_id, number=0).update(
            opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(seconds=seconds)
        )

    with transaction.atomic():  # the test's own connection: its reads below still see the worker's commits
        Round.objects.select_for_update().get(pk=round_zero(round_held).pk)
        Game.objects.select_for_update().get(pk=game_held.pk)
        wait_until(
            lambda: all(round_zero(g).status == Round.Status.RESOLVED for g in free),
            "the free games' rounds resolving while the other rows are held",
            90,
        )
        for game in free:
            rnd = round_zero(game)
            late = (rnd.resolved_at - rnd.closes_at).total_seconds()
            assert late <= SWEEP_SECONDS + settings.GENIUS_LOCK_WAIT_SECONDS + SLACK_SECONDS, (
                game.name,
                late,
            )
        for game in (round_held, game_held):
            assert round_zero(game).status == Round.Status.OPEN
            page = requests.get(f"{stack.url}/games/{game.id}/", timeout=TIMEOUT)
            assert page.status_code == 200 and "closed, results coming" in page.text
        released_at = timezone.now()

    for game in (round_held, game_held):
        wait_until(lambda g=game: round_zero(g).status == Round.Status.RESOLVED, f"{game.name} resolving", 60)
        rnd = round_zero(game)
        assert rnd.resolved_at >= released_at and rnd.attempts == 0 and rnd.last_error == ""
        assert Event.objects.filter(game=game, text__startswith="Round 0 total").count() == 1
        page = requests.get(f"{stack.url}/games/{game.id}/", timeout=TIMEOUT).text
        assert "Round 0 total" in page and "results coming" not in page.split("data-once-closed")[0]
    assert "Traceback" not in stack.log("worker")


def test_saves_to_a_held_round_answer_busy_and_leave_the_web_to_other_games(stack, season, hank, alice, bob):
    """Issue 28.3: one round row held 30 s made six saves wait 29 s, and another game's API request 27 s, for
    every gunicorn worker was waiting. Now a save waits GENIUS_LOCK_WAIT_SECONDS at most and answers 409 with
    Retry-After; a worker that found the game held answers the next saves to it at once; the other game's
    request is answered within one lock wait."""
    held_game, other = tally(season, hank, [alice, bob], "Held"), tally(season, hank, [alice, bob], "Other")
    tokens = {u.username: Token.objects.create(user=u).key for u in (alice, bob)}

    def save(game, who, number):
        started = time.monotonic()
        answer = requests.post(
            f"{stack.url}/api/games/{game.id}/submission/",
            json={"round": 0, "payload": {"number": number}},
            headers={"Authorization": f"Token {tokens[who]}"},
            timeout=TIMEOUT,
        )
        return answer, time.monotonic() - started

    wait = settings.GENIUS_LOCK_WAIT_SECONDS
    with transaction.atomic():  # the test's own connection holds the round row, as a stuck request would
        Round.objects.select_for_update().get(pk=round_zero(held_game).pk)
        with ThreadPoolExecutor(max_workers=7) as pool:
            saves = [pool.submit(save, held_game, ("alice", "bob")[n % 2], n) for n in range(6)]
            time.sleep(0.2)  # the saves are in, and wait for the row
            started = time.monotonic()
            read = requests.get(
                f"{stack.url}/api/games/{other.id}/",
                headers={"Authorization": f"Token {tokens['alice']}"},
                timeout=TIMEOUT,
            )
            other_waited = time.monotonic() - started
            other_save, _ = save(other, "alice", 5)
            answers = [future.result() for future in saves]
    assert read.status_code == 200 and other_save.status_code == 201, (read.text, other_save.text)
    assert other_waited <= wait + SLACK_SECONDS, other_waited
    for answer, took in answers:
        assert answer.status_code == 409, answer.text
        assert answer.headers["Retry-After"] == str(math.ceil(wait))
        assert "try again" in answer.json()["detail"]
        assert took <= 2 * wait + SLACK_SECONDS, took
    assert not Submission.objects.filter(round__game=held_game).exists()
    # The row free, the same save is stored.
    assert save(held_game, "alice", 3)[0].status_code == 201
    assert "Traceback" not in stack.log("web")
