"""Pair chats: every two players of a game share a private channel; the hosts read them all."""

from __future__ import annotations

from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import ChatMessage, Game, Seat, check_cursor, rows_after
from .audit import audit
from .hosts import require_host
from .locks import one_game_at_a_time
from .unread import chat_opened, chat_written

SEAT_NUMBERS_END = 32767  # Seat.number is a small integer


def pair(seat_a: Seat, seat_b: Seat) -> tuple[Seat, Seat]:
    return (seat_a, seat_b) if seat_a.number < seat_b.number else (seat_b, seat_a)


def chat_messages(*, game: Game, seat_a: Seat, seat_b: Seat, after: str | None = None) -> list[ChatMessage]:
    """The pair's messages, after the one whose ref is `after` (UnknownRef when it is none of theirs)."""
    low, high = pair(seat_a, seat_b)
    pair_rows = ChatMessage.objects.filter(game=game, low_seat=low, high_seat=high)
    found = list(rows_after(pair_rows, after).select_related("author__profile"))
    check_cursor(pair_rows, after, found)
    return found


@one_game_at_a_time
def chat_post(*, game: Game, author_seat: Seat, other_seat: Seat, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise RulesError("Write something first.", field="text")
    if len(text) > 2000:
        raise RulesError("A message holds at most 2000 characters.", field="text")
    if author_seat.pk == other_seat.pk:
        raise RulesError("A pair chat is with another player.", field="other")
    if Game.objects.filter(pk=game.pk, chats_muted=True).exists():
        raise StateChanged("The hosts have muted the chats of this game for now.")
    if game.status == Game.Status.FINISHED:
        raise StateChanged("The game is over; its chats are closed.")
    low, high = pair(author_seat, other_seat)
    # No version moves: a chat shows on its own page only, and spectators must not count messages by it.
    # The one who is written to counts it unread, on their own pages only.
    message = ChatMessage.objects.create(
        game=game, low_seat=low, high_seat=high, author=author_seat.user, text=text
    )
    chat_written(author_seat=author_seat, other_seat=other_seat)
    return message


@one_game_at_a_time
def chats_mute(*, game: Game, muted: bool, actor) -> None:
    require_host(game, actor)
    Game.objects.filter(pk=game.pk).update(chats_muted=muted)
    audit(action="chats_mute" if muted else "chats_unmute", actor=actor, game=game)


def chat_access(game: Game, viewer, seat_a_number: int, seat_b_number: int) -> tuple[Seat, Seat]:
    """The two seats of a chat the viewer may read; anyone else is told it does not exist (404)."""
    from django.http import Http404

    if not all(0 <= n <= SEAT_NUMBERS_END for n in (seat_a_number, seat_b_number)):
        raise Http404("No such chat.")  # no seat has it (and the database's small integer could not hold it)
    seats = {
        s.number: s
        for s in Seat.objects.filter(game=game, number__in=[seat_a_number, seat_b_number]).select_related(
            "user__profile"
        )
    }
    if len(seats) != 2:
        raise Http404("No such chat.")
    if viewer.role == "host":
        return seats[seat_a_number], seats[seat_b_number]
    if viewer.role == "player" and viewer.seat.number in seats:
        return seats[seat_a_number], seats[seat_b_number]
    raise Http404("No such chat.")


def chat_read(viewer, seat_a: Seat, seat_b: Seat) -> None:
    """The viewer opened this chat: if they are one of its players, nothing in it is unread for them now (a
    host reads every chat and has no count of their own)."""
    if viewer.role == "player":
        me = viewer.seat
        chat_opened(reader=me, other=seat_b if me.pk == seat_a.pk else seat_a)


def require_player(viewer) -> Seat:
    if viewer.role != "player":
        raise NotAllowed("Only the two players of a chat write in it.")
    return viewer.seat
