"""Sitting down at a live match (issue 20.1): its clocks stay stopped until the players are at the table.

A live match opens with its turn clock frozen at its first allowance (`clock_sync` keeps it as
`remaining_when_paused` with no deadline while `game.clocks_started_at` is empty). Each seated player says
"I'm here"; the clocks start in the transaction of the last one, when the hosts chose "when all are here",
or at the start time they set (`start_time`, swept like a deadline: `start_time_came`). Whoever is absent
then loses (the game type's `on_absent` names them, so the season's flow eliminates a Death Match loser), or
waits for the hosts to give the seat to another player (`seat_replace`), as the hosts chose.
"""

from __future__ import annotations

from genius.clock import site_now

from .. import enqueue, registry
from ..errors import StateChanged
from ..kit import Announce, RulesError
from ..models import Game, Seat, TurnClock
from ..setting import (
    ABSENT_AT_START,
    ABSENT_REPLACED,
    AT_START_TIME,
    CLOCKS_START,
    START_TIME,
    WHEN_ALL_HERE,
    sitting,
)
from ..wording import user_ref
from ..zones import local_text
from .audit import audit
from .events import bump_version, events_write
from .hosts import require_host
from .locks import one_game_at_a_time
from .outcomes import outcome_apply
from .seating import newcomer, seat_give, seat_to_give


def start_time(game: Game):
    """The start time the hosts set (an aware datetime), or None."""
    return sitting(game.settings, START_TIME)


def start_time_passed(game: Game, now) -> bool:
    when = start_time(game)
    return when is not None and when <= now


def waiting_words(game: Game, seats: list[Seat], now=None) -> str:
    """What a live match that has not started waits for, in the players' words (the page and the 409)."""
    now = now or site_now()
    here = sum(1 for seat in seats if seat.here_at is not None)
    if start_time_passed(game, now) and sitting(game.settings, ABSENT_AT_START) == ABSENT_REPLACED:
        return (
            "The match waits for the hosts to give the empty seats to other players "
            f"({here} of {len(seats)} here)."
        )
    if sitting(game.settings, CLOCKS_START) == AT_START_TIME:
        return f"The match starts at {local_text(start_time(game))} ({here} of {len(seats)} here so far)."
    return f"The match starts when everyone is here ({here} of {len(seats)} so far)."


def not_started_refusal(game: Game) -> StateChanged:
    """The refusal of a move (or a game's operation) before the clocks start."""
    return StateChanged(waiting_words(game, list(Seat.objects.filter(game=game).order_by("number"))))


@one_game_at_a_time
def here_say(*, seat: Seat, now=None) -> Game:
    """The player of `seat` says "I'm here"; the last of them starts the clocks (when the hosts chose so).

    Saying it again, or once the clocks run, changes nothing."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    if game.status != Game.Status.RUNNING:
        raise StateChanged(
            "The match has not started yet: say you are here once the hosts start it."
            if game.status in (Game.Status.DRAFT, Game.Status.SEEDING)
            else "The match is over."
        )
    if game.clocks_started_at is not None:
        return game
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    if seat.here_at is None:
        seat.here_at = now
        seat.save(update_fields=["here_at"])
        bump_version(game)  # who is here shows on every page
        clocks_start_if_ready(game=game, now=now)
    return game


def clocks_start_if_ready(*, game: Game, now) -> bool:
    """Start the clocks when every seat is here, and the hosts' choice lets them start now."""
    if Seat.objects.filter(game=game, here_at__isnull=True).exists():
        return False
    if sitting(game.settings, CLOCKS_START) != WHEN_ALL_HERE and not start_time_passed(game, now):
        return False  # "at the start time": the sweep starts them then
    clocks_start(game=game, now=now, why="Everyone is here: the clocks start.")
    return True


def clocks_start(*, game: Game, now, why: str) -> None:
    """Start the match's clocks: the frozen first allowance runs from `now` (a paused game keeps it frozen
    until the resume). In the caller's transaction, with the game locked; the announcement moves the
    version, so every poll shows the running clock."""
    game.clocks_started_at = now
    game.clocks_start_at = None
    game.save(update_fields=["clocks_started_at", "clocks_start_at"])
    clock = TurnClock.objects.select_for_update(of=("self",)).select_related("seat").filter(game=game).first()
    if clock is not None and clock.seat_id is not None and clock.remaining_when_paused is not None:
        if not game.paused_at:
            clock.deadline = now + clock.remaining_when_paused
            clock.remaining_when_paused = None
        clock.started_at = now
        clock.generation += 1
        clock.save()
        enqueue.notify_your_turn(game.pk, clock.seat.user_id, clock.kind, clock.generation, clock.turn_key)
    events_write(game=game, events=[Announce(why)])


@one_game_at_a_time
def start_time_came(*, game_id: int, now=None) -> bool:
    """The sweep found a live match whose start time came: start its clocks, and deal with who is absent.

    Claimed under the game's lock and checked again (still waiting, the time still due, not paused), so a
    sweep run twice acts once: the start time is cleared as it is acted on."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game_id)
    if (
        game.status != Game.Status.RUNNING
        or game.clocks_started_at is not None
        or game.clocks_start_at is None
        or game.clocks_start_at > now
        or game.paused_at
    ):
        return False
    game.clocks_start_at = None
    game.save(update_fields=["clocks_start_at"])
    absent = list(
        Seat.objects.select_for_update()
        .select_related("user")
        .filter(game=game, here_at__isnull=True)
        .order_by("number")
    )
    if not absent:
        clocks_start(game=game, now=now, why="The start time came and everyone is here: the clocks start.")
        return True
    names = ", ".join(user_ref(seat.user) for seat in absent)
    if sitting(game.settings, ABSENT_AT_START) == ABSENT_REPLACED:
        events_write(
            game=game,
            events=[
                Announce(
                    f"The start time came and {names} {'is' if len(absent) == 1 else 'are'} not here: the "
                    "match waits for the hosts to give the empty seats to other players."
                )
            ],
        )
        audit(action="absent_at_start", game=game, absent=[s.number for s in absent], then="replaced")
        return True
    events_write(
        game=game,
        events=[Announce(f"The start time came and {names} {'is' if len(absent) == 1 else 'are'} not here.")],
    )
    audit(action="absent_at_start", game=game, absent=[s.number for s in absent], then="loses")
    outcome = registry.get(game.game_type).on_absent(game, [seat.number for seat in absent])
    outcome_apply(game=game, outcome=outcome, now=now)
    if game.status == Game.Status.RUNNING:
        clocks_start(game=game, now=now, why="The clocks start.")
    return True


@one_game_at_a_time
def seat_replace(*, game: Game, seat_number: int, username: str, actor, now=None) -> Seat:
    """A host gives an absent player's seat to another player, who takes it present ("I'm here" said for
    them: the hosts name someone at the table). The absent player leaves the match with no result."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    require_host(game, actor)
    if not game.sitting_down:
        raise StateChanged("A seat can be given to another player only before the clocks start.")
    if sitting(game.settings, ABSENT_AT_START) != ABSENT_REPLACED:
        raise RulesError(
            'This match was set up so that an absent player loses; "absent_at_start" is not "is replaced".',
            field="seat",
        )
    seat = seat_to_give(game, seat_number)
    if seat.here_at is not None:
        raise RulesError(
            f"Seat {seat_number + 1}'s player is here: only an empty seat is given.", field="seat"
        )
    user = newcomer(username)
    absent, _ = seat_give(game=game, seat=seat, user=user, actor=actor)
    seat.here_at = now
    seat.save(update_fields=["here_at"])
    events_write(
        game=game,
        events=[Announce(f"The hosts gave {user_ref(absent)}'s seat to {user_ref(user)}, who is here.")],
        actor=actor,
    )
    audit(
        action="seat_replace", actor=actor, game=game, seat=seat_number, absent=absent.username, by=username
    )
    clocks_start_if_ready(game=game, now=now)
    return seat


def start_time_set(game: Game) -> None:
    """Keep the sweep's start time in step with the game's settings while its players sit down (no save)."""
    if game.sitting_down and registry.get(game.game_type).flow == "turns":
        game.clocks_start_at = start_time(game)
