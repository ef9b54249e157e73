"""Turn clocks of live matches: whose move is pending and when its time runs out, from stored timestamps."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from genius.clock import site_now

from .. import enqueue, registry
from ..models import Game, Seat, TurnClock
from .events import bump_version
from .locks import one_game_at_a_time
from .outcomes import outcome_apply


def clock_sync(*, game: Game, now=None, bump: bool = False) -> TurnClock:
    """Point the clock at the game type's pending move, keeping the time already given for the same one.

    A new decision gets its own allowance; the same seat's next interaction in one turn adds its seconds to
    what is left; a seat that comes back after another's decision gets back the time it had banked.
    `bump`: move the game's version when the clock moves, for a caller whose own change did not (a private
    operation): whom the game waits on, and until when, every viewer's poll must bring.
    """
    now = now or site_now()
    clock, _ = TurnClock.objects.select_for_update().get_or_create(game=game)
    pending = registry.get(game.game_type).pending(game) if game.status == Game.Status.RUNNING else None
    if pending is None:
        clock.seat, clock.kind, clock.started_at, clock.deadline = None, "", None, None
        clock.remaining_when_paused = None
        clock.generation += 1
        clock.save()
        if bump:
            bump_version(game)
        return clock
    seat = Seat.objects.get(game=game, number=pending.seat_number)
    if (clock.kind, clock.seat_id, clock.turn_key) == (pending.kind, seat.pk, pending.turn_key):
        return clock  # nothing moved on: the same decision keeps its deadline
    banked = dict(clock_banked(clock))
    if pending.turn_key != clock.turn_key or not pending.turn_key:
        # A new turn: a fresh allowance, nothing banked from the last one.
        banked = {}
        deadline = now + timedelta(seconds=pending.seconds)
        clock.increments_used = 0
        clock.started_at = now
    elif clock.seat_id == seat.pk and clock.deadline:
        # The same player's next interaction in the same turn adds its extra time to what is left.
        deadline = clock.deadline + timedelta(seconds=pending.seconds)
    else:
        # The move passes to the other player within the turn: bank what the one leaving had left.
        if clock.seat_id and clock.deadline:
            banked[str(clock_seat_number(clock))] = max((clock.deadline - now).total_seconds(), 0)
        deadline = now + timedelta(seconds=pending.seconds + banked.pop(str(seat.number), 0))
    clock.turn_key = pending.turn_key
    waiting = game.clocks_started_at is None  # the players are sitting down: the clock stays stopped
    if clock.seat_id != seat.pk and not waiting:
        enqueue.notify_your_turn(game.pk, seat.user_id, pending.kind, clock.generation + 1, pending.turn_key)
    clock.banked = banked
    clock.seat, clock.kind, clock.deadline = seat, pending.kind, deadline
    if game.paused_at or waiting:
        clock.remaining_when_paused = deadline - now
    if waiting:
        # No deadline: no sweep finds it, and the first allowance waits whole (services/sitting.py).
        clock.deadline = None
    clock.generation += 1
    clock.save()
    if bump:
        bump_version(game)
    return clock


def clock_banked(clock: TurnClock) -> dict:
    return clock.banked or {}


def clock_seat_number(clock: TurnClock) -> int | None:
    return clock.seat.number if clock.seat_id else None


def seconds_left(clock: TurnClock, now=None) -> float | None:
    if clock.remaining_when_paused is not None:
        return clock.remaining_when_paused.total_seconds()
    if clock.deadline is None:
        return None
    return max((clock.deadline - (now or site_now())).total_seconds(), 0.0)


@dataclass(frozen=True)
class TimedOut:
    """A clock that ran out before `now`: whose it was and when its time (and reserve) was gone."""

    seat: Seat
    at: datetime


def clock_settle(*, game: Game, now, bump: bool = True, warn: bool = False) -> TimedOut | None:
    """Charge the clock for the time that passed up to `now`, as a sweep running on time would have.

    Called with the game locked: by the sweep, and by every move before it is applied, so a late move is
    charged at the moment it arrives even while no worker runs. Each reserve increment the wait used up is
    drawn; once the reserve is gone, the game decides what the time-out does (Middle Marathon: a loss; Arms
    Race: the rulings' default). Returns that time-out, after which the arriving move is not made, or None.
    A step drawn moves the game's version; `bump=False` for a caller whose own change moves it in the same
    transaction anyway (a move: its outcome is public). `warn` (the sweep's): the first step drawn in a turn
    owes the player a warning (tasks.warn_reserve); a move arriving late needs none, it is being made.
    """
    clock = TurnClock.objects.select_for_update(of=("self",)).select_related("seat").filter(game=game).first()
    if (
        clock is None
        or clock.deadline is None
        or clock.seat_id is None
        or clock.remaining_when_paused is not None
        or game.paused_at
        or game.status != Game.Status.RUNNING
    ):
        return None
    game_type = registry.get(game.game_type)
    seat = clock.seat
    increment = game_type.reserve_increment(game)
    on_allowance = clock.increments_used == 0
    drawn_total = 0.0
    while clock.deadline <= now:
        drawn = min(increment, seat.reserve_seconds - drawn_total)
        if drawn <= 0:
            break
        drawn_total += drawn
        clock.deadline += timedelta(seconds=drawn)
        clock.increments_used += 1
    if drawn_total:
        seat.reserve_seconds -= drawn_total
        Seat.objects.filter(pk=seat.pk).update(reserve_seconds=seat.reserve_seconds)
        clock.save(update_fields=["deadline", "increments_used"])
    if clock.deadline > now:
        if warn and drawn_total and on_allowance:
            # The allowance ran out and the reserve is being drawn: one warning, unless they watch the page.
            enqueue.warn_reserve(game.pk, seat.user_id, clock.generation, clock.turn_key)
        if drawn_total and bump:
            # Every viewer's poll must bring the drawn step (the reserve shown, the new deadline): the draw
            # is the clock moving, as public as a move. A time-out moves the version by its outcome.
            bump_version(game)
        return None
    ran_out = TimedOut(seat=seat, at=clock.deadline)
    outcome = game_type.on_clock_expired(game, seat.number)
    outcome_apply(game=game, outcome=outcome, now=now)
    clock_sync(game=game, now=now)
    return ran_out


@one_game_at_a_time
def clock_expire(*, game_id: int, generation: int, now=None) -> bool:
    """The sweep found this clock out of time: draw the reserve increments it used, or let the game decide.

    Claimed under the game's lock and checked against the clock's generation, so running it twice for the
    same expiry does nothing the second time.
    """
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game_id)
    clock = TurnClock.objects.select_for_update(of=("self",)).get(game=game)
    if (
        clock.generation != generation
        or clock.deadline is None
        or clock.deadline > now
        or game.paused_at
        or game.status != Game.Status.RUNNING
    ):
        return False
    clock_settle(game=game, now=now, warn=True)
    return True
