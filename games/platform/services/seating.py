"""Who may take a seat in a game: one rule for seating a player before the start and for the hosts giving an
absent player's seat to another at a live match (services.sitting.seat_replace)."""

from __future__ import annotations

from ..kit import RulesError
from ..models import Game, SeasonPlayer


def seat_refusal_check(game: Game, user, *, field: str) -> None:
    """Raise RulesError (on `field`) when `user` may not sit at `game`: they host it, sit there already, or
    were eliminated from its season."""
    if game.hosts.filter(pk=user.pk).exists():
        raise RulesError(f"{user} hosts this game and cannot also play it.", field=field)
    seated = game.seats.filter(user=user).values_list("number", flat=True).first()
    if seated is not None:
        raise RulesError(f"{user} is already seated in this game (seat {seated + 1}).", field=field)
    if SeasonPlayer.objects.filter(season=game.season, user=user, eliminated=True).exists():
        raise RulesError(f"{user} has been eliminated from {game.season.name}.", field=field)
