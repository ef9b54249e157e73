"""Celery tasks: thin, they take ids and call a service (services queue them through `enqueue`).

A task a commit owes (an email, a webhook post, an early resolution) has an outbox row (games/platform/
outbox.py), which it deletes once its work is done; a failed run is retried by the relay, not by Celery.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from genius.clock import site_now

from . import enqueue, heartbeats, outbox, presence
from .errors import Busy
from .models import ChatRead, DeathMatchPick, Event, Game, Round, TurnClock, Webhook
from .reach import digest as reach_digest
from .reach import dispatch, messages
from .services import deliveries, digest
from .services.blips import database_away
from .services.clocks import clock_expire
from .services.rounds import round_resolve
from .services.sitting import start_time_came
from .services.sweep import sweep as run_sweep
from .services.webhooks import WebhookRefused, webhook_deliver

log = logging.getLogger(__name__)


@shared_task(name="games.platform.tasks.sweep")
def sweep() -> dict:
    """Queue one task per due round and clock (the `deadlines` queue, earliest deadline first)."""
    return run_sweep()


@shared_task(name="games.platform.tasks.heartbeat")
def heartbeat(queue: str) -> None:
    """A worker of `queue` takes tasks: every worker sends one to each of its queues (genius/celery.py)."""
    heartbeats.beat(heartbeats.worker(queue))


@shared_task(name="games.platform.tasks.relay")
def relay() -> int:
    """Publish again every owed task whose due time passed: never published (a crash after its commit, the
    broker away), lost by the broker (flushed, restarted empty), in the hands of a killed worker, or due for
    a retry."""
    return outbox.relay()


def notify_retry() -> outbox.Retry:
    """Emails that met a database or mail server error: eight retries, from GENIUS_NOTIFY_RETRY_SECONDS."""
    return outbox.Retry(settings.GENIUS_NOTIFY_RETRY_SECONDS, settings.GENIUS_NOTIFY_RETRY_MAX_SECONDS, 8)


def webhook_retry() -> outbox.Retry:
    """A post the receiver did not take: six retries, from GENIUS_WEBHOOK_RETRY_SECONDS."""
    return outbox.Retry(settings.GENIUS_WEBHOOK_RETRY_SECONDS, settings.GENIUS_WEBHOOK_RETRY_MAX_SECONDS, 6)


def owed(name: str, retry):
    """A task a commit owes: run, then its outbox row goes. A failed run is recorded on the row and the relay
    publishes it again after a backoff with jitter (`retry()`); a run that met a delivery another run is
    sending leaves the row to come back when that claim runs out. A copy whose row is gone does nothing.
    Run with no row (the resolutions the sweep queues have none; a test, a shell), it runs and raises."""

    def register(work):
        @shared_task(name=f"games.platform.tasks.{name}", bind=True)
        def run(self, *args):
            task_id = self.request.id
            if outbox.settled(task_id):
                return None
            try:
                result = work(*args)
            except deliveries.Held as held:
                log.info("%s%s: %s; its task comes back then", name, args, held)
                outbox.due_again(task_id, held.until)
                return None
            except Exception as exc:
                if outbox.row_of(task_id) is None:
                    raise
                wait = outbox.failed(task_id, f"{type(exc).__name__}: {exc}", retry())
                if wait is None:
                    log.error("%s%s failed (%s) and gave up: its row is kept with the error", name, args, exc)
                else:
                    log.warning("%s%s failed (%s); again in %.2f s", name, args, exc, wait)
                return None
            outbox.done(task_id)
            return result

        run.__doc__ = work.__doc__
        return run

    return register


@owed("resolve_round", notify_retry)
def resolve_round(round_id: int, early: bool = False) -> str:
    return round_resolve(round_id=round_id, early=early)


@shared_task(name="games.platform.tasks.expire_clock")
def expire_clock(game_id: int, generation: int) -> bool:
    with until_the_next_sweep(f"The clock of game {game_id}"):
        return clock_expire(game_id=game_id, generation=generation)
    return False


@shared_task(name="games.platform.tasks.start_clocks")
def start_clocks(game_id: int) -> bool:
    """A live match's start time came: its clocks start; whoever is absent loses or waits for the hosts."""
    with until_the_next_sweep(f"The start of game {game_id}"):
        return start_time_came(game_id=game_id)
    return False


@contextlib.contextmanager
def until_the_next_sweep(what: str):
    """Another transaction held the game's rows, or the database did not answer: nothing was kept, and the
    next sweep finds the same work due again, so the task ends quietly (a warning, no traceback)."""
    try:
        yield
    except Busy:
        log.warning("%s waited too long for its locks; the next sweep retries", what)
    except DatabaseError as exc:
        if not database_away(exc):
            raise
        log.warning("%s: the database did not answer (%s); the next sweep retries", what, exc)


def reached(told: dict) -> int:
    """How many players a message reached (by any way)."""
    return sum(any(outcome.reached for outcome in outcomes) for outcomes in told.values())


@owed("notify_round_resolved", notify_retry)
def notify_round_resolved(round_id: int) -> int:
    """Results are in the inboxes; and, unless the game ended, the next round is open."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    game = rnd.game
    users = list(game.seats.values_list("user_id", flat=True))
    sent = reached(dispatch.tell(f"results:{rnd.pk}", users, "results", partial(messages.results, rnd)))
    nxt = game.rounds.select_related("game").filter(number=rnd.number + 1).first()
    if nxt is not None:
        opened = dispatch.tell(
            f"round_opened:{nxt.pk}", users, "round_opened", partial(messages.round_opened, nxt)
        )
        sent += reached(opened)
    return sent


@owed("notify_round_opened", notify_retry)
def notify_round_opened(round_id: int) -> int:
    """A round a host opened by hand is open: told under the same key as a round opened by a resolution."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    users = list(rnd.game.seats.values_list("user_id", flat=True))
    compose = partial(messages.round_opened, rnd)
    return reached(dispatch.tell(f"round_opened:{rnd.pk}", users, "round_opened", compose))


@owed("send_reminder", notify_retry)
def send_reminder(round_id: int, user_ids: list[int], key: str = "") -> int:
    """`key`: what the reminder is sent once under (the sweep's: the round's; each host reminder its own)."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    told = dispatch.tell(key or f"reminder:{rnd.pk}", user_ids, "reminder", partial(messages.reminder, rnd))
    return reached(told)


@owed("send_last_call", notify_retry)
def send_last_call(round_id: int, user_ids: list[int]) -> int:
    """An hour before a long round closes, to those who still owe it (services/leads.py)."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    compose = partial(messages.last_call, rnd)
    return reached(dispatch.tell(f"last_call:{rnd.pk}", user_ids, "reminder", compose))


@owed("send_pick_reminder", notify_retry)
def send_pick_reminder(pick_id: int, key: str) -> int:
    """A host's reminder to an Elimination Candidate who has not picked yet (`key`: that press's)."""
    pick = DeathMatchPick.objects.select_related("main_match").get(pk=pick_id)
    return reached(dispatch.tell(key, [pick.candidate_id], "reminder", partial(messages.pick_reminder, pick)))


@owed("notify_your_turn", notify_retry)
def notify_your_turn(game_id: int, user_id: int, kind: str, generation: int, turn: str = "") -> int:
    """Once per turn and player (`turn`: the game's turn key; without one, the clock's `generation`), a few
    seconds after the move came to them: nothing if they moved meanwhile, or watch the game's page."""
    game = Game.objects.get(pk=game_id)
    clock = TurnClock.objects.select_related("seat").filter(game=game).first()
    if (
        game.status != Game.Status.RUNNING
        or clock is None
        or clock.seat is None
        or clock.seat.user_id != user_id
        or (clock.turn_key != turn if turn else clock.generation != generation)
    ):
        return 0  # they moved: the turn (or the decision) is not theirs any more
    if presence.watching(user_id, game_id):
        return 0  # on the page, they see it is their turn; the page itself rings if they asked it to
    key = f"your_turn:{game_id}:{f't{turn}' if turn else generation}"
    return reached(dispatch.tell(key, [user_id], "your_turn", partial(messages.your_turn, game, kind)))


@owed("warn_reserve", notify_retry)
def warn_reserve(game_id: int, user_id: int, generation: int, turn: str) -> int:
    """A live match's allowance ran out and the reserve is being drawn: one warning per turn and player
    (`turn`: the game's turn key; without one, the clock's `generation`), unless they moved meanwhile or
    watch the game's page (the page counts the reserve down before their eyes). Sent as a reminder is."""
    game = Game.objects.get(pk=game_id)
    clock = TurnClock.objects.select_related("seat").filter(game=game).first()
    if (
        game.status != Game.Status.RUNNING
        or clock is None
        or clock.seat is None
        or clock.seat.user_id != user_id
        or clock.deadline is None
        or (clock.turn_key != turn if turn else clock.generation != generation)
    ):
        return 0
    if presence.watching(user_id, game_id):
        return 0
    ends = clock.deadline + timedelta(seconds=clock.seat.reserve_seconds)
    key = f"reserve:{game_id}:{f't{turn}' if turn else generation}"
    compose = partial(messages.reserve_running, game, ends, site_now())
    return reached(dispatch.tell(key, [user_id], "reminder", compose))


@shared_task(name="games.platform.tasks.digests")
def digests() -> int:
    """Owe one digest task to each player whose daily digest hour came and who has not had the day's."""
    due = digest.due(site_now())
    for user_id, day in due:
        enqueue.send_digest(user_id, day)
    return len(due)


@owed("send_digest", notify_retry)
def send_digest(user_id: int, day: str) -> int:
    """The player's digest of `day` (their local date): sent once, whatever runs it again."""
    return reach_digest.digest_send(user_id=user_id, day=day, now=site_now())


@owed("notify_chat_message", notify_retry)
def notify_chat_message(reading_id: int, burst: int) -> int:
    """The first unread message of a burst (`burst`: the reader's count of readings, one message each). A
    chat read before the task runs needs no message."""
    reading = (
        ChatRead.objects.select_related("seat__game", "other__user__profile").filter(pk=reading_id).first()
    )
    if reading is None or reading.burst != burst or not reading.unread:
        return 0
    compose = partial(messages.chat, reading)
    told = dispatch.tell(f"chat:{reading.pk}:{burst}", [reading.seat.user_id], "chat_message", compose)
    return reached(told)


@owed("deliver_webhook", webhook_retry)
def deliver_webhook(webhook_id: int, event_id: int) -> int:
    """Post one announcement to one webhook, once; a failure is retried with exponential backoff and jitter
    (GENIUS_WEBHOOK_RETRY_SECONDS doubling, at most GENIUS_WEBHOOK_RETRY_MAX_SECONDS; six retries)."""
    webhook = Webhook.objects.filter(pk=webhook_id, active=True).first()
    event = Event.objects.select_related("game__season").filter(pk=event_id).first()
    if webhook is None or event is None:
        return 0
    try:
        return webhook_deliver(webhook=webhook, event=event)
    except WebhookRefused as exc:
        # An inside address or a redirect: the same URL would be refused again, so no retry.
        log.warning("webhook %s refused: %s", webhook_id, exc)
        return 0
