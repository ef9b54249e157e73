"""Live matches: a player's move or decision, applied under the game's lock, and the clock moved on.

Before a move is applied, the clock is charged for the time that passed up to the moment the move is taken
(inside its transaction, with the game locked): a late move draws the reserve increments its wait used, and a
move that arrives after the time and the reserve ran out is not made; the time-out is applied instead. So a
clock holds at the moment a move arrives, whether or not a worker runs the sweep. A game another
transaction holds longer than GENIUS_LOCK_WAIT_SECONDS makes the move give up, Busy: "try again".
"""

from __future__ import annotations

from genius.clock import site_now

from .. import registry
from ..errors import StateChanged
from ..kit import Reveal
from ..models import Game, Seat
from ..people import shown_name
from ..zones import local_text
from .clocks import TimedOut, clock_settle, clock_sync
from .locks import one_game_at_a_time
from .outcomes import outcome_apply
from .sitting import not_started_refusal


def action_apply(*, seat: Seat, payload: dict, now=None) -> Game:
    """Apply one move of a live match; the rules raise RulesError with the reason if it is not legal.

    A move that arrives after its player's time ran out is refused (StateChanged) once the time-out is
    stored: that commit stands, the move is not made.
    """
    game, ran_out = _move(seat=seat, payload=payload, now=now)
    if ran_out is not None:
        raise StateChanged(too_late(ran_out, seat))
    return game


@one_game_at_a_time
def _move(*, seat: Seat, payload: dict, now=None) -> tuple[Game, TimedOut | None]:
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    if game.status != Game.Status.RUNNING:
        raise StateChanged("The game is not running.")
    if game.paused_at:
        raise StateChanged("The hosts paused the game; moves wait for the resume.")
    if game.clocks_started_at is None:
        raise not_started_refusal(game)
    now = now or site_now()  # taken with the game locked: the moment the move arrives
    # A step drawn here is shown with the move (its outcome moves the version), or not at all: a refused move
    # rolls the draw back too, and the sweep draws it.
    ran_out = clock_settle(game=game, now=now, bump=False)
    if ran_out is not None:
        return game, ran_out
    kind = registry.get(game.game_type)
    outcome = kind.apply_action(game, seat, payload)
    outcome_apply(game=game, outcome=outcome, now=now, actor=seat.user)
    clock_sync(game=game, now=now)
    return game, None


def too_late(ran_out: TimedOut, mover: Seat) -> str:
    """The 409 of a move that came after a clock ran out, naming whose clock and when."""
    whose = "Your time" if ran_out.seat.pk == mover.pk else f"{shown_name(ran_out.seat.user)}'s time"
    return (
        f"{whose} ran out at {local_text(ran_out.at)}, before this move arrived; "
        "the time-out was applied and this move was not made."
    )


def operation_run(
    *, game: Game, viewer, name: str, payload: dict, now=None, told: list | None = None
) -> Game:
    """Run one of the game type's named operations (a trade, a purchase, a flip) under the game's lock.

    `told`, when given, receives what the operation told the acting player (its inbox lines), for the page
    to confirm the action where they are looking."""
    game, ran_out = _operation(game=game, viewer=viewer, name=name, payload=payload, now=now, told=told)
    if ran_out is not None:
        whose = shown_name(ran_out.seat.user)
        raise StateChanged(
            f"{whose}'s time ran out at {local_text(ran_out.at)}; the time-out was applied "
            "and this was not done."
        )
    return game


@one_game_at_a_time
def _operation(
    *, game: Game, viewer, name: str, payload: dict, now=None, told: list | None = None
) -> tuple[Game, TimedOut | None]:
    from ..kit import RulesError

    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.RUNNING:
        raise StateChanged("The game is not running.")
    now = now or site_now()
    turns = registry.get(game.game_type).flow == "turns"
    if turns and game.clocks_started_at is None:
        raise not_started_refusal(game)
    if turns:
        ran_out = clock_settle(game=game, now=now)
        if ran_out is not None:
            return game, ran_out
    handler = registry.get(game.game_type).operations().get(name)
    if handler is None:
        raise RulesError(f"This game has no '{name}'.", field="operation")
    if viewer.seat is not None:
        viewer.seat.game = game
    outcome = handler(game, viewer, payload)
    if told is not None and viewer.seat is not None:
        told.extend(e.text for e in outcome.events if isinstance(e, Reveal) and e.seat == viewer.seat.number)
    current = game.rounds.filter(status="open").order_by("-number").values_list("number", flat=True).first()
    public = outcome_apply(
        game=game, outcome=outcome, round_number=current, now=now, actor=viewer.user, operation=True
    )
    if turns:
        # An operation may settle what a live match was waiting for: move its clock on too. A clock that
        # moved is public even when the operation was not (every viewer's poll shows whom it waits on).
        clock_sync(game=game, now=now, bump=not public)
    return game, None
