"""What a player has not read yet: the messages of their pair chats, and the results of a resolved round.

A pair chat keeps, for each of its two players, how many messages the other wrote since they last opened it
(`ChatRead`). Only the reader sees the count: it moves their own page stamp and nothing else, so no
spectator, other player or host of another game can tell that a message was sent (issue 17.7). The first
unread message of a burst emails the reader if they asked for it; the next one only after they read.

A round's results are unread for a player until they open the game's page after the round resolved
(`Seat.inbox_read_at`). Opening it writes that time once per game version the player sees: the page itself
usually comes from the page cache without a query, and a version already marked costs no write.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Sum

from genius.clock import site_now

from .. import enqueue, live_push, pagecache
from ..models import ChatRead, Seat


@transaction.atomic
def chat_written(*, author_seat: Seat, other_seat: Seat) -> ChatRead:
    """A message from `author_seat` to `other_seat`: one more unread for the other; the author has read."""
    reading, _ = ChatRead.objects.select_for_update().get_or_create(seat=other_seat, other=author_seat)
    reading.unread += 1
    reading.save(update_fields=["unread"])
    if reading.unread == 1:  # a new burst: the one email it may send (the task checks the preference)
        enqueue.notify_chat_message(reading.pk, reading.burst)
    pagecache.own_changed(other_seat.game_id, [other_seat.user_id])
    live_push.chat(other_seat.game_id, [author_seat.user_id, other_seat.user_id])
    live_push.counts([other_seat.user_id])
    chat_opened(reader=author_seat, other=other_seat)  # answering a chat is reading it
    return reading


@transaction.atomic
def chat_opened(*, reader: Seat, other: Seat) -> bool:
    """The reader opened their chat with `other`: nothing in it is unread now. Whether anything was."""
    changed = ChatRead.objects.filter(seat=reader, other=other, unread__gt=0).update(
        unread=0, burst=F("burst") + 1
    )
    if changed:
        pagecache.own_changed(reader.game_id, [reader.user_id])
        live_push.counts([reader.user_id])
    return bool(changed)


def chats_unread(seat: Seat) -> dict[int, int]:
    """{other seat's id: unread messages from them} of one player's chats with anything unread."""
    return dict(ChatRead.objects.filter(seat=seat, unread__gt=0).values_list("other_id", "unread"))


def chats_unread_total(seat: Seat) -> int:
    return ChatRead.objects.filter(seat=seat).aggregate(total=Sum("unread"))["total"] or 0


def inbox_key(game_id: int, user_id: int) -> str:
    """Where the cache remembers the version at which a player last opened the game's page."""
    return f"inbox-read:{game_id}:{user_id}"


_ASK = object()  # inbox_opened: the caller has not read the mark; ask the cache


def inbox_opened(*, game_id: int, user_id: int, version: int, marked=_ASK) -> None:
    """A player opened the game's page at `version`: the results it shows are read. Nothing is written when
    this version was marked already (the cache remembers it; without the cache, every opening writes).
    `marked`: the mark as the caller read it with the page (pagecache.find), saving a round trip."""
    key = inbox_key(game_id, user_id)
    if (cache.get(key) if marked is _ASK else marked) == version:
        return
    if Seat.objects.filter(game_id=game_id, user_id=user_id).update(inbox_read_at=site_now()):
        live_push.counts([user_id])  # "results are in your inbox" leaves their list, in their other tabs too
    cache.set(key, version, timeout=settings.GENIUS_PAGE_CACHE_SECONDS)
