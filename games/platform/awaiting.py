"""What the site awaits from one player, across their games: "awaiting you", most urgent first.

The platform knows rounds, submissions and turn clocks for every game type, so it reads those itself; a game
type says only whether a seat owes the open round anything (`GameType.owed`: a decision round owes nothing
to the seats that do not decide). Besides what is owed, what is unread (services/unread.py): a round's
results not seen on the game's page since it resolved, and each pair chat's messages to the player since
they last opened it. A constant number of queries, however many games the player sits in, and nothing of
any other seat: a round, a pick and a chat count are read for the player's own seats only, and a turn clock
for whom it waits on (public: the live page names them all, `GameType.deciding_seats`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Exists, OuterRef, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from genius.clock import site_now

from . import registry
from .models import ChatRead, DeathMatchPick, Game, Round, Seat, Submission, TurnClock
from .people import shown_name

NEVER = datetime(2000, 1, 1, tzinfo=UTC)  # a seat that never opened its game's page

# What each thing asks of the player, most pressing first when two close at the same moment.
NOT_SUBMITTED = "not_submitted"
YOUR_TURN = "your_turn"
DECISION = "decision"
SIT_DOWN = "sit_down"
PICK = "pick"
SAVED_NOT_FINAL = "saved_not_final"
RESULTS = "results"
UNREAD = "unread_messages"
OFFER = "offer"

NEEDS = {
    SIT_DOWN: "sit down: say you are here, the clocks wait for you",
    YOUR_TURN: "your turn",
    DECISION: "a decision is pending",
    PICK: "pick your Death Match opponent",
    NOT_SUBMITTED: "not submitted",
    SAVED_NOT_FINAL: "saved, not final",
    OFFER: "a trade offer awaits your answer",
    RESULTS: "results are in your inbox",
    UNREAD: "unread messages",
}
# A saved submission counts even if it is never marked final: it waits behind whatever has none yet. What is
# only to be read has no deadline: it comes after everything that has one.
RANK = {
    SIT_DOWN: 0,
    YOUR_TURN: 0,
    DECISION: 0,
    PICK: 1,
    NOT_SUBMITTED: 1,
    SAVED_NOT_FINAL: 2,
    OFFER: 2,
    RESULTS: 3,
    UNREAD: 3,
}


@dataclass
class Awaiting:
    """One thing a game needs from the player, and by when."""

    game_id: int
    game_name: str
    need: str  # one of NEEDS
    deadline: datetime | None
    paused_seconds: float | None = None  # the time left while the game is paused (the deadline then moves)
    round_number: int | None = None
    unread: int | None = None  # UNREAD: how many messages
    chat: tuple[int, int, str] | None = None  # UNREAD: the chat's two seat numbers, and who wrote
    offers: int | None = None  # OFFER: how many offers made to the player wait for their answer
    # YOUR_TURN, DECISION: the reserve after the deadline, drawn in `increment` steps, and whether it is being
    # drawn: the page counts on into it (platform/turn_clock.html), as the game's page does.
    reserve: tuple[float, float, bool] | None = None

    @property
    def text(self) -> str:
        if self.round_number is not None and self.need in (NOT_SUBMITTED, SAVED_NOT_FINAL):
            return f"Round {self.round_number}: {NEEDS[self.need]}"
        if self.need == UNREAD:
            return f"{self.unread} unread message{'' if self.unread == 1 else 's'} from {self.chat[2]}"
        if self.need == OFFER and self.offers != 1:
            return f"{self.offers} trade offers await your answer"
        return NEEDS[self.need][:1].upper() + NEEDS[self.need][1:]

    @property
    def url(self) -> str:
        if self.need == PICK:
            return reverse("death-match-pick", args=[self.game_id])
        if self.need == UNREAD:
            return reverse("chat", args=[self.game_id, self.chat[0], self.chat[1]])
        return reverse("game", args=[self.game_id])

    @property
    def clock(self) -> dict | None:
        """A turn's clock as platform/turn_clock.html draws it, or None for anything else."""
        if self.reserve is None or self.deadline is None:
            return None
        reserve, increment, in_reserve = self.reserve
        return {
            "paused": False,
            "deadline": self.deadline.isoformat(),
            "reserve_seconds": reserve,
            "increment": increment,
            "in_reserve": in_reserve,
        }

    def as_dict(self) -> dict:
        return {
            "game": self.game_id,
            "game_name": self.game_name,
            "need": self.need,
            "text": self.text,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "paused_seconds": self.paused_seconds,
            "reserve_seconds": self.reserve[0] if self.reserve else None,
            "reserve_increment": self.reserve[1] if self.reserve else None,
            "round": self.round_number,
            "unread": self.unread,
            "offers": self.offers,
            "url": self.url,
        }


def _sort_key(item: Awaiting, now: datetime):
    # Paused things have no moving deadline: they wait after every running one, by the time they have left.
    if item.paused_seconds is not None:
        left = timedelta(days=36500) + timedelta(seconds=item.paused_seconds)
    elif item.deadline is not None:
        left = item.deadline - now
    else:
        left = timedelta(days=73000)
    return (left, RANK[item.need], item.game_id)


def awaiting(user, now: datetime | None = None) -> list[Awaiting]:
    """Everything the user's running games and picks await from them, the soonest deadline first."""
    if not getattr(user, "is_authenticated", False):
        return []
    now = now or site_now()
    # A round resolved since the player last opened the game's page has results they have not read.
    results = Round.objects.filter(
        game=OuterRef("game"),
        status=Round.Status.RESOLVED,
        resolved_at__gt=Coalesce(OuterRef("inbox_read_at"), Value(NEVER)),
    )
    seats = list(
        Seat.objects.filter(user=user, game__status=Game.Status.RUNNING)
        .select_related("game")
        .annotate(results_unread=Exists(results))
    )
    items: list[Awaiting] = []
    by_game = {seat.game_id: seat for seat in seats}
    rounds = {
        rnd.game_id: rnd
        for rnd in Round.objects.filter(game_id__in=by_game, status=Round.Status.OPEN).order_by("number")
    }
    saved: dict[int, bool] = {}  # round id: is the seat's latest version final
    for round_id, final in (
        Submission.objects.filter(round__in=rounds.values(), seat__in=seats)
        .order_by("created_at", "id")
        .values_list("round_id", "final")
    ):
        saved[round_id] = final
    for game_id, rnd in rounds.items():
        if rnd.remaining_when_paused is None and rnd.closes_at <= now:
            continue  # closed, results coming: nothing can be asked of anyone any more
        seat = by_game[game_id]
        game = seat.game
        owed = registry.get(game.game_type).owed(game, seat, rnd)
        if owed is None:
            continue
        if owed == "decision":
            need = DECISION if rnd.id not in saved else SAVED_NOT_FINAL
        else:
            need = NOT_SUBMITTED if rnd.id not in saved else SAVED_NOT_FINAL
        if rnd.id in saved and saved[rnd.id]:
            continue  # final: nothing more is asked
        items.append(_timed(game, need, rnd.closes_at, rnd.remaining_when_paused, rnd.number))
    # A live match waiting for its players: a seat that has not said "I'm here" is asked to sit down, by the
    # start time when the hosts set one (issue 20.1). Its clock has no deadline yet: no "your turn" before.
    for seat in seats:
        if seat.game.sitting_down and seat.here_at is None:
            items.append(Awaiting(seat.game_id, seat.game.name, SIT_DOWN, seat.game.clocks_start_at))
    clocks = TurnClock.objects.filter(game_id__in=by_game).exclude(deadline=None).exclude(seat=None)
    for clock in clocks.select_related("seat"):
        seat = by_game[clock.game_id]
        game = seat.game
        # The clock names one seat; where several decide at once (Arms Race's break), each of them is asked.
        if clock.seat_id != seat.pk and seat.number not in (
            registry.get(game.game_type).deciding_seats(game) or ()
        ):
            continue
        need = YOUR_TURN if clock.kind in ("", "turn") else DECISION
        item = _timed(game, need, clock.deadline, clock.remaining_when_paused, None)
        increment = registry.get(game.game_type).reserve_increment(game)
        item.reserve = (clock.seat.reserve_seconds, increment, clock.increments_used > 0)
        items.append(item)
    picks = DeathMatchPick.objects.filter(candidate=user, status=DeathMatchPick.Status.OPEN)
    for pick in picks.select_related("main_match"):
        items.append(Awaiting(pick.main_match_id, pick.main_match.name, PICK, pick.deadline))
    items += [Awaiting(seat.game_id, seat.game.name, RESULTS, None) for seat in seats if seat.results_unread]
    by_id = {seat.pk: seat for seat in seats}
    # Offers made to the player (a trade): each game type reads its own, one query for all its seats.
    by_type: dict[str, list[Seat]] = {}
    for seat in seats:
        by_type.setdefault(seat.game.game_type, []).append(seat)
    for game_type, typed in by_type.items():
        for seat_id, count in registry.get(game_type).offers_waiting(typed).items():
            seat = by_id[seat_id]
            items.append(Awaiting(seat.game_id, seat.game.name, OFFER, None, offers=count))
    readings = ChatRead.objects.filter(seat__in=seats, unread__gt=0).select_related("other__user__profile")
    for reading in readings.order_by("seat_id", "other__number"):
        seat = by_id[reading.seat_id]
        low, high = sorted([seat.number, reading.other.number])
        chat = (low, high, shown_name(reading.other.user))
        items.append(Awaiting(seat.game_id, seat.game.name, UNREAD, None, unread=reading.unread, chat=chat))
    return sorted(items, key=lambda item: _sort_key(item, now))


def _timed(game: Game, need: str, deadline, remaining_when_paused, round_number) -> Awaiting:
    paused = None
    if game.paused_at is not None and remaining_when_paused is not None:
        paused = remaining_when_paused.total_seconds()
    return Awaiting(game.id, game.name, need, deadline, paused, round_number)
