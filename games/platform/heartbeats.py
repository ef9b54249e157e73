"""What the background leaves to show that it runs, and what is late when it does not (issue 28.6).

The sweep leaves a trace of each run, and a worker of each queue a heartbeat (genius/celery.py: every worker
sends itself a `heartbeat` task on each of its queues, so the row says that a worker takes tasks, not only
that a process exists). One row per name in `Heartbeat`, stamped with the database's clock: a Redis outage
loses none of them, and a machine with its clock off does not look late.

The deep status (genius/health.py, /healthz/deep/) and the hosts' admin index read them. Every read here costs
the same however many games, rounds or messages there are: the few heartbeat rows, one walk of the rounds'
deadline index that stops at the first overdue round, and the oldest waiting message by its id.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.db.models.functions import Now

from .models import Game, Heartbeat, OutboxTask, Round

SWEEP = "sweep"
SWEEP_LATE_PERIODS = 3  # the sweep is late once three of its periods passed without a run
OVERDUE_SECONDS = 60  # a due round still open this long after its deadline: deadlines are late
WORKER_LATE_BEATS = 3  # a queue's workers are not answering once three heartbeats were missed


def worker(queue: str) -> str:
    return f"worker:{queue}"


def queues() -> list[str]:
    """The queues the site sends work to: notifications and webhooks (Celery's default), and deadlines."""
    return [getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"), settings.DEADLINES_QUEUE]


def beat(name: str) -> None:
    """`name` runs now, by the database's clock: one UPDATE by primary key (an INSERT the first time)."""
    if not Heartbeat.objects.filter(name=name).update(at=Now()):
        Heartbeat.objects.get_or_create(name=name, defaults={"at": Now()})


def ages() -> dict[str, float]:
    """Seconds since each heartbeat, by the database's clock."""
    rows = Heartbeat.objects.annotate(age=Now() - F("at")).values_list("name", "age")
    return {name: age.total_seconds() for name, age in rows}


def overdue_seconds() -> float | None:
    """How long the longest-waiting due round has been open past its deadline, once that is over
    OVERDUE_SECONDS (None: no round waits that long). Paused rounds and games are not due."""
    late = (
        Round.objects.filter(
            status=Round.Status.OPEN,
            closes_at__lt=Now() - timedelta(seconds=OVERDUE_SECONDS),
            remaining_when_paused__isnull=True,
            game__status=Game.Status.RUNNING,
            game__paused_at__isnull=True,
        )
        .order_by("closes_at")
        .annotate(late=Now() - F("closes_at"))
        .values_list("late", flat=True)
        .first()
    )
    return None if late is None else late.total_seconds()


def outbox_overdue_seconds() -> float | None:
    """Seconds the most overdue message the site owes the outside (an email, a webhook post) has waited past
    its due time: None when none is overdue. A row is due a lease after its commit (the task deletes it long
    before when all runs) or at its retry: one still there well past that is one the relay is not sending."""
    late = (
        OutboxTask.objects.filter(due_at__lte=Now())
        .order_by("due_at")
        .annotate(late=Now() - F("due_at"))
        .values_list("late", flat=True)
        .first()
    )
    return None if late is None else late.total_seconds()


def deadlines(beats: dict[str, float] | None = None) -> dict:
    """Whether rounds close on time: the sweep ran within SWEEP_LATE_PERIODS of its period, and no due round
    waits past OVERDUE_SECONDS."""
    ago = (ages() if beats is None else beats).get(SWEEP)
    overdue = overdue_seconds()
    period = settings.GENIUS_SWEEP_SECONDS
    on_time = ago is not None and ago <= SWEEP_LATE_PERIODS * period and overdue is None
    return {"ok": on_time, "sweep_seconds_ago": _rounded(ago), "oldest_overdue_seconds": _rounded(overdue)}


def workers(beats: dict[str, float]) -> dict:
    """Seconds since a worker of each queue last ran its heartbeat (None: never)."""
    every = settings.GENIUS_WORKER_HEARTBEAT_SECONDS
    seen = {queue: beats.get(worker(queue)) for queue in queues()}
    answering = all(ago is not None and ago <= WORKER_LATE_BEATS * every for ago in seen.values())
    return {"ok": answering, "seconds_ago": {queue: _rounded(ago) for queue, ago in seen.items()}}


def outbox() -> dict:
    """Whether what the site owes the outside goes out: no message overdue past GENIUS_OUTBOX_LATE_SECONDS.
    Those that gave up after their retries (kept for the admins, with their error) are counted beside it."""
    overdue = outbox_overdue_seconds()
    draining = overdue is None or overdue <= settings.GENIUS_OUTBOX_LATE_SECONDS
    gave_up = OutboxTask.objects.filter(due_at__isnull=True).count()
    return {"ok": draining, "overdue_seconds": _rounded(overdue), "gave_up": gave_up}


def status() -> dict:
    """The deep status: deadlines, workers, outbox, each with `ok`; `ok` overall when all three are."""
    beats = ages()
    parts = {"deadlines": deadlines(beats), "workers": workers(beats), "outbox": outbox()}
    return {"ok": all(part["ok"] for part in parts.values()), **parts}


def deadlines_late() -> str:
    """The line the hosts' admin index shows when deadlines are late, in their words ("" when on time)."""
    state = deadlines()
    if state["ok"]:
        return ""
    ago, overdue = state["sweep_seconds_ago"], state["oldest_overdue_seconds"]
    if ago is None:
        why = "the sweep that closes rounds has not run yet"
    elif ago > SWEEP_LATE_PERIODS * settings.GENIUS_SWEEP_SECONDS:
        why = f"the last sweep ran {_spoken(ago)} ago"
    else:
        why = f"a round passed its deadline {_spoken(overdue)} ago and is still open"
    return f"Deadlines are late: {why}; rounds wait to close. Check the worker."


def _spoken(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 1)
