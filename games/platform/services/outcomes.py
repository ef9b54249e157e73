"""A rules outcome applied to its game: the new state, its events, and the end when the rules say so."""

from __future__ import annotations

from django.utils import timezone

from ..kit import Announce, Ledger, Reveal
from ..models import Game, TurnClock
from .events import events_write
from .season import on_game_finished


def outcome_apply(*, game: Game, outcome, round_number: int | None = None, actor=None, now=None) -> None:
    """Store the new rules state and write its events; finish the game when the rules say so.

    Called inside the caller's transaction with the game row locked.
    """
    before, game.state = game.state, outcome.state
    game.save(update_fields=["state"])
    events_write(
        game=game,
        events=outcome.events,
        round_number=round_number,
        actor=actor,
        public=not _private(outcome, before),
    )
    if outcome.finished:
        game_finish(game=game, now=now)


def _private(outcome, before: dict) -> bool:
    """Whether an outcome concerns its seats and the hosts only: reveals (and ledger moves) with the rules
    state as it was, as a trade offer, a decline or a withdrawal is. Anything else may show to spectators."""
    return (
        not outcome.finished
        and outcome.state == before
        and any(isinstance(e, Reveal) for e in outcome.events)
        and all(isinstance(e, Reveal | Ledger) for e in outcome.events)
    )


def game_finish(*, game: Game, now=None) -> None:
    now = now or timezone.now()
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])
    TurnClock.objects.filter(game=game).update(seat=None, deadline=None, kind="")
    events_write(game=game, events=[Announce(f"{game.name} is over. Everything hidden is now revealed.")])
    on_game_finished(game=game, now=now)
