"""Round windows: saving submissions before the close, resolving each round exactly once, the sweep."""

from __future__ import annotations

import enum
import logging
import traceback
from datetime import timedelta

from django.conf import settings
from django.db import transaction

from genius.clock import site_now

from .. import enqueue, pagecache, registry
from ..errors import NotReady, NotResolved, RoundClosed, StateChanged
from ..models import Game, Round, Seat, Submission
from .audit import audit
from .blips import database_away
from .events import bump_version
from .hosts import require_host
from .locks import limit_waits, lock_not_granted, one_game_at_a_time
from .outcomes import game_finish, outcome_apply

log = logging.getLogger("games.platform.rounds")


@one_game_at_a_time
def submission_save(
    *, seat: Seat, round_number: int, payload: dict, final: bool = False, now=None
) -> Submission:
    """Save a new version of the seat's submission for the round, or refuse it: never accept and ignore.

    The round row is locked (FOR NO KEY UPDATE), so a save either commits before the resolution reads the
    submissions (and counts) or sees the round closed (and is refused with the closing time). The ORM has
    no shared row lock, so the saves of one round also queue behind each other for the few milliseconds of
    their commits: a round has at most ten players. A round row another transaction holds longer than
    GENIUS_LOCK_WAIT_SECONDS (a stuck one) makes the save give up, Busy: "try again", with nothing lost of
    what the player typed, and the web worker free for other games.
    """
    now = now or site_now()
    rnd = (
        Round.objects.select_for_update(no_key=True).filter(game_id=seat.game_id, number=round_number).first()
    )
    if rnd is None:
        raise StateChanged(f"Round {round_number} has not opened.")
    if rnd.status != Round.Status.OPEN:
        raise RoundClosed(rnd.closes_at)  # the deadline (or the early close), not when the resolution ran
    if rnd.remaining_when_paused is None and now >= rnd.closes_at:
        # Closed, not resolved yet: the results are on their way, whenever the worker runs.
        raise RoundClosed(rnd.closes_at, late=True)
    game = seat.game
    cleaned = registry.get(game.game_type).clean_submission(game, seat, rnd, payload)
    submission = Submission.objects.create(round=rnd, seat=seat, payload=cleaned, final=final, created_at=now)
    pagecache.seat_changed(seat)
    if final and game.settings.get("close_when_all_final") and rnd.remaining_when_paused is None:
        # Never while the game is paused (the round would close with no time left on the resume):
        # game_resume closes a round that everyone marked final during the pause.
        if all_final(rnd):
            enqueue.resolve_round(rnd.pk, True)
    return submission


def all_final(rnd: Round) -> bool:
    latest = latest_submissions(rnd)
    return len(latest) == rnd.game.seats.count() and all(s.final for s in latest.values())


def latest_submissions(rnd: Round, *, until=None, with_users=False) -> dict[int, Submission]:
    """Each seat's latest saved version (saved before `until` if given), by seat number, in one query."""
    rows = Submission.objects.filter(round=rnd).select_related(
        "seat__user__profile" if with_users else "seat"
    )
    rows = rows.order_by("created_at", "id")
    if until is not None:
        rows = rows.filter(created_at__lt=until)
    latest: dict[int, Submission] = {}
    for row in rows:
        latest[row.seat.number] = row
    return latest


# A resolution this close to its deadline keeps the schedule: the next window starts at the deadline. One
# later than this (an outage, or a round that waited for a host's verdict) starts the next window at the
# resolution instead, so nobody loses more than this much of a round they could not see.
ON_SCHEDULE = timedelta(minutes=1)


class Resolution(enum.StrEnum):
    """What one call of `round_resolve` did; true only when it resolved the round."""

    RESOLVED = "resolved"
    ALREADY_RESOLVED = "already resolved"
    NOT_DUE = "not due"
    PAUSED = "paused"
    NOT_RUNNING = "not running"
    WAITING = "waiting"
    FAILED = "failed"
    BUSY = "busy"
    AWAY = "database away"

    def __bool__(self) -> bool:
        return self is Resolution.RESOLVED


def round_open(*, game: Game, number: int, now) -> Round | None:
    window = registry.get(game.game_type).round_window(game, number)
    if window is None:
        return None
    return Round.objects.create(game=game, number=number, opens_at=now, closes_at=now + window)


def opens_by_hand(game: Game, number: int) -> bool:
    """Round `number` exists and waits for a host's "Open Round N" (services.games.round_open_by_hand)."""
    kind = registry.get(game.game_type)
    return kind.round_window(game, number) is not None and kind.round_opens_by_hand(game, number)


def round_resolve(*, round_id: int, early: bool = False, actor=None) -> Resolution:
    """Close and resolve one round in one transaction, at this call's own time; say what happened.

    Safe to call any number of times from anywhere: under the game's and then the round's lock (the order
    every service takes them in) it re-checks that the game runs unpaused and the round is still open and
    due. Early (every player final, or a host's "resolve now") it needs no deadline, but never while the
    game is paused. If the game type raises, nothing is kept; the failure is counted and, after
    GENIUS_RESOLVE_MAX_ATTEMPTS, the round is marked failed for the hosts to look at. Rows held longer than
    GENIUS_LOCK_WAIT_SECONDS by another transaction, or a database that did not answer (services/blips.py),
    make it give up for now, counting nothing: the next sweep finds the round due again.
    """
    try:
        with transaction.atomic():
            limit_waits()
            game = Game.objects.select_for_update(of=("self",)).filter(rounds__id=round_id).first()
            if game is None:
                return Resolution.NOT_RUNNING  # the game was deleted
            rnd = Round.objects.select_for_update().get(pk=round_id)
            now = site_now()  # after the locks: the time this resolution really runs
            if rnd.status == Round.Status.FAILED:
                return Resolution.FAILED
            if rnd.status != Round.Status.OPEN:
                return Resolution.ALREADY_RESOLVED
            if game.status != Game.Status.RUNNING:
                return Resolution.NOT_RUNNING
            if game.paused_at or rnd.remaining_when_paused is not None:
                return Resolution.PAUSED
            if not early and rnd.closes_at > now:
                return Resolution.NOT_DUE
            kind = registry.get(game.game_type)
            submissions = {
                n: s.payload
                for n, s in latest_submissions(rnd, until=rnd.closes_at if not early else None).items()
            }
            outcome = kind.resolve_round(game, rnd, submissions)
            rnd.status = Round.Status.RESOLVED
            rnd.resolved_at = now
            if early:
                rnd.closes_at = min(rnd.closes_at, now)
            rnd.save(update_fields=["status", "resolved_at", "closes_at"])
            outcome_apply(game=game, outcome=outcome, round_number=rnd.number, actor=actor, now=now)
            next_opens = rnd.closes_at if now - rnd.closes_at <= ON_SCHEDULE else now
            if game.status == Game.Status.RUNNING and not opens_by_hand(game, rnd.number + 1):
                if round_open(game=game, number=rnd.number + 1, now=next_opens) is None:
                    game_finish(game=game, now=now)
            if actor is not None:
                audit(action="round_resolve_now", actor=actor, game=game, round=rnd.number)
            enqueue.notify_round_resolved(rnd.pk)
            # The one line `make run` shows as the demo plays (serve_all keeps it, drops the sweep's chatter).
            log.info("Round %s of %s resolved", rnd.number, game.name)
            return Resolution.RESOLVED
    except NotReady as exc:  # nothing is wrong, something is awaited: say what, and try again later
        # It got past any earlier failure: what it waits for replaces that traceback, and the failures
        # counted towards GENIUS_RESOLVE_MAX_ATTEMPTS start again (a failure is no longer what it shows).
        Round.objects.filter(pk=round_id, status=Round.Status.OPEN).update(last_error=exc.message, attempts=0)
        return Resolution.WAITING
    except Exception as exc:
        if lock_not_granted(exc):  # another transaction holds the game: the next sweep tries again
            log.warning("Resolving round %s waited too long for its locks; the next sweep retries", round_id)
            return Resolution.BUSY
        if database_away(exc):  # a blip of the database, not the game's fault: nothing kept, nothing counted
            log.warning(
                "Resolving round %s: the database did not answer (%s); the next sweep retries", round_id, exc
            )
            return Resolution.AWAY
        # The game's own code failed (or a query it got wrong): keep nothing, count the failure.
        log.exception("Resolving round %s failed", round_id)
        _record_failure(round_id, exc)
        return Resolution.FAILED


@transaction.atomic
def _record_failure(round_id: int, exc: Exception) -> None:
    rnd = Round.objects.select_for_update().get(pk=round_id)
    if rnd.status != Round.Status.OPEN:
        return
    rnd.attempts += 1
    rnd.last_error = "".join(traceback.format_exception(exc))[-4000:]
    if rnd.attempts >= settings.GENIUS_RESOLVE_MAX_ATTEMPTS:
        rnd.status = Round.Status.FAILED
        audit(action="round_failed", game=rnd.game, round=rnd.number, error=str(exc)[:500])
    rnd.save(update_fields=["attempts", "last_error", "status"])
    bump_version(rnd.game)


@one_game_at_a_time
def round_retry(*, game: Game, actor=None) -> Round:
    """A host fixed what made a round fail: open it again so the next sweep (or 'resolve now') retries."""
    require_host(game, actor)
    game = Game.objects.select_for_update().get(pk=game.pk)  # the game first, as every service locks
    rnd = Round.objects.select_for_update().filter(game=game, status=Round.Status.FAILED).first()
    if rnd is None:
        raise StateChanged("No round of this game has failed.")
    # The old traceback is history, kept in the audit log: shown on the round it would read as what the
    # round is waiting for.
    audit(action="round_retry", actor=actor, game=game, round=rnd.number, error=rnd.last_error)
    rnd.status = Round.Status.OPEN
    rnd.attempts = 0
    rnd.last_error = ""
    rnd.save(update_fields=["status", "attempts", "last_error"])
    bump_version(game)  # the round shows open again (or closed, results coming), not failed
    return rnd


def round_resolve_now(*, game: Game, actor) -> Resolution:
    """A host's "resolve now": resolves the open round, or raises NotResolved saying what happened instead."""
    require_host(game, actor)
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None:
        raise StateChanged("There is no open round to resolve.")
    result = round_resolve(round_id=rnd.pk, early=True, actor=actor)
    if not result:
        rnd.refresh_from_db()
        raise NotResolved(result, not_resolved_because(result, rnd))
    return result


def not_resolved_because(result: Resolution, rnd: Round) -> str:
    number = f"Round {rnd.number}"
    return {
        Resolution.ALREADY_RESOLVED: f"{number} was already resolved.",
        Resolution.NOT_RUNNING: "The game is not running.",
        Resolution.PAUSED: f"The game is paused: resume it before resolving {number}.",
        Resolution.WAITING: f"{number} was not resolved: it is waiting: {rnd.last_error}",
        Resolution.FAILED: (
            f"{number} was not resolved: the game raised an error (attempt {rnd.attempts} of "
            f"{settings.GENIUS_RESOLVE_MAX_ATTEMPTS}); the traceback is in the admin."
        ),
        Resolution.BUSY: f"{number} was not resolved: another change to this game is under way; try again.",
        Resolution.AWAY: f"{number} was not resolved: the database did not answer; try again in a moment.",
    }.get(result, f"{number} was not resolved ({result}).")
