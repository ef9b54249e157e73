"""One clock (issue 28.4): whether a deadline has passed is decided by the database's clock in every process,
so a process whose own clock is 30 s off (a worker ahead, a web behind) closes no round early, runs no live
player's clock out early, and refuses no save sent before the deadline.

The process's clock is skewed with time-machine (ticking), which moves Python's clock and not the
database's: Postgres's `clock_timestamp()`, and SQLite's, which is the machine's. GENIUS_DATABASE_CLOCK is
on here, as in production; the rest of the tests turn it off (tests/conftest.py, genius/clock.py says why).
"""

from __future__ import annotations

import contextlib
import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.platform.errors import RoundClosed
from games.platform.models import Round, Submission, TurnClock
from games.platform.services import games as game_services
from games.platform.services.clocks import clock_expire
from games.platform.services.rounds import Resolution, round_resolve, submission_save
from genius import clock
from tests.conftest import seat_of
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = [pytest.mark.django_db, pytest.mark.services]

SKEW = timedelta(seconds=30)


@pytest.fixture(autouse=True)
def database_clock(settings, monkeypatch):
    settings.GENIUS_DATABASE_CLOCK = True
    monkeypatch.setattr(clock, "last", clock.Reading())  # no reading of another test's


# The true time (the database's, on this machine) while this process's clock is skewed: the wall clock read
# before any travel, moved on by the monotonic clock, which time-machine leaves alone.
ANCHOR = (datetime.now(UTC), time.monotonic())


def true_now() -> datetime:
    wall, monotonic = ANCHOR
    return wall + timedelta(seconds=time.monotonic() - monotonic)


@contextlib.contextmanager
def process_clock(off: timedelta):
    """This process's clock `off` from the database's (ahead when positive), running; read afresh."""
    with time_machine.travel(true_now() + off, tick=True):
        clock.read_database_clock()
        yield


def close_round_at(game, closes_at) -> Round:
    Round.objects.filter(game=game, number=0).update(
        opens_at=closes_at - timedelta(hours=1), closes_at=closes_at
    )
    return Round.objects.get(game=game, number=0)


def test_the_skew_from_the_databases_clock_is_read_and_site_now_follows_the_database():
    with process_clock(SKEW):
        assert clock.clock_skew_seconds() == pytest.approx(-30, abs=1)
        assert abs((clock.site_now() - true_now()).total_seconds()) < 1
    with process_clock(-SKEW):
        assert clock.clock_skew_seconds() == pytest.approx(30, abs=1)
        assert abs((clock.site_now() - true_now()).total_seconds()) < 1


def test_readyz_reports_the_skew_it_sees(client):
    with process_clock(SKEW):
        said = client.get("/readyz/").json()
    assert said["clock_skew_seconds"] == pytest.approx(-30, abs=1)


def test_the_skew_is_read_at_most_every_half_minute_not_per_call():
    clock.read_database_clock()
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            clock.site_now()
    assert len(queries) == 0


def test_a_worker_ahead_neither_sweeps_nor_resolves_a_round_before_its_deadline(tally, settings):
    rnd = close_round_at(tally, true_now() + timedelta(seconds=10))
    with process_clock(SKEW):
        assert sweep()["queued"]["rounds"] == 0
        assert round_resolve(round_id=rnd.pk) == Resolution.NOT_DUE
        # The same worker trusting its own clock would have closed the round 20 s early.
        settings.GENIUS_DATABASE_CLOCK = False
        assert round_resolve(round_id=rnd.pk) == Resolution.RESOLVED


def test_a_web_ahead_takes_a_save_sent_before_the_deadline_and_stamps_it_by_the_database(tally, alice):
    rnd = close_round_at(tally, true_now() + timedelta(seconds=10))
    with process_clock(SKEW):
        saved = submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 4})
    assert saved.created_at < rnd.closes_at  # it counts in the resolution (saved before the close)
    assert abs((saved.created_at - true_now()).total_seconds()) < 2


def test_a_web_behind_refuses_a_save_after_the_deadline(tally, alice):
    close_round_at(tally, true_now() - timedelta(seconds=5))
    with process_clock(-SKEW), pytest.raises(RoundClosed):
        submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 4})
    assert not Submission.objects.exists()


@pytest.fixture
def duel(season, hank, alice, bob):
    game = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)
    return game


def test_a_worker_ahead_does_not_run_a_live_players_clock_out_early(duel):
    TurnClock.objects.filter(game=duel).update(deadline=true_now() + timedelta(seconds=10))
    clock_row = TurnClock.objects.get(game=duel)
    with process_clock(SKEW):
        assert sweep()["queued"]["clocks"] == 0
        assert clock_expire(game_id=duel.pk, generation=clock_row.generation) is False
    assert TurnClock.objects.get(game=duel).increments_used == 0
