"""What the Horse Race stores beside the rules state: the hosts' movement table and the trade offers."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from games.platform.models import Game, Seat, ref_field

from .rules import HORSES, ROUNDS, movement_table_problems

HORSE_CHOICES = [(h, h) for h in HORSES]


class MovementTable(models.Model):
    """The hidden movement table of one game: each horse's movement value (1-3) for Rounds 1-10."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="horse_race_movement")
    # {"A": [10 values], ..., "I": [...]}: what the hosts typed or generated, checked before the start.
    grid = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "movement table"

    def __str__(self) -> str:
        return f"Movement table of {self.game}"

    @property
    def locked(self) -> bool:
        """Once the game has started the table is the race itself: nobody may change it."""
        return self.game.status not in (Game.Status.DRAFT, Game.Status.SEEDING)

    def problems(self) -> list[str]:
        return movement_table_problems(self.grid)

    def summary(self) -> str:
        """What keeps this table a draft, in one line ("23 cells missing"); "" once it is complete."""
        grid = self.grid if isinstance(self.grid, dict) else {}
        missing = sum(
            1
            for horse in HORSES
            for r in range(ROUNDS)
            if not isinstance(grid.get(horse), list) or r >= len(grid[horse]) or grid[horse][r] is None
        )
        if missing:
            return f"{missing} cell{'s' * (missing != 1)} missing"
        problems = self.problems()
        if problems:
            return problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
        return ""


class TradeOffer(models.Model):
    """One card for one card, offered by one player to another; private to the two of them and the hosts."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"
        EXPIRED = "expired", "Expired (the race ended)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="horse_race_offers")
    offered_by = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    offered_to = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    give = models.CharField(max_length=1, choices=HORSE_CHOICES, help_text="The card the offerer gives.")
    want = models.CharField(max_length=1, choices=HORSE_CHOICES, help_text="The card the offerer asks for.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    round_number = models.PositiveSmallIntegerField(help_text="The round that was open when it was offered.")
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    ref = ref_field()  # how the players name the offer (accept, decline, withdraw): never its id

    class Meta:
        ordering = ["game", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(offered_by=F("offered_to")), name="horse_race_trade_two_seats"
            ),
            models.CheckConstraint(
                condition=Q(give__in=list(HORSES), want__in=list(HORSES)), name="horse_race_trade_horse_cards"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.offered_by} offers {self.give} to {self.offered_to} for {self.want} ({self.status})"
