"""Database blips: the database failed the work, not the work itself (issue 28.3).

A connection lost or refused (Postgres restarting, a network cut), a pool that had no connection in time, a
server shutting down, starting or out of resources, SQLite's file busy: the same work succeeds once the
database answers again, so the sweep tries it again and nothing counts it as a failure. A lock not granted
in time, a deadlock broken and a serialization failure are the other kind of "not now" (services/locks.py).

Anything else a resolution raises is counted towards GENIUS_RESOLVE_MAX_ATTEMPTS: the game's own code, or a
query it got wrong. So is a statement that ran past GENIUS_STATEMENT_SECONDS (57014): that is the work being
too slow, and trying it again at every sweep without end would hold a deadlines worker that long each time.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

# Postgres's SQLSTATE classes and codes that say the server, not the statement, failed: 08 a connection
# exception, 53 insufficient resources (too many connections, disk full, out of memory), 57P01-57P03 the
# server shutting down, crashed or starting up, 58030 an I/O error.
AWAY_CLASSES = {"08", "53"}
AWAY_CODES = {"57P01", "57P02", "57P03", "58030"}
# SQLite's primary result codes for the same: the file busy or locked, an I/O error, the disk full, the file
# not opened. SQLITE_ERROR (1), the code of "no such table", is the work's.
SQLITE_AWAY = {5, 6, 10, 13, 14}


def database_away(exc: BaseException) -> bool:
    """The database did not answer this work (nothing was kept): try it again later, count no failure."""
    if isinstance(exc, InterfaceError):
        return True  # Django's and psycopg's "connection already closed"
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    sqlite_code = getattr(cause, "sqlite_errorcode", None)
    if sqlite_code is not None:
        return sqlite_code & 0xFF in SQLITE_AWAY
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate is None:
        # No answer from a server at all: the connection failed or was cut, or the pool gave none in time
        # (psycopg_pool's PoolTimeout).
        return True
    return sqlstate[:2] in AWAY_CLASSES or sqlstate in AWAY_CODES
