"""A rules outcome applied to its game: the new state, its events, and the end when the rules say so."""

from __future__ import annotations

from genius.clock import site_now

from .. import registry
from ..kit import Announce
from ..models import Game, TurnClock
from ..wording import typed
from .events import events_write
from .season import on_game_finished


def outcome_apply(
    *, game: Game, outcome, round_number: int | None = None, actor=None, now=None, operation: bool = False
) -> None:
    """Store the new rules state and write its events; finish the game when the rules say so.

    Called inside the caller's transaction with the game row locked. `operation`: the outcome of a named
    operation (a trade, a purchase, a look, a flip, a verdict), which may be private; a round's resolution,
    a live move and a time-out always show (the round or the clock moved on).
    """
    before, game.state = game.state, outcome.state
    game.save(update_fields=["state"])
    public = not (operation and _private(game, outcome, before))
    events_write(game=game, events=outcome.events, round_number=round_number, actor=actor, public=public)
    if outcome.finished:
        game_finish(game=game, now=now)
    return public


def _private(game: Game, outcome, before: dict) -> bool:
    """Whether an operation's outcome concerns its seats and the hosts only (issue 17.7): it announces
    nothing, does not end the game, and what spectators see of the rules state (`GameType.public_state`) is
    as it was: a trade offered, declined, withdrawn or accepted, a card bought, a look, a flip, a verdict.
    Spectators' version then stays, so they cannot count such things by it."""
    if outcome.finished or any(isinstance(e, Announce) for e in outcome.events):
        return False
    kind = registry.get(game.game_type)
    return outcome.state == before or kind.public_state(outcome.state) == kind.public_state(before)


def game_finish(*, game: Game, now=None) -> None:
    now = now or site_now()
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])
    TurnClock.objects.filter(game=game).update(seat=None, deadline=None, kind="")
    over = Announce(f"{typed(game.name)} is over. Everything hidden is now revealed.")
    events_write(game=game, events=[over])
    on_game_finished(game=game, now=now)
