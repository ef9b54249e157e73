"""What each message says to one player, in their words and their zone, carrying only what they may see:
their own inbox, never another seat's."""

from __future__ import annotations

from ..models import Event, Round
from ..people import shown_name
from ..services.notify import page_link, zone
from ..wording import names_for, plain
from ..zones import local_text, span_text
from .note import Note

INBOX_CHARACTERS = 1500  # more than a phone shows; the page has the rest


def results(rnd: Round, user) -> Note:
    """The player's own inbox of the round, as they read it on the page."""
    game = rnd.game
    texts = list(
        Event.objects.filter(
            game=game, kind=Event.Kind.REVEAL, seat__user=user, round_number=rnd.number
        ).values_list("text", flat=True)
    )
    names = names_for(texts)
    inbox = "\n".join(plain(text, names, zone(user)) for text in texts)
    if len(inbox) > INBOX_CHARACTERS:
        inbox = inbox[: INBOX_CHARACTERS - 1] + "…"
    said = f"In your inbox:\n{inbox}\n\n" if inbox else ""
    return Note(
        "results",
        f"{game.name}: Round {rnd.number} is resolved",
        f"{said}The results are in your inbox on the game page:",
        page_link("game", game.id),
    )


def round_opened(rnd: Round, user) -> Note:
    return Note(
        "round_opened",
        f"{rnd.game.name}: Round {rnd.number} is open",
        f"Round {rnd.number} closes at {local_text(rnd.closes_at, zone(user))}.\nSubmit on the game page:",
        page_link("game", rnd.game_id),
    )


def reminder(rnd: Round, user) -> Note:
    return Note(
        "reminder",
        f"{rnd.game.name}: Round {rnd.number} closes soon",
        f"You have not submitted for Round {rnd.number} yet. "
        f"It closes at {local_text(rnd.closes_at, zone(user))}.\nSubmit on the game page:",
        page_link("game", rnd.game_id),
    )


def last_call(rnd: Round, user) -> Note:
    """An hour before a long round closes, to those who still owe it (services/leads.py)."""
    return Note(
        "reminder",
        f"{rnd.game.name}: last call, Round {rnd.number} closes in an hour",
        f"You have not submitted for Round {rnd.number} yet. "
        f"It closes at {local_text(rnd.closes_at, zone(user))}.\nSubmit on the game page:",
        page_link("game", rnd.game_id),
    )


def reserve_running(game, ends, now, user) -> Note:
    """A live match's allowance ran out and the reserve is being drawn (`ends`: when it is gone)."""
    return Note(
        "reminder",
        f"{game.name}: your time is up, your reserve is running",
        f"Your time for this move in {game.name} ran out: your reserve is being drawn, and it is gone at "
        f"{local_text(ends, zone(user))} (in {span_text(ends - now)}).\nMove on the game page:",
        page_link("game", game.id),
    )


def pick_reminder(pick, user) -> Note:
    """A host's reminder to an Elimination Candidate who has not picked a Death Match opponent yet."""
    game = pick.main_match
    return Note(
        "reminder",
        f"{game.name}: pick your Death Match opponent",
        f"You are the Elimination Candidate of {game.name}: pick your Death Match opponent by "
        f"{local_text(pick.deadline, zone(user))}, or the hosts pick for you.\nPick on this page:",
        page_link("death-match-pick", game.id),
    )


def your_turn(game, kind: str, user) -> Note:
    """`kind`: the clock's ("turn", or the decision it waits for)."""
    what = "your turn" if kind == "turn" else f"your decision ({kind})"
    return Note(
        "your_turn",
        f"{game.name}: {what}",
        "The clock is running on the game page:",
        page_link("game", game.id),
    )


def chat(reading, user) -> Note:
    """The first unread message of a burst in a pair chat: who wrote, never what."""
    game, writer = reading.seat.game, shown_name(reading.other.user)
    low, high = sorted([reading.seat.number, reading.other.number])
    return Note(
        "chat_message",
        f"{game.name}: {writer} wrote to you",
        f"{writer} wrote to you in your pair chat in {game.name}. "
        "Nothing more about this chat comes until you have read it:",
        page_link("chat", game.id, low, high),
    )
