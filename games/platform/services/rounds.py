"""Round windows: saving submissions before the close, resolving each round exactly once, the sweep."""

from __future__ import annotations

import logging
import traceback

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import enqueue, pagecache, registry
from ..errors import NotReady, RoundClosed, StateChanged
from ..models import Game, Round, Seat, Submission
from .audit import audit
from .events import bump_version
from .hosts import require_host
from .outcomes import game_finish, outcome_apply

log = logging.getLogger("games.platform.rounds")


@transaction.atomic
def submission_save(
    *, seat: Seat, round_number: int, payload: dict, final: bool = False, now=None
) -> Submission:
    """Save a new version of the seat's submission for the round, or refuse it: never accept and ignore.

    The round row is locked (FOR NO KEY UPDATE), so a save either commits before the resolution reads the
    submissions (and counts) or sees the round closed (and is refused with the closing time). The ORM has
    no shared row lock, so the saves of one round also queue behind each other for the few milliseconds of
    their commits: a round has at most ten players.
    """
    now = now or timezone.now()
    rnd = (
        Round.objects.select_for_update(no_key=True).filter(game_id=seat.game_id, number=round_number).first()
    )
    if rnd is None:
        raise StateChanged(f"Round {round_number} has not opened.")
    if rnd.status != Round.Status.OPEN:
        raise RoundClosed(rnd.resolved_at or rnd.closes_at)
    if rnd.remaining_when_paused is None and now >= rnd.closes_at:
        raise RoundClosed(rnd.closes_at)
    game = seat.game
    cleaned = registry.get(game.game_type).clean_submission(game, seat, rnd, payload)
    submission = Submission.objects.create(round=rnd, seat=seat, payload=cleaned, final=final, created_at=now)
    pagecache.seat_changed(seat)
    if final and game.settings.get("close_when_all_final") and _all_final(rnd):
        enqueue.resolve_round(rnd.pk, True)
    return submission


def _all_final(rnd: Round) -> bool:
    latest = latest_submissions(rnd)
    return len(latest) == rnd.game.seats.count() and all(s.final for s in latest.values())


def latest_submissions(rnd: Round, *, until=None, with_users=False) -> dict[int, Submission]:
    """Each seat's latest saved version (saved before `until` if given), by seat number, in one query."""
    rows = Submission.objects.filter(round=rnd).select_related("seat__user" if with_users else "seat")
    rows = rows.order_by("created_at", "id")
    if until is not None:
        rows = rows.filter(created_at__lt=until)
    latest: dict[int, Submission] = {}
    for row in rows:
        latest[row.seat.number] = row
    return latest


def round_open(*, game: Game, number: int, now) -> Round | None:
    window = registry.get(game.game_type).round_window(game, number)
    if window is None:
        return None
    return Round.objects.create(game=game, number=number, opens_at=now, closes_at=now + window)


def round_resolve(*, round_id: int, early: bool = False, actor=None, now=None) -> bool:
    """Close and resolve one round in one transaction; True if this call resolved it.

    Safe to call any number of times from anywhere: under the round's lock it re-checks that the round is
    still open and due. If the game type raises, nothing is kept; the failure is counted and, after
    GENIUS_RESOLVE_MAX_ATTEMPTS, the round is marked failed for the hosts to look at.
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            rnd = Round.objects.select_for_update().get(pk=round_id)
            if rnd.status != Round.Status.OPEN:
                return False
            game = Game.objects.select_for_update().get(pk=rnd.game_id)
            if game.status != Game.Status.RUNNING:
                return False
            if not early and (game.paused_at or rnd.closes_at > now):
                return False
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
            if (
                game.status == Game.Status.RUNNING
                and round_open(game=game, number=rnd.number + 1, now=now) is None
            ):
                game_finish(game=game, now=now)
            if actor is not None:
                audit(action="round_resolve_now", actor=actor, game=game, round=rnd.number)
            enqueue.notify_round_resolved(rnd.pk)
            return True
    except NotReady as exc:  # nothing is wrong, something is awaited: say what, and try again later
        Round.objects.filter(pk=round_id, status=Round.Status.OPEN).update(last_error=exc.message)
        return False
    except Exception as exc:  # the rules or the database failed: keep nothing, count the failure
        log.exception("Resolving round %s failed", round_id)
        _record_failure(round_id, exc)
        return False


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


@transaction.atomic
def round_retry(*, game: Game, actor=None) -> Round:
    """A host fixed what made a round fail: open it again so the next sweep (or 'resolve now') retries."""
    require_host(game, actor)
    rnd = Round.objects.select_for_update().filter(game=game, status=Round.Status.FAILED).first()
    if rnd is None:
        raise StateChanged("No round of this game has failed.")
    rnd.status = Round.Status.OPEN
    rnd.attempts = 0
    rnd.save(update_fields=["status", "attempts"])
    audit(action="round_retry", actor=actor, game=game, round=rnd.number)
    return rnd


def round_resolve_now(*, game: Game, actor) -> bool:
    require_host(game, actor)
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None:
        raise StateChanged("There is no open round to resolve.")
    return round_resolve(round_id=rnd.pk, early=True, actor=actor)
