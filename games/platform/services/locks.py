"""Row locks in one order everywhere, and a limit on how long one transaction waits for them.

The order is the game, then its round, then its clock (a seat or a ledger after those). Every service that
locks more than one of them takes them in that order, so a pause racing a resolution waits for it instead of
deadlocking with it. A transaction that locks game rows first calls `limit_waits()`: on Postgres it waits at
most GENIUS_LOCK_WAIT_SECONDS for a row lock and GENIUS_STATEMENT_SECONDS for a statement, so one stuck game
(a transaction left open on its rows) delays only the work on that game.

A player's save, move or message (and a host's button) goes through `one_game_at_a_time`: a lock not granted
in time answers Busy ("try again", 409 with Retry-After). A web worker waiting on a stuck game serves no other
game meanwhile, so a game found held is remembered in the process for Retry-After seconds, and the requests
to it meanwhile only glance at its rows (GLANCE_SECONDS): taken at once if they are free again, else Busy at
once. Six saves to a held round then hold up no other game's request for more than one wait.
"""

from __future__ import annotations

import functools
import time

from django.conf import settings
from django.db import DatabaseError, connection, transaction

from ..errors import Busy

# Postgres's codes for "not granted in time", "deadlock" and "serialization failure": the work was refused
# because of another transaction, nothing is wrong with it.
LOCK_NOT_GRANTED = {"55P03", "40P01", "40001"}

# How long a request waits for the rows of a game this process found held a moment ago: long enough for
# another save's commit, far shorter than a stuck transaction.
GLANCE_SECONDS = 0.1
# Games this process found held, and until when (time.monotonic()) it only glances at their rows.
held_until: dict[int, float] = {}


def limit_waits(lock_seconds: float | None = None) -> None:
    """Within the current transaction, bound the waits for row locks (GENIUS_LOCK_WAIT_SECONDS, or
    `lock_seconds`) and for statements (Postgres only)."""
    if connection.vendor != "postgresql":
        return
    lock_ms = int((settings.GENIUS_LOCK_WAIT_SECONDS if lock_seconds is None else lock_seconds) * 1000)
    statement_ms = int(settings.GENIUS_STATEMENT_SECONDS * 1000)
    with connection.cursor() as cursor:
        # set_config(..., true) is SET LOCAL: it ends with the transaction.
        cursor.execute(
            "SELECT set_config('lock_timeout', %s, true), set_config('statement_timeout', %s, true)",
            [f"{lock_ms}ms", f"{statement_ms}ms"],
        )


def lock_not_granted(exc: BaseException) -> bool:
    """The database refused a row lock in time (or broke a deadlock, or refused to serialize): try again
    later, count no failure."""
    cause = exc.__cause__ if isinstance(exc, DatabaseError) else None
    return getattr(cause, "sqlstate", None) in LOCK_NOT_GRANTED


def one_game_at_a_time(service):
    """A service's transaction with bounded lock waits; a lock not granted in time answers Busy (409).

    The game is the service's `game_id`, `game` or `seat` argument (the services' own names for it); one it
    found held a moment ago is only glanced at (the module's docstring says why)."""

    @functools.wraps(service)
    def run(*args, **kwargs):
        game_id = game_of(kwargs)
        glance = game_id is not None and held_until.get(game_id, 0) > time.monotonic()
        try:
            with transaction.atomic():
                limit_waits(GLANCE_SECONDS if glance else None)
                done = service(*args, **kwargs)
        except DatabaseError as exc:
            if lock_not_granted(exc):
                busy = Busy()
                if game_id is not None and not glance:
                    held_until[game_id] = time.monotonic() + busy.retry_after
                raise busy from exc
            raise
        held_until.pop(game_id, None)
        return done

    return run


def game_of(kwargs: dict) -> int | None:
    if "game_id" in kwargs:
        return kwargs["game_id"]
    if kwargs.get("game") is not None:
        return kwargs["game"].pk
    if kwargs.get("seat") is not None:
        return kwargs["seat"].game_id
    return None
