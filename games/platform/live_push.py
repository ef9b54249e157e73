"""Telling open pages that something moved: ids and numbers on Redis pub/sub (or, with no Redis, in the
database's push table: games/platform/push_table.py), once the change is committed.

Notify-then-fetch (docs/live.md): a message says only "game G is at version N" (channel `<prefix>game:G`,
which anyone allowed to see G may hear), "something of game G only you see moved" (`<prefix>user:U`,
heard only by U's own streams), "something only the hosts of G see moved" (`<prefix>hosts:G`, heard only by
streams whose user hosts G) or "your chats or counts moved". The page then fetches what moved through the
authorised views it already polls: nothing hidden ever rides a message.

A message is sent after the commit (`transaction.on_commit`), never inside a transaction: a page told
"moved" before the commit would fetch the old state, and a rolled-back change would be announced. Sending
never raises: with Redis away the change is stored all the same and a warning is logged.

After a failure, this Redis is left alone for a moment (genius/backoff.py: the back-off the cache shares).
The messages of that moment are held, not dropped, and sent as soon as Redis answers again (the back-off's
watcher asks every second), with the next message sent, or by the watcher. Otherwise a move made just
after Redis came back would reach a page whose stream had already reconnected only at its 45 s safety poll.
During a long outage the streams are closed anyway (the pages poll, and catch up on reconnecting): only
the latest HELD messages are kept.

Which channel carries the messages is `backend()`: GENIUS_PUSH_BACKEND, or by default "redis" when a Redis
is named and "database" when none is (the push table, games/platform/push_table.py). Only the carrier
differs: the messages and the streams are the same.
"""

from __future__ import annotations

import json
import logging
import threading

import redis
from django.conf import settings
from django.db import Error, transaction
from redis.exceptions import RedisError

from genius import backoff

from . import push_table

log = logging.getLogger(__name__)

HELD = 1000  # messages kept while Redis rests (one per channel and subject: a newer version replaces one)

_client: redis.Redis | None = None
_client_url = ""
_held: dict[tuple[str, str], tuple[str, dict]] = {}  # (channel, what it is about) -> the message
_holding = threading.Lock()


def backend() -> str:
    """ "redis" (pub/sub on GENIUS_PUSH_URL, by default REDIS_URL), "database" (the push table) or "off"."""
    return settings.GENIUS_PUSH_BACKEND or ("redis" if settings.GENIUS_PUSH_URL else "database")


def enabled() -> bool:
    """Push runs on a channel every process shares: a Redis, or the database."""
    return backend() != "off"


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
    """Send now, on the site's channel (with whatever Redis was held back); while Redis rests, hold them.
    Never raises: a change already stored must not fail for this."""
    if not enabled() or not messages:
        return
    if backend() == "database":
        try:
            push_table.write(messages)
        except Error:
            log.warning("The push table did not take %d live message(s); the poll shows it", len(messages))
        except Exception:
            log.exception("Publishing live messages failed; the pages' poll shows the change")
        return
    resting = backoff.for_url(settings.GENIUS_PUSH_URL)
    _hold(messages)
    if resting.resting():
        resting.owe("live-push", _send_held)
        return
    try:
        _send_held()
    except (RedisError, OSError):
        resting.failed()
        resting.owe("live-push", _send_held)
        log.warning("Redis did not take %d live message(s); they are sent when it answers", len(messages))
    except Exception:
        log.exception("Publishing live messages failed; the pages' poll shows the change")


def _hold(messages: list[tuple[str, dict]]) -> None:
    with _holding:
        for name, data in messages:
            about = json.dumps({k: v for k, v in data.items() if k != "v"}, sort_keys=True)
            _held.pop((name, about), None)  # a newer version of the same goes last, in order
            if len(_held) >= HELD:  # an outage this long closed the streams: their pages catch up anyway
                _held.pop(next(iter(_held)))
            _held[(name, about)] = (name, data)


def _send_held() -> None:
    """Everything held, in the order it came; what Redis did not take stays held (and this raises)."""
    client = _redis()  # PUBLISH only: no key of the cache's is read or written here
    while True:
        with _holding:
            if not _held:
                return
            key = next(iter(_held))
            name, data = _held[key]
        client.publish(name, json.dumps(data, separators=(",", ":")))
        with _holding:
            if _held.get(key) == (name, data):  # unless a newer one replaced it meanwhile
                del _held[key]


def _redis() -> redis.Redis:
    global _client, _client_url
    url = settings.GENIUS_PUSH_URL
    if _client is None or _client_url != url:
        timeout = settings.GENIUS_REDIS_TIMEOUT
        _client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        _client_url = url
    return _client
