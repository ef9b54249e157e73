"""Arms Race's hidden host data: a deal given by hand, seven hands of nine weapons, locked at the start."""

from __future__ import annotations

from django.db import models

from games.platform.models import Game


class Deal(models.Model):
    """The hands a host dealt by hand; without one, the deal is shuffled from the game's seed."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arms_race_deal")
    # One list of weapon names per seat, in seat order (e.g. [["dagger", "bat", ...], ...]).
    hands = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Deal of {self.game}"

    @property
    def locked(self) -> bool:
        """Once the game has started the deal is in play and may not change."""
        return self.game.status not in (Game.Status.DRAFT, Game.Status.SEEDING)
