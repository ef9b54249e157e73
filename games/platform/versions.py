"""A game's version as every web process sees it at once: kept in the shared cache, raised after each commit.

Feed polls and game pages ask for a game's version many times a second. Reading it from Postgres every
time makes a poll cost about three bare answers; a copy kept per process for a second made a move wait up
to a second longer before its opponent's page showed it, since the process answering the poll could not know
that another had moved the game. So the version sits in the shared cache (Redis): whatever moves a game
writes the committed number there once its transaction commits, and the number never goes back (two commits
may write in either order, and a reader may write what it read before a commit: the higher number stays).

The rest of the row a page needs (status, name, season, public) only changes together with the version, so
each process keeps it per version. Without a shared cache (a plain `make run`), or while it does not
answer, the version is read from the database.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from redis.exceptions import RedisError

from . import live_push
from .models import Game, Seat

log = logging.getLogger(__name__)

FIELDS = ("version", "status", "public", "name", "season_id")
KEPT_SECONDS = 24 * 3600  # a game nobody asked about for a day is read from the database again

# Sets the number only if it is higher than the one kept: commits and readers may write in any order.
RAISE = """
local kept = tonumber(redis.call('GET', KEYS[1]))
if kept == nil or kept < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
"""

_rows: dict[int, dict] = {}  # game id -> its row as this process last read it (version included)


def shared() -> bool:
    """Only a cache every process shares can tell one process what another moved (as for the page cache)."""
    return settings.GENIUS_PAGE_CACHE


def game_row(game_id: int) -> dict | None:
    """The game's version, status, public, name and season: current as of the last commit that moved it."""
    if shared():
        try:
            version = cache.get(_key(game_id))
        except (RedisError, OSError):
            log.warning("the cache did not answer; game %s's version read from the database", game_id)
            return _read(game_id, raise_kept=False)
        kept = _rows.get(game_id)
        if version is not None and kept is not None and kept["version"] >= version:
            return kept
    return _read(game_id)


def game_moved(game_id: int) -> None:
    """The game's version moved in the current transaction: every process sees the new one once it commits,
    and the pages open on the game are told the new number (live_push).

    Inside a caller's transaction (or a test's, which never commits) the kept number is dropped now as well,
    so reads in that transaction ask the database, which already sees the change.
    """
    if not shared() and not live_push.enabled():
        return
    if shared() and len(transaction.get_connection().atomic_blocks) > 1:
        _safely(cache.delete, _key(game_id))
    transaction.on_commit(partial(_committed, game_id))


def _committed(game_id: int) -> None:
    """After the commit: the number kept for every process, and the open pages told (live_push)."""
    row = _read(game_id)
    if row is not None:
        live_push.version(game_id, row["version"])
        _players_told(game_id)


def _players_told(game_id: int) -> None:
    """What awaits a player from this game (a round open or resolved, a turn or a decision, a Death Match
    pick, sitting down, the game's end) moves only with its version: each seated player's home page and
    title count are told after the players' pages are (one query, after the commit). Whoever loses their
    seat in the change is told by the change itself (seating.seat_give)."""
    if live_push.enabled():
        players = Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True)
        live_push.send(live_push.counts_messages(players))


def _read(game_id: int, *, raise_kept: bool = True) -> dict | None:
    row = Game.objects.filter(pk=game_id).values(*FIELDS).first()
    if row is not None:
        _rows[game_id] = row
        if raise_kept and shared():
            _safely(_raise, game_id, row["version"])
    return row


def _raise(game_id: int, version: int) -> None:
    key = _key(game_id)
    run_script = getattr(cache, "run_script", None)
    if run_script is not None:  # Redis (genius.cache): compare and set in one step, as every call is made
        run_script(RAISE, [key], [version, KEPT_SECONDS])
    elif (cache.get(key) or -1) < version:  # one process (the tests' memory cache): no one to race
        cache.set(key, version, timeout=KEPT_SECONDS)


def _safely(step, *args) -> None:
    try:
        step(*args)
    except (RedisError, OSError):  # the next reader asks the database, and writes the number again
        log.warning("the cache did not answer while keeping a game's version", exc_info=True)


def _key(game_id: int) -> str:
    return f"version:{game_id}"
