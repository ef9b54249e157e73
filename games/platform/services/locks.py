"""Row locks in one order everywhere, and a limit on how long one transaction waits for them.

The order is the game, then its round, then its clock (a seat or a ledger after those). Every service that
locks more than one of them takes them in that order, so a pause racing a resolution waits for it instead of
deadlocking with it. A transaction that locks game rows first calls `limit_waits()`: on Postgres it waits at
most GENIUS_LOCK_WAIT_SECONDS for a row lock and GENIUS_STATEMENT_SECONDS for a statement, so one stuck game
(a transaction left open on its rows) delays only the work on that game.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.db import DatabaseError, connection, transaction

from ..errors import Busy

# Postgres's codes for "not granted in time" and "deadlock": the work was refused, nothing is wrong with it.
LOCK_NOT_GRANTED = {"55P03", "40P01"}


def limit_waits() -> None:
    """Within the current transaction, bound the waits for row locks and for statements (Postgres only)."""
    if connection.vendor != "postgresql":
        return
    lock_ms = int(settings.GENIUS_LOCK_WAIT_SECONDS * 1000)
    statement_ms = int(settings.GENIUS_STATEMENT_SECONDS * 1000)
    with connection.cursor() as cursor:
        # set_config(..., true) is SET LOCAL: it ends with the transaction.
        cursor.execute(
            "SELECT set_config('lock_timeout', %s, true), set_config('statement_timeout', %s, true)",
            [f"{lock_ms}ms", f"{statement_ms}ms"],
        )


def lock_not_granted(exc: BaseException) -> bool:
    """The database refused a row lock in time (or broke a deadlock): try again later, count no failure."""
    cause = exc.__cause__ if isinstance(exc, DatabaseError) else None
    return getattr(cause, "sqlstate", None) in LOCK_NOT_GRANTED


def one_game_at_a_time(service):
    """A service's transaction with bounded lock waits; a lock not granted in time answers Busy (409)."""

    @functools.wraps(service)
    def run(*args, **kwargs):
        try:
            with transaction.atomic():
                limit_waits()
                return service(*args, **kwargs)
        except DatabaseError as exc:
            if lock_not_granted(exc):
                raise Busy() from exc
            raise

    return run
