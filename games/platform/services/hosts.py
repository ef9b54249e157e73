"""Who may act as a host of a game: its hosts, and superusers."""

from __future__ import annotations

from ..errors import NotAllowed
from ..models import Game


def is_host(game: Game, user) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or game.hosts.filter(pk=user.pk).exists()


def require_host(game: Game, user) -> None:
    if not is_host(game, user):
        raise NotAllowed("Only a host of this game may do that.")
