"""Work handed to the Celery worker once the transaction commits: the one place services queue tasks.

Tasks call services, so services never import the tasks module: each task is named here and looked up in
the Celery app's registry when it is published (the platform's AppConfig imports the tasks when the site
starts). What a commit owes the outside (an email, a webhook post, an early resolution) is an outbox row
written in the same transaction (games/platform/outbox.py): published once it commits, and again by the
relay until its work is done, so a broker that does not answer never turns a committed write into an error
(issue 18.1) and nothing owed is lost after a commit (issue 28). What the deadline sweep queues (a due
round, clock or start time) needs no row: the next sweep finds it again by query.
"""

from __future__ import annotations

from django.conf import settings

from . import outbox


def resolve_round(round_id: int, early: bool = False) -> None:
    if early:  # a commit closed the round (everyone final): nothing else would resolve it before its deadline
        outbox.owe("resolve_round", [[round_id, True]])
    else:
        outbox.send("resolve_round", [round_id, False])


def expire_clock(game_id: int, generation: int) -> None:
    outbox.send("expire_clock", [game_id, generation])


def start_clocks(game_id: int) -> None:
    outbox.send("start_clocks", [game_id])


def notify_round_resolved(round_id: int) -> None:
    outbox.owe("notify_round_resolved", [[round_id]])


def notify_round_opened(round_id: int) -> None:
    """A round a host opened by hand (services.games.round_open_by_hand): its players are told it is open."""
    outbox.owe("notify_round_opened", [[round_id]])


def send_reminder(round_id: int, user_ids: list[int], key: str = "", publish: bool = True) -> list[int]:
    """`publish` False: a host's press sends it itself, after its commit (services/reminders.py)."""
    return outbox.owe("send_reminder", [[round_id, user_ids, *([key] if key else [])]], publish)


def send_last_call(round_id: int, user_ids: list[int]) -> None:
    outbox.owe("send_last_call", [[round_id, user_ids]])


def send_pick_reminder(pick_id: int, key: str) -> None:
    outbox.owe("send_pick_reminder", [[pick_id, key]])


def notify_your_turn(game_id: int, user_id: int, kind: str, generation: int, turn: str = "") -> None:
    """Published by the relay a few seconds later (GENIUS_YOUR_TURN_DELAY_SECONDS): a player who moves at
    once, or watches the page, is told nothing (tasks.notify_your_turn)."""
    delay = settings.GENIUS_YOUR_TURN_DELAY_SECONDS
    outbox.owe("notify_your_turn", [[game_id, user_id, kind, generation, turn]], after=delay)


def send_digest(user_id: int, day: str) -> None:
    outbox.owe("send_digest", [[user_id, day]])


def warn_reserve(game_id: int, user_id: int, generation: int, turn: str) -> None:
    outbox.owe("warn_reserve", [[game_id, user_id, generation, turn]])


def notify_chat_message(reading_id: int, burst: int) -> None:
    outbox.owe("notify_chat_message", [[reading_id, burst]])


def deliver_webhooks(webhook_ids: list[int], event_ids: list[int]) -> None:
    """Each announcement to each webhook, one task apiece (a slow receiver delays only its own)."""
    outbox.owe(
        "deliver_webhook", [[webhook_id, event_id] for event_id in event_ids for webhook_id in webhook_ids]
    )
