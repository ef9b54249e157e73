"""A row lock held by a transaction left open, under a live gunicorn, Celery worker and beat (issue 18.7).

One game's round row, and another game's game row, are held by an open transaction (a stuck request, an
admin edit left open) while rounds of other games fall due: those resolve while the rows are still held, no
later than a sweep and one lock wait after their deadline, and the stuck games' pages say "closed, results
coming". Once the rows are free, the stuck rounds resolve too, each once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.platform.models import Event, Game, Round
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
