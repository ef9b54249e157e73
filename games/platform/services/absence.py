"""Absence during a match (issue 29.5): the hosts give the seat of a player who left to another player, or
excuse a seat's missed round.

The rules know players by seat number only, so the seat is the game's: whoever takes it takes its hand, its
inbox, its pair chats, its trade offers and the submissions it saved for the open round (they are the
seat's, changeable until the close like any other), and its balances in this game: each game ledger account
of the leaver here (chips, cards, points) is handed over by a posting out of theirs and one into the
newcomer's, so each person's ledger history stays their own. The season's ledger is never touched: the leaver
keeps their garnets, Tokens of Life and history; the newcomer joins the season (`season_join`, its starting
balances if they are new to it) and inherits none of it.

A live match gives an empty seat before its clocks start (`sitting.seat_replace`, the hosts' choice
"is replaced"); a running round-based Main Match gives a seat at any time (`leaver_replace`). `seat_replace`
picks the one the game's flow calls for; `seating.seat_give` is what both do to the seat.

An excused round (`round_excuse`) is kept as an ExcusedRound row (the console shows the seat "excused", the
hosts' reminder skips it); what it means is the game's (`GameType.round_excuse`, each reading in
docs/rulings/<game>.md): Cards on the Table asks one action fewer of the seat, the horse race records it only.
"""

from __future__ import annotations

from genius.clock import site_now

from .. import registry
from ..errors import StateChanged
from ..kit import Announce, RulesError
from ..models import ExcusedRound, Game, Seat
from ..people import label
from ..wording import user_ref
from . import sitting
from .audit import audit
from .events import events_write
from .hosts import require_host
from .locks import one_game_at_a_time
from .seating import newcomer, seat_give, seat_to_give


def seat_replace(*, game: Game, seat_number: int, username: str, actor, now=None) -> Seat:
    """A host gives seat `seat_number` to the player `username`: at a live match sitting down, an absent
    player's seat; at a running Main Match of rounds, the seat of a player who left."""
    if registry.get(game.game_type).flow == "turns":
        given = sitting.seat_replace
    else:
        given = leaver_replace
    return given(game=game, seat_number=seat_number, username=username, actor=actor, now=now)


@one_game_at_a_time
def leaver_replace(*, game: Game, seat_number: int, username: str, actor, now=None) -> Seat:
    """A host gives the seat of a player who left a running Main Match to another player, announced to all
    ("ann's seat is now played by zoe (ann left the game)") and audit-logged."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    require_host(game, actor)
    if game.status != Game.Status.RUNNING:
        raise StateChanged(
            "A seat is given to another player only while the game runs: before the start, change the seats "
            "below and save."
            if game.status in (Game.Status.DRAFT, Game.Status.SEEDING)
            else "The game is over: its seats stay as they were."
        )
    seat = seat_to_give(game, seat_number)
    user = newcomer(username)
    leaver, handed = seat_give(game=game, seat=seat, user=user, actor=actor)
    events_write(
        game=game,
        events=[
            Announce(
                f"{user_ref(leaver)}'s seat is now played by {user_ref(user)} "
                f"({user_ref(leaver)} left the game)."
            )
        ],
        actor=actor,
    )
    audit(
        action="seat_replace",
        actor=actor,
        game=game,
        seat=seat_number,
        left=leaver.username,
        by=user.username,
        handed=handed,
        at=now.isoformat(),
    )
    return seat


@one_game_at_a_time
def round_excuse(*, game: Game, seat_number: int, round_number: int, actor, now=None) -> str:
    """A host excuses seat `seat_number`'s missed round `round_number` of a running Main Match: the game
    applies what that means in its rules (`GameType.round_excuse`), the excuse is kept, announced ("The hosts
    excused ann's missed Round 2.") and audit-logged. Answers what it means, in the game's words."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    require_host(game, actor)
    kind = registry.get(game.game_type)
    if kind.flow != "rounds":
        raise RulesError("A live match has no rounds to excuse.", field="round")
    if game.status != Game.Status.RUNNING:
        raise StateChanged(
            "The game is over: its rounds are counted."
            if game.status == Game.Status.FINISHED
            else "The game has not started: it has no round to excuse yet."
        )
    seat = Seat.objects.select_related("user").filter(game=game, number=seat_number).first()
    if seat is None:
        raise RulesError(f"There is no seat {seat_number + 1} in this game.", field="seat")
    rnd = game.rounds.filter(number=round_number).first()
    if rnd is None:
        raise RulesError(f"Round {round_number} has not opened yet.", field="round")
    if ExcusedRound.objects.filter(seat=seat, round=rnd).exists():
        raise RulesError(f"{label(seat.user)}'s Round {round_number} is excused already.", field="round")
    before = game.state
    meaning = kind.round_excuse(game, seat_number, round_number)
    if game.state != before:
        game.save(update_fields=["state"])
    ExcusedRound.objects.create(seat=seat, round=rnd, by=actor, created_at=now)
    events_write(
        game=game,
        events=[Announce(f"The hosts excused {user_ref(seat.user)}'s missed Round {round_number}.")],
        actor=actor,
    )
    audit(
        action="round_excuse",
        actor=actor,
        game=game,
        seat=seat_number,
        player=seat.user.username,
        round=round_number,
        meaning=meaning,
    )
    return meaning


def excused_seats(rnd) -> set[int]:
    """The seat numbers whose round `rnd` the hosts excused (the console shows them excused, not missing)."""
    if rnd is None:
        return set()
    return set(ExcusedRound.objects.filter(round=rnd).values_list("seat__number", flat=True))
