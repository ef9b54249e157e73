"""Work handed to the Celery worker once the transaction commits: the one place services queue tasks.

Tasks call services, so services never import the tasks module: each task is looked up by its name in the
Celery app's registry (the platform's AppConfig imports the tasks when the site starts). Work queued here
is sent only if the transaction commits, and a broker that does not answer never turns a committed write
into an error: `robust` on_commit logs the failure instead of raising it.
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction

TASKS = "games.platform.tasks"


def _after_commit(task: str, *args) -> None:
    transaction.on_commit(lambda: current_app.tasks[f"{TASKS}.{task}"].delay(*args), robust=True)


def resolve_round(round_id: int, early: bool = False) -> None:
    _after_commit("resolve_round", round_id, early)


def expire_clock(game_id: int, generation: int) -> None:
    _after_commit("expire_clock", game_id, generation)


def notify_round_resolved(round_id: int) -> None:
    _after_commit("notify_round_resolved", round_id)


def send_reminder(round_id: int, user_ids: list[int]) -> None:
    _after_commit("send_reminder", round_id, user_ids)


def notify_your_turn(game_id: int, user_id: int, kind: str, generation: int) -> None:
    _after_commit("notify_your_turn", game_id, user_id, kind, generation)


def deliver_webhooks(webhook_ids: list[int], event_ids: list[int]) -> None:
    """Each announcement to each webhook, one task apiece (a slow receiver delays only its own)."""
    for event_id in event_ids:
        for webhook_id in webhook_ids:
            _after_commit("deliver_webhook", webhook_id, event_id)
