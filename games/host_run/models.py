"""What a host-run game stores beside its rules state: the hosts' set-up (edited before the start) and their
resolution of each round (a draft until sent)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.platform.models import Game, Seat

WINDOW_UNITS = [("hours", "hours"), ("minutes", "minutes")]
OPENS = [("game", "as the game says"), ("auto", "when the last resolves"), ("by_hand", "by a host's hand")]
KINDS = [
    ("short_text", "short text"),
    ("long_text", "long text"),
    ("number", "number"),
    ("choice", "one choice"),
    ("choices", "several choices"),
    ("player", "a player"),
    ("yes_no", "yes or no"),
]


class Design(models.Model):
    """One host-run game's set-up: the rules text, the rounds and their windows, the board and the notes."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="host_run_design")
    rules = models.TextField(blank=True, help_text="The game's rules, in Markdown (raw HTML is not shown).")
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many rounds; blank: open-ended (the hosts end the game)."
    )
    window = models.PositiveIntegerField(default=24, help_text="How long each round stays open.")
    window_unit = models.CharField(max_length=7, choices=WINDOW_UNITS, default="hours")
    opened_by_hand = models.BooleanField(
        default=False, help_text='Rounds after the first open when a host presses "Open Round N".'
    )
    scoreboard_public = models.BooleanField(
        default=True, help_text="Off: points are hidden from players and spectators until the end."
    )
    board = models.TextField(
        blank=True, help_text="The public board at the start (Markdown; tables allowed)."
    )
    notes = models.TextField(
        blank=True, help_text="The hosts' hidden notes: committed at the start, shown at the end."
    )

    class Meta:
        verbose_name = "host-run design"

    def __str__(self) -> str:
        return f"Design of {self.game}"

    @property
    def locked(self) -> bool:
        """Once the game has started the design is copied into it: nobody changes it (the admin shows it)."""
        return self.game.status not in (Game.Status.DRAFT, Game.Status.SEEDING)


class RoundPlan(models.Model):
    """A round that differs from the game's defaults: its title, window, or how it opens."""

    design = models.ForeignKey(Design, on_delete=models.CASCADE, related_name="round_plans")
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=80, blank=True)
    window = models.PositiveIntegerField(null=True, blank=True, help_text="Blank: the game's window.")
    window_unit = models.CharField(max_length=7, choices=WINDOW_UNITS, default="hours")
    opens = models.CharField(max_length=9, choices=OPENS, default="game")

    class Meta:
        ordering = ["design", "number"]
        constraints = [
            models.UniqueConstraint(fields=["design", "number"], name="host_run_one_plan_per_round")
        ]

    def __str__(self) -> str:
        return f"Round {self.number}" + (f": {self.title}" if self.title else "")


class Field(models.Model):
    """One question of a round form: the game's form (round_number blank) or round N's own form."""

    design = models.ForeignKey(Design, on_delete=models.CASCADE, related_name="fields")
    round_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Blank: the game's form (every round without its own)."
    )
    order = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=12, choices=KINDS)
    label = models.CharField(max_length=80)
    help = models.CharField(max_length=200, blank=True)
    required = models.BooleanField(default=True)
    minimum = models.IntegerField(null=True, blank=True)
    maximum = models.IntegerField(null=True, blank=True)
    options = models.TextField(blank=True, help_text="One option per line (one choice, several choices).")

    class Meta:
        ordering = ["design", "round_number", "order", "id"]

    def __str__(self) -> str:
        return self.label


class PrivateColumn(models.Model):
    """A kind of private value each seat holds ("Role", "Hand", "Secret number")."""

    design = models.ForeignKey(Design, on_delete=models.CASCADE, related_name="private_columns")
    order = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["design", "order", "id"]

    def __str__(self) -> str:
        return self.name


class PrivateValue(models.Model):
    """A seat's value of a private column before the start."""

    column = models.ForeignKey(PrivateColumn, on_delete=models.CASCADE, related_name="values")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    value = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["column", "seat"], name="host_run_one_value_per_column_seat")
        ]

    def __str__(self) -> str:
        return f"{self.column}: {self.value}"


class Resolution(models.Model):
    """The hosts' resolution of one round: a draft until sent (sent_at)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="host_run_resolutions")
    round_number = models.PositiveSmallIntegerField()
    public_text = models.TextField(blank=True)
    board = models.TextField(blank=True)
    ends_game = models.BooleanField(default=False)
    candidate = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    tie_note = models.CharField(max_length=200, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "round_number"], name="host_run_one_resolution_per_round")
        ]

    def __str__(self) -> str:
        return f"Resolution of Round {self.round_number} of {self.game}"

    def as_rules_data(self) -> dict:
        """This resolution and its seat results as the rules take it (rules/resolution.py)."""
        return {
            "round": self.round_number,
            "public_text": self.public_text,
            "board": self.board,
            "ends_game": self.ends_game,
            "candidate": self.candidate.number if self.candidate_id else None,
            "tie_note": self.tie_note,
            "seats": {
                r.seat.number: {
                    "private_text": r.private_text,
                    "points": r.points,
                    "private_values": r.private_values,
                    "rank": r.rank,
                    "winner": r.winner,
                    "tokens_of_life": r.tokens_of_life,
                    "garnets": r.garnets,
                }
                for r in self.seat_results.select_related("seat")
            },
        }


class SeatResult(models.Model):
    """One seat's part of a resolution: its inbox message, points, private values, and (at the end) its
    rank, win, Tokens of Life and garnets."""

    resolution = models.ForeignKey(Resolution, on_delete=models.CASCADE, related_name="seat_results")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    private_text = models.TextField(blank=True)
    points = models.IntegerField(default=0)
    private_values = models.JSONField(default=dict, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)
    tokens_of_life = models.IntegerField(default=0)
    garnets = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["resolution", "seat"], name="host_run_one_result_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.points:+d}"
