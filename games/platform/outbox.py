"""The transactional outbox: every task a commit owes the outside is a row written inside that commit's
transaction (issue 28), so no crash, broker flush or outage after the commit loses it.

The row (`OutboxTask`) is published once the transaction commits, with `outbox-<row id>` as its Celery task
id (the fast path), and deleted by the task when its work is done (sent, or given up), not when it was
published. Until then it comes due again a lease after each publication (GENIUS_OUTBOX_LEASE_SECONDS), and
the relay, a beat task, publishes every due row again. So a process that died between the commit and the
publish, a broker that lost its queues (a restart without persistence, a FLUSHALL, an eviction) or refused,
and a worker killed with the task in hand all end with the relay publishing it again; a copy of a task whose
work is done finds its row gone and does nothing, and each email or webhook post inside it is claimed before
it is sent (services/deliveries.py), so two copies at once send nothing twice. A failed run records its
error and its next due time on the row, with backoff and jitter: no retry waits in a worker as a Celery
countdown (a task held unacknowledged for minutes, which a Redis drop turned into a dead worker).

What the deadline sweep queues (a due round, clock or start time) has no row: the next sweep finds it again
by query (`send`). A commit's early resolution does have one.

No package does this here (judged for issue 28): django-celery-outbox refuses SQLite (a system check wants
SKIP LOCKED; `make run` is SQLite), brings sentry-sdk, datadog and structlog, runs its relay as a process of
its own and deletes a row once it is published, not once its work is done; django-jaiminho pickles functions
into its rows with dill and marks a row sent once published; django-reliable-outbox is PostgreSQL only
(LISTEN/NOTIFY) and replaces Celery with a worker of its own; django-outbox-pattern publishes to a STOMP
broker, for Django 5.0 and 5.1. The model is the sweep's claim pattern (services/sweep.py): due rows taken
with FOR UPDATE SKIP LOCKED (on SQLite, where writers take turns, a plain read) and moved on once.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import OutboxTask

log = logging.getLogger(__name__)

TASKS = "games.platform.tasks"
PREFIX = "outbox-"  # a task id naming its row: `outbox-<OutboxTask id>`
_broker_down_until = 0.0


@dataclass(frozen=True)
class Retry:
    """How a kind of task is tried again after a failed run: waits doubling from `first` seconds to at most
    `cap`, `times` times; then it gives up."""

    first: float
    cap: float
    times: int


def backoff(retries: int, first: float, cap: float) -> float:
    """Seconds before the next try: doubling from `first`, at most `cap`, and a random half of it off, so
    the deliveries that failed together (a receiver down) do not all come back at the same moment."""
    ceiling = min(cap, first * 2**retries)
    return random.uniform(ceiling / 2, ceiling)


def owe(name: str, argss: list[list], publish: bool = True, after: float = 0) -> list[int]:
    """One row per argument list, in the current transaction; each published once the transaction commits.
    Not `publish`: the request does the work itself after its commit, and the row is only the safety net the
    relay publishes a lease later if it is still there. `after` seconds given: the relay publishes it once
    they passed (a wait no worker holds as a countdown). The rows' ids."""
    due = timezone.now() + timedelta(seconds=after) if after else _lease_end()
    rows = OutboxTask.objects.bulk_create([OutboxTask(name=name, args=args, due_at=due) for args in argss])
    for row in rows if publish and not after else []:
        transaction.on_commit(lambda row=row: _publish_owed(row.pk, row.name, row.args))
    return [row.pk for row in rows]


def send(name: str, args: list) -> None:
    """A task with no row (the sweep's), published once the transaction commits; a refusal is only logged,
    since the next sweep finds the same work again."""
    transaction.on_commit(lambda: _publish_or_log(name, args))


def _lease_end() -> datetime:
    return timezone.now() + timedelta(seconds=settings.GENIUS_OUTBOX_LEASE_SECONDS)


def _publish(name: str, args: list, task_id: str | None = None) -> None:
    # retry=False: a broker that refuses is left to the relay at once, not retried while a request waits.
    current_app.tasks[f"{TASKS}.{name}"].apply_async(args, task_id=task_id, retry=False)


def _refused(name: str, args: list, exc: Exception) -> None:
    """After a refusal a process leaves the broker alone for GENIUS_BROKER_RETRY_SECONDS: an outage costs a
    request no wait for it."""
    global _broker_down_until
    _broker_down_until = time.monotonic() + settings.GENIUS_BROKER_RETRY_SECONDS
    log.warning("The broker did not take %s%s (%s: %s)", name, tuple(args), type(exc).__name__, exc)


def _publish_owed(pk: int, name: str, args: list) -> None:
    """The fast path, after the commit; never raises. Not taken, the row is due at once: the relay publishes
    it at its next tick once the broker answers."""
    if time.monotonic() >= _broker_down_until:
        try:
            _publish(name, args, f"{PREFIX}{pk}")
            return
        except Exception as exc:
            _refused(name, args, exc)
    try:
        OutboxTask.objects.filter(pk=pk).update(due_at=timezone.now())
    except Exception:
        log.exception("Outbox row %s stays due at its lease's end", pk)


def _publish_or_log(name: str, args: list) -> None:
    if time.monotonic() < _broker_down_until:
        log.warning("The broker failed a moment ago: %s%s is left to the next sweep", name, tuple(args))
        return
    try:
        _publish(name, args)
    except Exception as exc:
        _refused(name, args, exc)


def relay(limit: int = 200) -> int:
    """Publish again every row whose due time passed, earliest first, each due again a lease later; stop at
    the broker's first refusal (what is left is due at the next tick). How many were published."""
    now = timezone.now()
    with transaction.atomic():
        due = list(
            OutboxTask.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .order_by("due_at", "id")
            .values_list("pk", "name", "args")[:limit]
        )
        OutboxTask.objects.filter(pk__in=[pk for pk, _, _ in due]).update(due_at=_lease_end())
    published = 0
    for pk, name, args in due:
        try:
            _publish(name, args, f"{PREFIX}{pk}")
        except Exception as exc:
            _refused(name, args, exc)
            OutboxTask.objects.filter(pk__in=[pk for pk, _, _ in due[published:]]).update(due_at=now)
            break
        published += 1
    if published:
        log.info("The relay published %d owed tasks again", published)
    return published


def row_of(task_id: str | None) -> int | None:
    """The outbox row a task id names; None for a task published without one."""
    if task_id and task_id.startswith(PREFIX) and task_id[len(PREFIX) :].isdigit():
        return int(task_id[len(PREFIX) :])
    return None


def settled(task_id: str | None) -> bool:
    """A copy of an owed task whose work is done already (its row is gone)."""
    pk = row_of(task_id)
    return pk is not None and not OutboxTask.objects.filter(pk=pk).exists()


def done(task_id: str | None) -> None:
    """The task's work is durable: its row goes."""
    if (pk := row_of(task_id)) is not None:
        OutboxTask.objects.filter(pk=pk).delete()


def due_again(task_id: str | None, when: datetime) -> None:
    """Part of the task is being done by another run: the relay publishes it again at `when`."""
    if (pk := row_of(task_id)) is not None:
        OutboxTask.objects.filter(pk=pk, due_at__isnull=False).update(due_at=when)


def failed(task_id: str | None, error: str, retry: Retry) -> float | None:
    """Record a failed run on the task's row: due again after a backoff, or, after `retry.times` retries,
    given up (kept with its error, due never). The wait, or None when it gave up."""
    pk = row_of(task_id)
    attempts = OutboxTask.objects.filter(pk=pk).values_list("attempts", flat=True).first()
    if attempts is None:
        return None
    if attempts >= retry.times:
        OutboxTask.objects.filter(pk=pk).update(due_at=None, attempts=attempts + 1, last_error=error[:2000])
        return None
    wait = backoff(attempts, retry.first, retry.cap)
    OutboxTask.objects.filter(pk=pk).update(
        due_at=timezone.now() + timedelta(seconds=wait), attempts=attempts + 1, last_error=error[:2000]
    )
    return wait
