"""Celery tasks: thin, they take ids and call a service (services queue them through `enqueue`)."""

from __future__ import annotations

import contextlib
import logging
import random

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from . import enqueue
from .errors import Busy
from .models import ChatRead, Event, Game, Round, Webhook
from .people import shown_name
from .services import notify
from .services.blips import database_away
from .services.clocks import clock_expire
from .services.rounds import round_resolve
from .services.sitting import start_time_came
from .services.sweep import sweep as run_sweep
from .services.webhooks import DeliveryFailed, WebhookRefused, webhook_deliver
from .zones import local_text

log = logging.getLogger(__name__)


@shared_task(name="games.platform.tasks.sweep")
def sweep() -> dict:
    """Queue one task per due round and clock (the `deadlines` queue, earliest deadline first)."""
    return run_sweep()


@shared_task(name="games.platform.tasks.resend_pending")
def resend_pending() -> int:
    """What the broker did not take when a commit queued it (Redis away), sent now that it answers."""
    return enqueue.resend_pending()


@shared_task(name="games.platform.tasks.resolve_round")
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


# Notifications: idempotent (each email once, services/notify.py), so a task that met a database or mail
# server error runs again after a backoff, and one a killed worker left half done is delivered again.
NOTIFY_RETRY = (DatabaseError, OSError)  # smtplib's errors are OSErrors


def notification(name: str):
    def register(send):
        @shared_task(name=f"games.platform.tasks.{name}", bind=True, max_retries=8)
        def run(self, *args):
            try:
                return send(*args)
            except NOTIFY_RETRY as exc:
                wait = backoff(
                    self.request.retries,
                    settings.GENIUS_NOTIFY_RETRY_SECONDS,
                    settings.GENIUS_NOTIFY_RETRY_MAX_SECONDS,
                )
                log.warning("%s%s failed (%s); again in %.0f s", name, args, exc, wait)
                raise self.retry(exc=exc, countdown=wait) from exc

        run.__doc__ = send.__doc__
        return run

    return register


@notification("notify_round_resolved")
def notify_round_resolved(round_id: int) -> int:
    """Results are in the inboxes; and, unless the game ended, the next round is open."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    game = rnd.game
    users = list(game.seats.values_list("user_id", flat=True))
    sent = notify.send(
        f"results:{rnd.pk}",
        notify.wanting(users, "results"),
        f"{game.name}: Round {rnd.number} is resolved",
        f"The results are in your inbox on the game page:\n{notify.page_link('game', game.id)}",
    )
    nxt = game.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None:
        sent += notify.send(
            f"round_opened:{nxt.pk}",
            notify.wanting(users, "round_opened"),
            f"{game.name}: Round {nxt.number} is open",
            lambda zone: (
                f"Round {nxt.number} closes at {local_text(nxt.closes_at, zone)}.\n"
                f"Submit on the game page: {notify.page_link('game', game.id)}"
            ),
        )
    return sent


@notification("send_reminder")
def send_reminder(round_id: int, user_ids: list[int], key: str = "") -> int:
    """`key`: what the emails are sent once under (the sweep's: the round's; each host reminder its own)."""
    rnd = Round.objects.select_related("game").get(pk=round_id)
    return notify.send(
        key or f"reminder:{rnd.pk}",
        notify.wanting(user_ids, "reminder"),
        f"{rnd.game.name}: Round {rnd.number} closes soon",
        lambda zone: (
            f"You have not submitted for Round {rnd.number} yet. "
            f"It closes at {local_text(rnd.closes_at, zone)}.\n"
            f"Submit on the game page: {notify.page_link('game', rnd.game_id)}"
        ),
    )


@notification("notify_your_turn")
def notify_your_turn(game_id: int, user_id: int, kind: str, generation: int) -> int:
    """`generation`: the clock's, for this turn or decision (each one is notified once)."""
    game = Game.objects.get(pk=game_id)
    what = "your turn" if kind == "turn" else f"your decision ({kind})"
    return notify.send(
        f"your_turn:{game_id}:{generation}",
        notify.wanting([user_id], "your_turn"),
        f"{game.name}: {what}",
        f"The clock is running on the game page:\n{notify.page_link('game', game.id)}",
    )


@notification("notify_chat_message")
def notify_chat_message(reading_id: int, burst: int) -> int:
    """The first unread message of a burst (`burst`: the reader's count of readings, one email each). A chat
    read before the task runs needs no email."""
    reading = (
        ChatRead.objects.select_related("seat__game", "other__user__profile").filter(pk=reading_id).first()
    )
    if reading is None or reading.burst != burst or not reading.unread:
        return 0
    game, writer = reading.seat.game, shown_name(reading.other.user)
    low, high = sorted([reading.seat.number, reading.other.number])
    return notify.send(
        f"chat:{reading.pk}:{burst}",
        notify.wanting([reading.seat.user_id], "chat_message"),
        f"{game.name}: {writer} wrote to you",
        f"{writer} wrote to you in your pair chat in {game.name}:\n"
        f"{notify.page_link('chat', game.id, low, high)}\n\n"
        "No other email about this chat comes until you have read it.",
    )


def backoff(retries: int, first: float, cap: float) -> float:
    """Seconds before the next try: doubling from `first`, at most `cap`, and a random half of it off, so
    the deliveries that failed together (a receiver down) do not all come back at the same moment."""
    ceiling = min(cap, first * 2**retries)
    return random.uniform(ceiling / 2, ceiling)


@shared_task(name="games.platform.tasks.deliver_webhook", bind=True, max_retries=6)
def deliver_webhook(self, webhook_id: int, event_id: int) -> int:
    """Post one announcement to one webhook; a failure is retried with exponential backoff and jitter
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
    except DeliveryFailed as exc:
        wait = backoff(
            self.request.retries,
            settings.GENIUS_WEBHOOK_RETRY_SECONDS,
            settings.GENIUS_WEBHOOK_RETRY_MAX_SECONDS,
        )
        raise self.retry(exc=exc, countdown=wait) from exc
