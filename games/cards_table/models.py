"""What Cards on the Table stores beside the rules state: the hosts' three boards and their heat verdicts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.platform.models import Game, Seat

from .hidden import boards_from_codes
from .rules import HEAT_RULES, validate_boards

UNSTARTED = (Game.Status.DRAFT, Game.Status.SEEDING)
HEAT_RULE_CHOICES = [("", "Drawn from the game's seed")] + [(name, name) for name in sorted(HEAT_RULES)]


class BoardSet(models.Model):
    """The hidden boards of one game: three 5x5 boards (one per round), the heat rule, hand-set indicators."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="cards_table_boards")
    # Three lists of 25 codes, row by row: "2R" is a red 2 ("" while the host has not typed it).
    codes = models.JSONField(default=list, blank=True)
    heat_rule = models.CharField(max_length=20, blank=True, choices=HEAT_RULE_CHOICES)
    # [{"round", "row", "col", "top", "right", "bottom", "left", "background"}]: the host's hand-set cards.
    heat_overrides = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "board set"

    def __str__(self) -> str:
        return f"Boards of {self.game}"

    @property
    def locked(self) -> bool:
        """Once the game has started the boards are the game itself: nobody may change them."""
        return self.game.status not in UNSTARTED

    def boards(self):
        return boards_from_codes(self.codes)

    def violations(self) -> list[dict]:
        """validate_boards' findings as dicts (rule, message, cells); one entry when cards are missing."""
        boards = self.boards()
        if boards is None:
            return [
                {"rule": "missing", "message": "Every card of the three boards needs a code.", "cells": []}
            ]
        diagonal = bool((self.game.settings.get("rules") or {}).get("diagonal_adjacency", False))
        return [v.to_dict() for v in validate_boards(boards, diagonal)]

    def summary(self) -> str:
        """What keeps this set a draft, in one line ("74 cards missing", "adjacent same number broken in
        Round 2, row 3 (and 1 more)"); "" once every card is there and every rule holds."""
        codes = self.codes if isinstance(self.codes, list) else []
        missing = sum(1 for board in codes for code in board if not code) + 25 * max(0, 3 - len(codes))
        if missing:
            return f"{missing} card{'s' * (missing != 1)} missing"
        found = self.violations()
        if not found:
            return ""
        first = found[0]
        words = f"{first['rule'].replace('_', ' ')} broken"
        if first["cells"]:
            rnd, row, _ = first["cells"][0]
            words += f" in Round {rnd}, row {row}" if rnd else f" in row {row} of every round"
        return words + (f" (and {len(found) - 1} more)" if len(found) > 1 else "")


class HeatVerdict(models.Model):
    """A host's verdict on one player's heat indicator guess, for the exact text the player saved."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards_table_verdicts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveSmallIntegerField()
    text = models.TextField(help_text="The guess as it was when judged; a changed guess needs a new verdict.")
    correct = models.BooleanField()
    judged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    judged_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "round_number"], name="cards_table_one_verdict")
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {'right' if self.correct else 'wrong'} (Round {self.round_number})"
