"""Telling open pages that something moved: ids and numbers on Redis pub/sub, once the change is committed.

Notify-then-fetch (docs/live.md): a message says only "game G is at version N" (channel `<prefix>game:G`,
which anyone allowed to see G may hear), "something of game G only you see moved" (`<prefix>user:U`,
heard only by U's own streams), "something only the hosts of G see moved" (`<prefix>hosts:G`, heard only by
streams whose user hosts G) or "your chats or counts moved". The page then fetches what moved through the
authorised views it already polls: nothing hidden ever rides a message.

A message is sent after the commit (`transaction.on_commit`), never inside a transaction: a page told
"moved" before the commit would fetch the old state, and a rolled-back change would be announced. Sending
never raises: with Redis away the change is stored all the same, a warning is logged, and the pages' slow
poll (their safety net) shows it a little later.
"""

from __future__ import annotations

import json
import logging
import time

import redis
from django.conf import settings
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

_client: redis.Redis | None = None
_client_url = ""
_quiet_until = 0.0  # after a failure, Redis is left alone this long (as genius/cache.py does)


def enabled() -> bool:
    """Push runs where a Redis every process shares is named (GENIUS_PUSH_URL, by default REDIS_URL)."""
    return bool(settings.GENIUS_PUSH_URL)


def channel(kind: str, ident: int) -> str:
    """`kind` is game, user or hosts. The prefix keeps two sites (or two test runs) on one Redis apart:
    pub/sub ignores Redis's database numbers."""
    return f"{settings.GENIUS_PUSH_PREFIX}{kind}:{ident}"


def version(game_id: int, number: int) -> None:
    """The game's public version is `number` (called after the commit, by versions.py)."""
    send([(channel("game", game_id), {"event": "version", "game": game_id, "v": number})])


def mine(game_id: int | None, user_ids, *, season_id: int | None = None, hosts: bool = False) -> None:
    """Something of game `game_id` (or of the season's ledger) that only these users (and, with `hosts`,
    the game's hosts) see moved: their pages fetch their own part. Sent after the commit."""
    where = {"game": game_id} if game_id is not None else {"season": season_id}
    messages = [(channel("user", uid), {"event": "mine", **where}) for uid in sorted(set(user_ids))]
    if hosts and game_id is not None:
        messages.append((channel("hosts", game_id), {"event": "mine", "game": game_id}))
    after_commit(messages)


def chat(game_id: int, user_ids) -> None:
    """A pair chat of the game moved for these users (a message, a read): their chat pages fetch it."""
    after_commit(
        [(channel("user", uid), {"event": "chat", "game": game_id}) for uid in sorted(set(user_ids))]
    )


def counts(user_ids) -> None:
    """A user's unread or "awaiting you" counts moved: their home page and title count fetch them."""
    after_commit(counts_messages(user_ids))


def counts_messages(user_ids) -> list[tuple[str, dict]]:
    return [(channel("user", uid), {"event": "counts"}) for uid in sorted(set(user_ids))]


def after_commit(messages: list[tuple[str, dict]]) -> None:
    """Send once the current transaction commits (at once outside one); nothing if it rolls back."""
    if enabled() and messages:
        transaction.on_commit(lambda: send(messages))


def send(messages: list[tuple[str, dict]]) -> None:
    """Publish now. Never raises: a change already stored must not fail for this."""
    global _quiet_until
    if not enabled() or not messages or time.monotonic() < _quiet_until:
        return
    try:
        client = _redis()  # PUBLISH only: no key of the cache's is read or written here
        for name, data in messages:  # one to three messages a commit
            client.publish(name, json.dumps(data, separators=(",", ":")))
    except (RedisError, OSError):
        _quiet_until = time.monotonic() + settings.GENIUS_REDIS_TIMEOUT
        log.warning("Redis did not take %d live message(s); the pages' poll shows the change", len(messages))
    except Exception:
        log.exception("Publishing live messages failed; the pages' poll shows the change")


def _redis() -> redis.Redis:
    global _client, _client_url
    url = settings.GENIUS_PUSH_URL
    if _client is None or _client_url != url:
        timeout = settings.GENIUS_REDIS_TIMEOUT
        _client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        _client_url = url
    return _client
