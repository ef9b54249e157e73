"""The deadline sweep: rounds close on time, exactly once, and nothing submitted before the close is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings as django_settings
from django.core import mail
from django.db import close_old_connections, connection
from django.utils import timezone

from games.platform import versions
from games.platform.errors import RoundClosed
from games.platform.models import AuditLog, Event, Game, LedgerAccount, Round, Submission
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve, submission_save
from tests.conftest import seat_of
from tests.sweeping import sweep

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]


def needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("Concurrency needs real row locks: run with DATABASE_URL pointing at PostgreSQL.")


def totals_announced(game) -> int:
    return Event.objects.filter(game=game, kind="announcement", text__startswith="Round 0 total").count()


def make_tally(season, hank, players, **settings):
    game = game_services.game_create(
        season=season, game_type="tally", name="T", hosts=[hank], settings=settings, actor=hank
    )
    for player in players:
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_the_sweep_closes_a_due_round_and_opens_the_next(tally):
    rnd = tally.rounds.get(number=0)
    assert sweep()["resolved"] == 0  # not due yet
    with time_machine.travel(rnd.closes_at + timedelta(seconds=1)):
        assert sweep()["resolved"] == 1
        assert sweep()["resolved"] == 0  # re-running it is safe
        nxt = tally.rounds.get(number=1)
        assert nxt.status == Round.Status.OPEN
        assert nxt.closes_at - nxt.opens_at == timedelta(minutes=60)
    assert totals_announced(tally) == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_the_same_moment_resolve_each_round_exactly_once(season, hank, alice, bob):
    needs_postgres()
    games = [make_tally(season, hank, [alice, bob]) for _ in range(4)]
    for game in games:
        submission_save(seat=seat_of(game, alice), round_number=0, payload={"number": 2})
    now = timezone.now()  # after the saves: they count
    Round.objects.filter(game__in=games).update(opens_at=now - timedelta(hours=1), closes_at=now)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(sweep()["resolved"])
        except Exception as exc:  # surfaced below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 2
    # Both sweeps queued the rounds; each resolution ran once (the totals and points below, not twice).
    assert Round.objects.filter(game__in=games, number=0, status=Round.Status.RESOLVED).count() == 4
    for game in games:
        assert totals_announced(game) == 1
        assert LedgerAccount.objects.get(game=game, user=alice, what="points").balance == 2
        assert game.rounds.filter(number=1).count() == 1


@pytest.mark.django_db
def test_a_resolution_that_raises_halfway_leaves_no_trace_and_the_next_sweep_resolves_once(
    season, hank, alice, bob
):
    game = make_tally(season, hank, [alice, bob], explode_on_round=0)
    submission_save(seat=seat_of(game, alice), round_number=0, payload={"number": 4})
    later = timezone.now() + timedelta(hours=2)
    assert sweep(now=later)["resolved"] == 0
    rnd = game.rounds.get(number=0)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 1 and "blew up" in rnd.last_error
    assert not LedgerAccount.objects.filter(
        what="garnets", balance__gt=0
    ).exists()  # the half-way write is gone
    assert totals_announced(game) == 0 and not game.rounds.filter(number=1).exists()
    Game.objects.filter(pk=game.pk).update(settings={**game.settings, "explode_on_round": None})
    assert sweep(now=later)["resolved"] == 1
    assert sweep(now=later)["resolved"] == 0
    assert totals_announced(game) == 1
    assert LedgerAccount.objects.get(game=game, user=alice, what="points").balance == 4


@pytest.mark.django_db
def test_after_repeated_failures_the_round_is_failed_and_waits_for_the_hosts(
    season, hank, alice, bob, settings
):
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 3
    game = make_tally(season, hank, [alice, bob], explode_on_round=0)
    later = timezone.now() + timedelta(hours=2)
    for _ in range(5):
        sweep(now=later)
    rnd = game.rounds.get(number=0)
    assert rnd.status == Round.Status.FAILED and rnd.attempts == 3
    assert AuditLog.objects.filter(game=game, action="round_failed").count() == 1
    from games.platform.observation import observe, viewer_for

    assert "blew up" in observe(game, viewer_for(game, hank))["failed_round"]["error"]
    Game.objects.filter(pk=game.pk).update(settings={**game.settings, "explode_on_round": None})
    from games.platform.services.rounds import round_retry

    round_retry(game=game, actor=hank)
    assert sweep(now=later)["resolved"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_resolution_leaves_nothing_and_the_next_sweep_resolves_once(
    season, hank, alice, bob, tmp_path
):
    needs_postgres()
    flag = tmp_path / "inside"
    game = make_tally(season, hank, [alice, bob], hang_on_round=0, hang_flag=str(flag))
    now = timezone.now()
    Round.objects.filter(game=game).update(
        opens_at=now - timedelta(seconds=9), closes_at=now - timedelta(seconds=1)
    )
    submission_save(
        seat=seat_of(game, alice), round_number=0, payload={"number": 5}, now=now - timedelta(seconds=5)
    )
    db = django_settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "DJANGO_SETTINGS_MODULE": "genius.settings",
    }
    # What the worker runs for the task the sweep queued for this round.
    code = (
        "import django; django.setup(); from games.platform.tasks import resolve_round; "
        f"resolve_round({game.rounds.get(number=0).pk})"
    )
    worker = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    try:
        for _ in range(300):
            if flag.exists():
                break
            time.sleep(0.1)
        assert flag.exists(), "the worker never reached the middle of the resolution"
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    finally:
        if worker.poll() is None:
            worker.kill()
    Game.objects.filter(pk=game.pk).update(settings={**game.settings, "hang_on_round": None})
    assert not LedgerAccount.objects.filter(what="garnets", balance__gt=0).exists()
    assert Round.objects.get(game=game, number=0).status == Round.Status.OPEN
    for _ in range(50):  # the killed connection's lock is released when Postgres notices the dead client
        if sweep()["resolved"]:
            break
        time.sleep(0.2)
    assert totals_announced(game) == 1
    assert LedgerAccount.objects.get(game=game, user=alice, what="points").balance == 5
    assert sweep()["resolved"] == 0


@pytest.mark.django_db(transaction=True)
def test_submissions_racing_the_close_are_counted_or_refused_never_lost(season, hank, make_user):
    needs_postgres()
    players = [make_user(f"racer{i}") for i in range(6)]
    game = make_tally(season, hank, players)
    closes_at = timezone.now() + timedelta(seconds=1.5)
    Round.objects.filter(game=game, number=0).update(closes_at=closes_at)
    accepted: dict[int, int] = {}
    refused: dict[int, int] = {}
    stop = threading.Event()

    def submit(seat_number: int):
        seat = game.seats.get(number=seat_number)
        number = 0
        try:
            while not stop.is_set():
                number = number % 10 + 1
                try:
                    submission_save(seat=seat, round_number=0, payload={"number": number})
                    accepted[seat_number] = number  # what the client was told: saved
                except RoundClosed:
                    refused[seat_number] = refused.get(seat_number, 0) + 1
                    break
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not sweep()["resolved"]:
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    game.refresh_from_db()
    used = {int(k): v for k, v in game.state["picks"]["0"].items()}
    assert used == accepted, "what the resolution used must be each player's last accepted save"
    assert set(refused) == set(range(6)), "every racer was eventually told the round had closed"
    assert not Submission.objects.filter(
        round__game=game, round__number=0, created_at__gte=closes_at
    ).exists()


@pytest.mark.django_db
def test_notifications_are_sent_only_after_the_resolution_commits(
    tally, alice, django_capture_on_commit_callbacks
):
    rnd = tally.rounds.get(number=0)
    with django_capture_on_commit_callbacks(execute=True):
        round_resolve(round_id=rnd.id, early=True)
    assert (
        sorted(m.subject for m in mail.outbox)
        == ["Tally: Round 0 is resolved"] * 2 + ["Tally: Round 1 is open"] * 2
    )
    mail.outbox.clear()
    Game.objects.filter(pk=tally.pk).update(settings={**tally.settings, "explode_on_round": 1})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        round_resolve(round_id=tally.rounds.get(number=1).id, early=True)
    # Nothing is sent: the only step left for after the commit raises the game's shared version and tells
    # the open pages (the hosts' page shows the failure).
    assert [getattr(step, "func", step) for step in callbacks] == [versions._committed] and mail.outbox == []


@pytest.mark.django_db
def test_a_reminder_goes_once_per_round_to_those_who_have_not_submitted(tally, alice, bob, settings):
    settings.GENIUS_REMINDER_HOURS = 0.5
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 1})
    rnd = tally.rounds.get(number=0)
    with time_machine.travel(rnd.closes_at - timedelta(minutes=10)):
        sweep()
        sweep()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "closes soon" in mail.outbox[0].subject


@pytest.mark.django_db
def test_a_round_closes_early_once_every_player_marked_final(
    season, hank, alice, bob, django_capture_on_commit_callbacks
):
    game = make_tally(season, hank, [alice, bob], close_when_all_final=True)
    with django_capture_on_commit_callbacks(execute=True):
        submission_save(seat=seat_of(game, alice), round_number=0, payload={"number": 1}, final=True)
    assert game.rounds.get(number=0).status == Round.Status.OPEN
    with django_capture_on_commit_callbacks(execute=True):
        submission_save(seat=seat_of(game, bob), round_number=0, payload={"number": 2}, final=True)
    assert game.rounds.get(number=0).status == Round.Status.RESOLVED


@pytest.mark.django_db
def test_pause_keeps_the_remaining_time_and_resume_gives_it_back(tally, hank):
    rnd = tally.rounds.get(number=0)
    start = timezone.now()
    with time_machine.travel(start + timedelta(minutes=20), tick=False):
        game_services.game_pause(game=tally, actor=hank)
    with time_machine.travel(start + timedelta(hours=30), tick=False):
        assert sweep()["resolved"] == 0  # a paused round never closes
        game_services.game_resume(game=tally, actor=hank)
        rnd.refresh_from_db()
        left = rnd.closes_at - timezone.now()
    assert timedelta(minutes=39) < left <= timedelta(minutes=40)


@pytest.mark.django_db
def test_a_host_can_extend_a_window_and_resolve_early(tally, hank):
    rnd = tally.rounds.get(number=0)
    before = rnd.closes_at
    game_services.round_extend(game=tally, by=timedelta(hours=1), actor=hank)
    rnd.refresh_from_db()
    assert rnd.closes_at - before == timedelta(hours=1)
    from games.platform.services.rounds import round_resolve_now

    assert round_resolve_now(game=tally, actor=hank)
    assert AuditLog.objects.filter(game=tally, action__in=["round_extend", "round_resolve_now"]).count() == 2


@pytest.mark.django_db
def test_a_round_that_is_not_ready_waits_without_counting_a_failure(tally, hank, monkeypatch):
    from games.platform import registry
    from games.platform.errors import NotReady
    from games.platform.observation import observe, viewer_for

    kind = registry.get("tally")
    original = kind.resolve_round

    def waiting(game, rnd, submissions):
        raise NotReady("a host's verdict is missing")

    monkeypatch.setattr(kind, "resolve_round", waiting)
    later = timezone.now() + timedelta(hours=2)
    for _ in range(5):
        assert sweep(now=later)["resolved"] == 0
    rnd = tally.rounds.get(number=0)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0
    assert observe(tally, viewer_for(tally, hank))["round_waiting"] == "a host's verdict is missing"
    monkeypatch.setattr(kind, "resolve_round", original)
    assert sweep(now=later)["resolved"] == 1
