"""Work handed to the Celery worker once the transaction commits: the one place services queue tasks.

Tasks call services, so services never import the tasks module: each task is looked up by its name in the
Celery app's registry (the platform's AppConfig imports the tasks when the site starts). Work queued here
is sent only if the transaction commits, and a broker that does not answer never turns a committed write
into an error (issue 18.1): the task is kept as a `PendingTask` row and `resend_pending` (a beat task) sends
it once the broker answers. After a failure the process goes straight to the row for
GENIUS_BROKER_RETRY_SECONDS, so an outage costs a request no wait for the broker.
"""

from __future__ import annotations

import logging
import time

from celery import current_app
from django.conf import settings
from django.db import transaction

from .models import PendingTask

log = logging.getLogger(__name__)

TASKS = "games.platform.tasks"
_broker_down_until = 0.0


def _after_commit(task: str, *args) -> None:
    transaction.on_commit(lambda: _send(task, list(args)))


def _publish(task: str, args: list) -> None:
    # retry=False: a broker that refuses is kept for later at once, not retried while the request waits.
    current_app.tasks[f"{TASKS}.{task}"].apply_async(args, retry=False)


def _send(task: str, args: list) -> None:
    """Send now, or keep it for `resend_pending`; never raise (this runs after a commit)."""
    global _broker_down_until
    if time.monotonic() >= _broker_down_until:
        try:
            _publish(task, args)
            return
        except Exception as exc:
            _broker_down_until = time.monotonic() + settings.GENIUS_BROKER_RETRY_SECONDS
            error = f"{type(exc).__name__}: {exc}"
            log.warning("The broker did not take %s%s (%s): kept to send again", task, tuple(args), error)
    else:
        error = "the broker failed a moment ago"
    try:
        PendingTask.objects.create(name=task, args=args, last_error=error[:2000])
    except Exception:
        log.exception("Keeping %s%s for later failed too: it is lost", task, tuple(args))


def resend_pending(limit: int = 200) -> int:
    """Send what the broker did not take, oldest first; stop at the first refusal. Returns how many went."""
    sent = 0
    with transaction.atomic():
        waiting = list(PendingTask.objects.select_for_update(skip_locked=True).order_by("id")[:limit])
        for pending in waiting:
            try:
                _publish(pending.name, pending.args)
            except Exception as exc:
                pending.attempts += 1
                pending.last_error = f"{type(exc).__name__}: {exc}"[:2000]
                pending.save(update_fields=["attempts", "last_error"])
                break
            pending.delete()
            sent += 1
    if sent:
        log.warning("Sent %d tasks the broker had not taken", sent)
    return sent


def resolve_round(round_id: int, early: bool = False) -> None:
    _after_commit("resolve_round", round_id, early)


def expire_clock(game_id: int, generation: int) -> None:
    _after_commit("expire_clock", game_id, generation)


def start_clocks(game_id: int) -> None:
    _after_commit("start_clocks", game_id)


def notify_round_resolved(round_id: int) -> None:
    _after_commit("notify_round_resolved", round_id)


def send_reminder(round_id: int, user_ids: list[int], key: str = "") -> None:
    _after_commit("send_reminder", round_id, user_ids, *([key] if key else []))


def notify_your_turn(game_id: int, user_id: int, kind: str, generation: int) -> None:
    _after_commit("notify_your_turn", game_id, user_id, kind, generation)


def notify_chat_message(reading_id: int, burst: int) -> None:
    _after_commit("notify_chat_message", reading_id, burst)


def deliver_webhooks(webhook_ids: list[int], event_ids: list[int]) -> None:
    """Each announcement to each webhook, one task apiece (a slow receiver delays only its own)."""
    for event_id in event_ids:
        for webhook_id in webhook_ids:
            _after_commit("deliver_webhook", webhook_id, event_id)
