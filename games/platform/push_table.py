"""The live pages' channels in the database, for a site with no Redis (GENIUS_PUSH_BACKEND=database, the
embedded `make run`): what Redis pub/sub does there, done with one small table every process shares.

A message is a row (channel, payload), written by `live_push` after the commit it announces. Each web
process reads the rows newer than the last it saw, a few times a second, with one query whatever the number
of its streams (games/platform/push_sources.py), and relays them as it relays Redis's. A row is deleted
GENIUS_PUSH_KEEP_SECONDS after it was written, by whichever process writes next once that time has come.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.db import Error, connection
from django.utils import timezone

from .models import PushMessage

BATCH = 1000  # rows read at most per poll: a burst larger than this is read over the next polls

_pruned_at = 0.0  # when this process last deleted old rows (monotonic)


def write(messages: list[tuple[str, dict]]) -> None:
    """The messages as rows, in the order given (one INSERT), and old rows deleted once a while."""
    global _pruned_at
    PushMessage.objects.bulk_create([PushMessage(channel=name, payload=data) for name, data in messages])
    keep = settings.GENIUS_PUSH_KEEP_SECONDS
    if time.monotonic() - _pruned_at > keep:
        _pruned_at = time.monotonic()
        PushMessage.objects.filter(created__lt=timezone.now() - timedelta(seconds=keep)).delete()


def newest() -> int:
    """The id of the newest row (0 with none): a poller starting now reads only what comes after it."""
    return _guarded(lambda: PushMessage.objects.order_by("-id").values_list("id", flat=True).first() or 0)


def after(last: int) -> list[tuple[int, str, dict]]:
    """(id, channel, payload) of the rows past `last`, oldest first: one query."""
    rows = PushMessage.objects.filter(id__gt=last).order_by("id").values_list("id", "channel", "payload")
    return _guarded(lambda: list(rows[:BATCH]))


def _guarded(read):
    """A read that failed leaves no broken connection behind: the poller's thread keeps its connection from
    one poll to the next (no request's end closes it), and would fail on it forever."""
    try:
        return read()
    except Error:  # InterfaceError (a connection closed under it) too, not only DatabaseError
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()
        raise
