"""Deadlines hold one game at a time: each resolution at its own time, the next window from the close,
overdue rounds in deadline order, and a game whose rows are stuck delays no other game's deadline."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone

from games.platform import registry
from games.platform.models import Event, Game, Round, TurnClock
from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from games.platform.zones import local_text
from tests.api_support import submit
from tests.conftest import seat_of
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def make_game(season, hank, players, game_type="tally", **settings):
    game = game_services.game_create(
        season=season, game_type=game_type, name=game_type, hosts=[hank], settings=settings, actor=hank
    )
    for player in players:
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def first_result_id(game) -> int:
    return Event.objects.filter(game=game, text__startswith="Round 0 total").values_list("id", flat=True)[0]


def test_the_409_after_a_late_close_names_the_deadline_not_when_the_resolution_ran(tally, alice):
    deadline = tally.rounds.get(number=0).closes_at
    sweep(now=deadline + timedelta(seconds=30))
    late = submit(tally, alice, 0, {"number": 3})
    assert late.status_code == 409
    assert datetime.fromisoformat(late.json()["closed_at"]) == deadline
    assert local_text(deadline) in late.json()["detail"]


def test_the_next_window_starts_at_the_deadline_however_late_the_sweep(tally):
    deadline = tally.rounds.get(number=0).closes_at
    sweep(now=deadline + timedelta(seconds=20))
    rnd = tally.rounds.get(number=0)
    assert rnd.resolved_at == deadline + timedelta(seconds=20)  # when it really ran
    nxt = tally.rounds.get(number=1)
    assert nxt.opens_at == deadline and nxt.closes_at == deadline + timedelta(minutes=60)


def test_after_an_outage_the_next_window_starts_at_the_resolution_and_is_whole(tally):
    deadline = tally.rounds.get(number=0).closes_at
    back = deadline + timedelta(minutes=30)
    sweep(now=back)
    nxt = tally.rounds.get(number=1)
    assert nxt.opens_at == back and nxt.closes_at == back + timedelta(minutes=60)


def test_each_resolution_in_one_sweep_takes_its_own_time(season, hank, alice, bob, monkeypatch):
    games = [make_game(season, hank, [alice, bob]) for _ in range(2)]
    deadline = max(Round.objects.filter(game__in=games).values_list("closes_at", flat=True))
    kind = registry.get("tally")
    resolve = kind.resolve_round
    with time_machine.travel(deadline + timedelta(seconds=1), tick=False) as clock:

        def slow(game, rnd, submissions):
            clock.shift(timedelta(seconds=40))  # this game's rules take 40 s
            return resolve(game, rnd, submissions)

        monkeypatch.setattr(kind, "resolve_round", slow)
        assert sweep()["resolved"] == 2
    first, second = sorted(Round.objects.filter(game__in=games, number=0), key=lambda r: r.resolved_at)
    assert second.resolved_at - first.resolved_at == timedelta(seconds=40)
    for rnd in (first, second):
        nxt = Round.objects.get(game=rnd.game, number=1)
        assert nxt.opens_at == rnd.closes_at and nxt.closes_at - nxt.opens_at == timedelta(minutes=60)


def test_overdue_rounds_resolve_in_deadline_order_not_row_order(season, hank, alice, bob):
    games = [make_game(season, hank, [alice, bob]) for _ in range(3)]
    start = timezone.now()
    for minutes, game in zip((30, 20, 10), games, strict=True):  # the newest row is the most overdue
        Round.objects.filter(game=game).update(opens_at=start, closes_at=start + timedelta(minutes=minutes))
    sweep(now=start + timedelta(hours=1))
    resolved = sorted(games, key=first_result_id)
    assert resolved == list(reversed(games))


def hold_rows_of(game, what: str, held: threading.Event, release: threading.Event):
    """Another transaction takes `what` of `game` (its game row or its round row) and keeps it open."""
    try:
        with transaction.atomic():
            if what == "game":
                Game.objects.select_for_update().get(pk=game.pk)
            else:
                Round.objects.select_for_update().get(game=game, number=0)
            held.set()
            release.wait(30)
    finally:
        connection.close()


@pytest.mark.parametrize("held_row", ["game", "round"])
@pytest.mark.django_db(transaction=True)
def test_a_game_whose_rows_a_stuck_transaction_holds_delays_no_other_games_deadline(
    season, hank, alice, bob, settings, held_row
):
    if connection.vendor != "postgresql":
        pytest.skip("Row locks need PostgreSQL.")
    settings.GENIUS_LOCK_WAIT_SECONDS = 0.5
    stuck = make_game(season, hank, [alice, bob])
    others = [make_game(season, hank, [alice, bob]) for _ in range(2)]
    duel = make_game(season, hank, [alice, bob], game_type="tally_duel")
    submission_save(seat=seat_of(others[0], alice), round_number=0, payload={"number": 4})
    now = timezone.now()
    for offset, game in enumerate([stuck, *others]):  # the stuck game is the most overdue
        Round.objects.filter(game=game).update(
            opens_at=now - timedelta(hours=1), closes_at=now - timedelta(minutes=3 - offset)
        )
    TurnClock.objects.filter(game=duel).update(deadline=now - timedelta(seconds=1))
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_rows_of, args=(stuck, held_row, held, release))
    holder.start()
    try:
        assert held.wait(10)
        swept = sweep()
        still_held = holder.is_alive() and not release.is_set()
    finally:
        release.set()
        holder.join(30)
    assert still_held, "the sweep waited for the stuck game instead of passing it by"
    assert swept["resolved"] == 2 and swept["clocks"] == 1
    # Nothing was queued for the held game: a task would only wait for its rows and give up, once a sweep.
    assert swept["queued"] == {"rounds": 2, "clocks": 1, "starts": 0}
    for game in others:
        assert Round.objects.get(game=game, number=0).status == Round.Status.RESOLVED
    rnd = Round.objects.get(game=stuck, number=0)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0 and rnd.last_error == ""
    assert sweep()["resolved"] == 1  # once the rows are free, the next sweep resolves it
    assert Round.objects.get(game=stuck, number=0).status == Round.Status.RESOLVED


def test_the_sweeps_transactions_wait_a_bounded_time_for_locks_and_statements(settings):
    if connection.vendor != "postgresql":
        pytest.skip("The limits are Postgres settings.")
    from games.platform.services.locks import limit_waits

    settings.GENIUS_LOCK_WAIT_SECONDS, settings.GENIUS_STATEMENT_SECONDS = 2, 20
    with transaction.atomic():
        limit_waits()
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == "2s"
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "20s"
