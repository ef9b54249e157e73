"""A database blip is not the game's failure (issue 28.3): a connection lost, a pool with no connection, a
server shutting down, a serialization failure, SQLite's file busy, met during a resolution, a clock's expiry
or a start time, leave the work to the next sweep and count nothing towards GENIUS_RESOLVE_MAX_ATTEMPTS;
only an error of the game's own (or of a query it got wrong) counts."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
import time_machine
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from psycopg_pool import PoolTimeout

from games.platform import tasks
from games.platform.models import Game, Round, TurnClock
from games.platform.services import clocks, rounds, sitting
from games.platform.services.rounds import Resolution, round_resolve
from tests.sitting import all_here
from tests.sweeping import sweep
from tests.toy_game import Tally

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def as_django_raises(django_error, cause: Exception) -> Exception:
    """`cause` (the driver's error) as Django's wrapper raises it: Django's class, the driver's as cause."""
    try:
        try:
            raise cause
        except Exception as exc:
            raise django_error(str(exc)) from exc
    except django_error as wrapped:
        return wrapped


def sqlite_error(sql: str) -> sqlite3.Error:
    """A real error of the SQLite library (its result code set as the library sets it)."""
    try:
        sqlite3.connect(":memory:").execute(sql)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError(f"{sql} raised nothing")


def sqlite_busy() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database is locked")
    error.sqlite_errorcode = 5  # SQLITE_BUSY: another connection holds the file's write lock
    return error


BLIPS = {
    "connection lost": as_django_raises(
        OperationalError, psycopg.OperationalError("consuming input failed: server closed the connection")
    ),
    "connection closed": InterfaceError("connection already closed"),
    "pool timeout": as_django_raises(
        OperationalError, PoolTimeout("couldn't get a connection after 5.00 sec")
    ),
    "server shutting down": as_django_raises(
        OperationalError, psycopg.errors.AdminShutdown("terminating connection due to administrator command")
    ),
    "too many connections": as_django_raises(
        OperationalError, psycopg.errors.TooManyConnections("sorry, too many clients already")
    ),
    "serialization failure": as_django_raises(
        OperationalError, psycopg.errors.SerializationFailure("could not serialize access")
    ),
    "deadlock": as_django_raises(OperationalError, psycopg.errors.DeadlockDetected("deadlock detected")),
    "sqlite busy": as_django_raises(OperationalError, sqlite_busy()),
}

GAMES_OWN = {
    "the rules raise": RuntimeError("the rules blew up"),
    "a query the game got wrong": as_django_raises(
        ProgrammingError, psycopg.errors.UndefinedTable('relation "nope" does not exist')
    ),
    "sqlite: a query the game got wrong": as_django_raises(
        OperationalError, sqlite_error("SELECT * FROM nope")
    ),
    "a statement past its time": as_django_raises(
        OperationalError, psycopg.errors.QueryCanceled("canceling statement due to statement timeout")
    ),
}


def failing(error: Exception):
    def fail(*args, **kwargs):
        raise error

    return fail


def raising(monkeypatch, error: Exception, times: int):
    """The resolution's read of the submissions raises `error` `times` times, then works again."""
    real = rounds.latest_submissions
    left = [times]

    def latest(rnd, **kwargs):
        if left[0] > 0:
            left[0] -= 1
            raise error
        return real(rnd, **kwargs)

    monkeypatch.setattr(rounds, "latest_submissions", latest)


@pytest.mark.parametrize("blip", BLIPS, ids=list(BLIPS))
def test_a_database_blip_during_a_resolution_is_tried_again_and_counts_no_failure(
    tally, settings, monkeypatch, blip
):
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 3
    rnd = tally.rounds.get(number=0)
    raising(monkeypatch, BLIPS[blip], times=5)  # more blips than the attempts a failure may have
    with time_machine.travel(rnd.closes_at, tick=False):
        for _ in range(5):
            assert round_resolve(round_id=rnd.pk) in (Resolution.AWAY, Resolution.BUSY)
            rnd.refresh_from_db()
            assert (rnd.status, rnd.attempts, rnd.last_error) == (Round.Status.OPEN, 0, "")
        assert round_resolve(round_id=rnd.pk) == Resolution.RESOLVED  # the database answers again


@pytest.mark.parametrize("own", GAMES_OWN, ids=list(GAMES_OWN))
def test_an_error_of_the_games_own_counts_and_fails_the_round_after_the_attempts(
    tally, settings, monkeypatch, own
):
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 2
    rnd = tally.rounds.get(number=0)
    raising(monkeypatch, GAMES_OWN[own], times=5)
    with time_machine.travel(rnd.closes_at, tick=False):
        assert round_resolve(round_id=rnd.pk) == Resolution.FAILED
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.OPEN and rnd.attempts == 1 and rnd.last_error
        assert round_resolve(round_id=rnd.pk) == Resolution.FAILED
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.FAILED and rnd.attempts == 2


def test_a_host_told_the_database_did_not_answer_is_told_so_not_that_the_game_failed(
    tally, hank, monkeypatch
):
    from games.platform.errors import NotResolved

    raising(monkeypatch, BLIPS["connection lost"], times=1)
    with pytest.raises(NotResolved) as refused:
        rounds.round_resolve_now(game=tally, actor=hank)
    assert refused.value.outcome == Resolution.AWAY
    assert "the database did not answer; try again in a moment" in refused.value.message


@pytest.mark.django_db(transaction=True)
def test_a_connection_cut_by_postgres_during_resolutions_leaves_the_round_open_uncounted(
    tally, settings, monkeypatch
):
    """The real thing: Postgres ends the worker's connection in the middle of the resolution, three times
    (more than GENIUS_RESOLVE_MAX_ATTEMPTS); between tasks the worker drops the dead connection, as Celery's
    Django fixup does, and the fourth resolves."""
    if connection.vendor != "postgresql":
        pytest.skip("Ends a Postgres backend.")
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 3
    real = Tally.resolve_round
    cuts = [3]

    def resolve(self, game, rnd, submissions):
        if cuts[0]:
            cuts[0] -= 1
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return real(self, game, rnd, submissions)

    monkeypatch.setattr(Tally, "resolve_round", resolve)
    rnd = tally.rounds.get(number=0)
    with time_machine.travel(rnd.closes_at, tick=False):
        for _ in range(3):
            assert round_resolve(round_id=rnd.pk) == Resolution.AWAY
            connection.close_if_unusable_or_obsolete()
            rnd.refresh_from_db()
            assert (rnd.status, rnd.attempts, rnd.last_error) == (Round.Status.OPEN, 0, "")
        assert round_resolve(round_id=rnd.pk) == Resolution.RESOLVED


@pytest.fixture
def duel(season, hank, alice, bob):
    from games.platform.services import games as game_services

    game = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


def test_a_blip_during_a_clocks_expiry_leaves_it_to_the_next_sweep(duel, monkeypatch, caplog):
    all_here(duel)
    clock = TurnClock.objects.get(game=duel)
    real = clocks.clock_settle
    monkeypatch.setattr(clocks, "clock_settle", failing(BLIPS["connection lost"]))
    with time_machine.travel(clock.deadline, tick=False):
        assert tasks.expire_clock(duel.pk, clock.generation) is False  # no traceback, no error raised
        assert "the database did not answer" in caplog.text and "next sweep retries" in caplog.text
        assert TurnClock.objects.get(game=duel).increments_used == 0
        monkeypatch.setattr(clocks, "clock_settle", real)
        assert sweep()["clocks"] == 1


def test_a_blip_when_a_start_time_comes_leaves_it_to_the_next_sweep(duel, monkeypatch, caplog):
    from django.utils import timezone

    start = timezone.now().replace(microsecond=0)
    Game.objects.filter(pk=duel.pk).update(clocks_start_at=start)
    real = sitting.events_write
    monkeypatch.setattr(sitting, "events_write", failing(BLIPS["server shutting down"]))
    with time_machine.travel(start, tick=False):
        assert tasks.start_clocks(duel.pk) is False
        assert "the database did not answer" in caplog.text
        assert Game.objects.get(pk=duel.pk).clocks_started_at is None
        monkeypatch.setattr(sitting, "events_write", real)
        assert sweep()["starts"] == 1


def test_an_error_of_the_game_in_a_clocks_expiry_is_still_raised(duel, monkeypatch):
    all_here(duel)
    clock = TurnClock.objects.get(game=duel)
    monkeypatch.setattr(clocks, "clock_settle", failing(RuntimeError("a bug")))
    with time_machine.travel(clock.deadline, tick=False), pytest.raises(RuntimeError):
        tasks.expire_clock(duel.pk, clock.generation)
