"""Live matches: a player's move or decision, applied under the game's lock, and the clock moved on."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .. import registry
from ..errors import StateChanged
from ..models import Game, Seat
from .clocks import clock_sync
from .outcomes import outcome_apply


@transaction.atomic
def action_apply(*, seat: Seat, payload: dict, now=None) -> Game:
    """Apply one move of a live match; the rules raise RulesError with the reason if it is not legal."""
    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    if game.status != Game.Status.RUNNING:
        raise StateChanged("The game is not running.")
    if game.paused_at:
        raise StateChanged("The hosts paused the game; moves wait for the resume.")
    kind = registry.get(game.game_type)
    outcome = kind.apply_action(game, seat, payload)
    outcome_apply(game=game, outcome=outcome, now=now, actor=seat.user)
    clock_sync(game=game, now=now)
    return game


@transaction.atomic
def operation_run(*, game: Game, viewer, name: str, payload: dict, now=None) -> Game:
    """Run one of the game type's named operations (a trade, a purchase, a flip) under the game's lock."""
    from ..kit import RulesError

    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.RUNNING:
        raise StateChanged("The game is not running.")
    handler = registry.get(game.game_type).operations().get(name)
    if handler is None:
        raise RulesError(f"This game has no '{name}'.", field="operation")
    if viewer.seat is not None:
        viewer.seat.game = game
    outcome = handler(game, viewer, payload)
    current = game.rounds.filter(status="open").order_by("-number").values_list("number", flat=True).first()
    outcome_apply(game=game, outcome=outcome, round_number=current, now=now, actor=viewer.user)
    if registry.get(game.game_type).flow == "turns":
        # An operation may settle what a live match was waiting for: move its clock on too.
        clock_sync(game=game, now=now)
    return game
