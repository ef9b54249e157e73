"""What the platform stores: seasons, games, seats, rounds and clocks, submissions, events, ledgers, audit."""

from __future__ import annotations

import re
import secrets
import uuid
from datetime import timedelta

from django.conf import settings as conf
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone

from genius.clock import site_now

from . import destinations


def new_seed() -> int:
    return secrets.randbits(62)


def new_ref() -> str:
    """What a player, a spectator or an API client is shown of an event, a chat message or an offer (17.7).

    Database ids are global and consecutive, so the gap between two a viewer sees counts the rows made in
    between that they do not see (another seat's reveals, other pairs' messages, other players' offers).
    A ref is 72 random bits: it says nothing of its neighbours, and cannot be guessed.
    """
    return secrets.token_urlsafe(9)


# What new_ref gives: anything else (a NUL byte, a page of text) names no row, and never reaches the database.
REF_SHAPE = re.compile(r"[A-Za-z0-9_-]{12}")


def ref_field():
    return models.CharField(max_length=12, unique=True, default=new_ref, editable=False)


class UnknownRef(ValueError):
    """A cursor that names no row the viewer was shown."""


def rows_after(rows: models.QuerySet, ref: str | None) -> models.QuerySet:
    """The rows of `rows` (what one viewer may read, in id order) after the one named `ref`: a feed's cursor
    is a ref the viewer was shown, never an id. Still one query (the cursor's row is a subquery); a ref that
    is not among `rows` raises UnknownRef when the answer is empty, so a stale cursor is said, not silent."""
    if not ref:
        return rows
    if not REF_SHAPE.fullmatch(ref):
        return rows.none()
    anchor = rows.filter(ref=ref).values("id")[:1]
    return rows.filter(id__gt=models.Subquery(anchor))


def check_cursor(rows: models.QuerySet, ref: str | None, found: list) -> None:
    """Raise UnknownRef when `ref` names no row of `rows`; asked only when nothing came after it."""
    if ref and not found and (not REF_SHAPE.fullmatch(ref) or not rows.filter(ref=ref).exists()):
        raise UnknownRef(ref)


class Season(models.Model):
    """A community season: its players' garnets and Tokens of Life carry from game to game."""

    name = models.CharField(max_length=120)
    hosts = models.ManyToManyField(conf.AUTH_USER_MODEL, related_name="hosted_seasons", blank=True)
    settings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class SeasonPlayer(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seasons")
    eliminated = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "season player"
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="one_membership_per_season")]

    def __str__(self) -> str:
        return f"{self.user} in {self.season}"


class Game(models.Model):
    """One match of a registered game type. Its hidden state is read only through the observation."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        SEEDING = "seeding", "Seeding"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    game_type = models.CharField(max_length=40)
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    settings = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=new_seed)
    hosts = models.ManyToManyField(conf.AUTH_USER_MODEL, related_name="hosted_games", blank=True)
    public = models.BooleanField(default=True, help_text="Spectators who are not logged in may watch.")
    # The rules' state (JSON from the game's rules module); hidden: only the observation reads it.
    state = models.JSONField(default=dict, blank=True)
    # Bumped on every change anybody could see, so a feed poll with nothing new is one cheap query.
    version = models.PositiveBigIntegerField(default=0)
    paused_at = models.DateTimeField(null=True, blank=True)
    # The published SHA-256 of the hidden host data (with a secret salt, revealed at the end).
    commitment = models.CharField(max_length=64, blank=True)
    commitment_salt = models.CharField(max_length=64, blank=True)
    # Hosts mute the pair chats, e.g. during a live Death Match.
    chats_muted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A live match opens with its clocks stopped (issue 20.1): they start when every seat says "I'm here",
    # or at the start time the hosts set. Null while a running live match waits for its players.
    clocks_started_at = models.DateTimeField(null=True, blank=True)
    # The start time the sweep has still to act on (from the game's `start_time` setting); cleared once done.
    clocks_start_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["clocks_start_at"], name="game_start_due_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="finished") | Q(finished_at__isnull=True),
                name="only_finished_games_have_an_end",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def sitting_down(self) -> bool:
        """A running live match whose clocks wait for its players to sit down (or for its start time)."""
        return self.status == self.Status.RUNNING and self.clocks_started_at is None


def person_label(user) -> str:
    """A person as hosts read them in the admin, where a username finds the account: "Ali the Bold
    (alice)", or the username alone while they have no display name (`people.shown_name` for players)."""
    try:
        name = user.profile.display_name
    except ObjectDoesNotExist:
        name = ""
    return f"{name} ({user.username})" if name and name != user.username else user.username


class Seat(models.Model):
    """A player's place in a game; rules know seats by number 0..n-1."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    # Turn clocks: the reserve left, in seconds, used in fixed increments when a turn's time runs out.
    reserve_seconds = models.FloatField(default=0)
    # When the player last opened the game's page: a round resolved after it has results they have not read.
    inbox_read_at = models.DateTimeField(null=True, blank=True)
    # When the player said "I'm here" at a live match's table (its clocks wait for every seat's).
    here_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_player"),
            models.UniqueConstraint(fields=["game", "number"], name="one_player_per_seat"),
            models.CheckConstraint(condition=Q(reserve_seconds__gte=0), name="reserve_never_negative"),
        ]

    def __str__(self) -> str:
        # Read in the admin's titles and the lists of a game's seats: who ("Ali the Bold (alice)": hosts
        # find accounts by username), and where they sit. Lists read the profiles with the seats.
        return f"{person_label(self.user)}, seat {self.number + 1}"


class Round(models.Model):
    """A numbered round window of a Main Match, opened and closed on the server's clock."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"
        FAILED = "failed", "Failed (waiting for the hosts)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    # While the game is paused, what was left of the window.
    remaining_when_paused = models.DurationField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    last_call_sent_at = models.DateTimeField(null=True, blank=True)  # an hour before (services/sweep.py)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=Q(closes_at__gte=models.F("opens_at")), name="round_closes_after_it_opens"
            ),
        ]
        indexes = [models.Index(fields=["status", "closes_at"], name="round_due_idx")]

    def __str__(self) -> str:
        return f"{self.game}, Round {self.number}"

    def time_left(self, now=None) -> timedelta:
        if self.remaining_when_paused is not None:
            return self.remaining_when_paused
        return max(self.closes_at - (now or site_now()), timedelta(0))


class TurnClock(models.Model):
    """Whose turn or decision is pending in a live match, and when its time runs out.

    Everything is a stored timestamp: a restart of every process loses no time and gives none away.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="clock")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    kind = models.CharField(max_length=40, blank=True, help_text="turn, or the decision that is owed")
    # Which turn the pending move belongs to (from the game type): a new key starts a fresh allowance.
    turn_key = models.CharField(max_length=40, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # How many reserve increments this decision has drawn; the reserve itself is on the seat.
    increments_used = models.PositiveSmallIntegerField(default=0)
    remaining_when_paused = models.DurationField(null=True, blank=True)
    # Seconds left to a seat whose turn was interrupted by the other seat's decision, by seat number.
    banked = models.JSONField(default=dict, blank=True)
    # Bumped at each new turn or decision, so a precise ETA task for an old one does nothing.
    generation = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "turn clock"
        indexes = [models.Index(fields=["deadline"], name="clock_due_idx")]

    def __str__(self) -> str:
        return f"Clock of {self.game}"


class Submission(models.Model):
    """One saved version of a player's round submission. Append-only: the latest before the close counts."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="submissions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="submissions")
    payload = models.JSONField(default=dict)
    final = models.BooleanField(default=False, help_text="The player marked it final.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "seat", "created_at", "id"]
        indexes = [models.Index(fields=["round", "seat", "-created_at"], name="latest_submission_idx")]

    def __str__(self) -> str:
        # "player3, Round 2, final, 14:02": who, which round, how far, when (the site's time zone).
        saved = "final" if self.final else "saved"
        at = timezone.localtime(self.created_at)
        return f"{person_label(self.seat.user)}, Round {self.round.number}, {saved}, {at:%H:%M}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("Submissions are append-only: save a new version instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Submissions are append-only: they are never deleted.")


class ExcusedRound(models.Model):
    """A host excused a seat's missed round (issue 29.5). What it means is the game's (`round_excuse`: the
    missed round's penalty lifted, or this record only); the console shows the seat excused, not missing."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="excused_rounds")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="excused")
    by = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "excused round"
        constraints = [
            models.UniqueConstraint(fields=["seat", "round"], name="one_excuse_per_seat_and_round")
        ]

    def __str__(self) -> str:
        return f"{person_label(self.seat.user)}, Round {self.round.number}, excused"


class Event(models.Model):
    """An ordered event of a game: a public announcement, or a reveal to one seat's inbox."""

    class Kind(models.TextChoices):
        ANNOUNCEMENT = "announcement", "Announcement"
        REVEAL = "reveal", "Reveal"

    class Category(models.TextChoices):
        RESULT = "result", "Result"
        CLARIFICATION = "clarification", "Clarification"
        ADDENDUM = "addendum", "Addendum"
        ERRATUM = "erratum", "Erratum"
        GENERAL = "general", "General"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    category = models.CharField(max_length=13, choices=Category.choices, default=Category.RESULT)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="inbox")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    author = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    ref = ref_field()  # shown in place of the id, and the feed's cursor

    class Meta:
        ordering = ["game", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="reveal", seat__isnull=False) | Q(kind="announcement", seat__isnull=True)),
                name="reveals_have_a_seat_announcements_none",
            ),
        ]
        indexes = [models.Index(fields=["game", "kind", "id"], name="event_feed_idx")]

    def __str__(self) -> str:
        where = f"Round {self.round_number}" if self.round_number is not None else "Before the rounds"
        what = (
            f"to {self.seat.user}" if self.kind == self.Kind.REVEAL else self.get_category_display().lower()
        )
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        return f"{where}, {what}: {text}"


class LedgerAccount(models.Model):
    """A balance of one countable thing: garnets and ToLs per season, chips, cards and points per game."""

    class What(models.TextChoices):
        CHIPS = "chips", "Chips"
        CARDS = "cards", "Cards"
        POINTS = "points", "Points"
        GARNETS = "garnets", "Garnets"
        TOKENS_OF_LIFE = "tokens_of_life", "Tokens of Life"

    SEASON_WIDE = {What.GARNETS, What.TOKENS_OF_LIFE}

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="accounts")
    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="accounts")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="accounts")
    what = models.CharField(max_length=16, choices=What.choices)
    item = models.CharField(max_length=20, blank=True, default="")
    balance = models.IntegerField(default=0)

    class Meta:
        constraints = [
            # Points may go negative (Cards on the Table's crowd penalty "can go negative"); nothing else may.
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(what="points"), name="balance_never_negative"
            ),
            models.UniqueConstraint(
                fields=["season", "user", "game", "what", "item"],
                name="one_game_account_per_thing",
                condition=Q(game__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["season", "user", "what", "item"],
                name="one_season_account_per_thing",
                condition=Q(game__isnull=True),
            ),
            models.CheckConstraint(
                condition=Q(what__in=["garnets", "tokens_of_life"], game__isnull=True)
                | (~Q(what__in=["garnets", "tokens_of_life"]) & Q(game__isnull=False)),
                name="season_things_have_no_game",
            ),
        ]

    def __str__(self) -> str:
        # No balance here: the admin names accounts in titles and links, and a season balance may hold a
        # running game's secret purchase (the admin shows each host the balance they may know).
        return f"{self.user} {self.what}{':' + self.item if self.item else ''}"


class LedgerEntry(models.Model):
    """One change to an account, with its reason and where it came from."""

    account = models.ForeignKey(LedgerAccount, on_delete=models.CASCADE, related_name="entries")
    delta = models.IntegerField()
    balance_after = models.IntegerField()
    reason = models.CharField(max_length=200)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["account", "id"]
        verbose_name = "ledger entry"
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=~Q(delta=0), name="entry_changes_something"),
        ]

    def __str__(self) -> str:
        # No balance: the admin shows each host the balance they may know, never the row's own.
        return f"{self.account}: {self.delta:+d}, {self.reason}"


class AuditLog(models.Model):
    """Every host action, who did it, when, and with what."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="audit")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, null=True, blank=True, related_name="audit")
    actor = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    action = models.CharField(max_length=60)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log entries"

    def __str__(self) -> str:
        at = timezone.localtime(self.created_at)
        return f"{at:%Y-%m-%d %H:%M} {self.actor}: {self.action.replace('_', ' ')}"


class ChatMessage(models.Model):
    """A message in the private chat of two players of a game; its two players and the hosts read it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    low_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    high_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)
    ref = ref_field()  # shown in place of the id, and the chat's cursor

    class Meta:
        ordering = ["id"]
        verbose_name = "pair chat message"
        indexes = [models.Index(fields=["game", "low_seat", "high_seat", "id"], name="pair_chat_idx")]
        constraints = [
            models.CheckConstraint(condition=~Q(low_seat=models.F("high_seat")), name="a_chat_has_two_seats"),
        ]

    def __str__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:39] + "…"
        return f"{self.author}, {timezone.localtime(self.created_at):%H:%M}: {text}"


class ChatRead(models.Model):
    """What one player has not read yet of one pair chat: the messages the other player wrote since they last
    opened it. A message raises the count; opening the chat sets it to 0 and starts a new `burst`, so the
    email about unread messages goes once per burst, not once per message."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="chat_reads")  # the reader
    other = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")  # who they chat with
    unread = models.PositiveIntegerField(default=0)
    burst = models.PositiveIntegerField(default=0, help_text="How many times the chat was read with news.")

    class Meta:
        verbose_name = "pair chat reading"
        constraints = [
            models.UniqueConstraint(fields=["seat", "other"], name="one_reading_per_chat_and_reader"),
            models.CheckConstraint(condition=~Q(seat=models.F("other")), name="a_reading_is_of_two_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} has {self.unread} unread from {self.other}"


class Webhook(models.Model):
    """Where a game's or a season's public announcements are posted: to a Discord channel in Discord's own
    format, or as signed JSON to any other receiver."""

    class Kind(models.TextChoices):
        DISCORD = "discord", "Discord channel"
        SIGNED = "signed", "Any other receiver (signed JSON)"

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="webhooks"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="webhooks")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SIGNED)
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=100, blank=True, help_text="Signs each post (HMAC-SHA256).")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(season__isnull=False) | Q(game__isnull=False),
                name="a_webhook_belongs_to_a_game_or_season",
            ),
        ]

    def __str__(self) -> str:
        return self.url

    def clean(self):
        super().clean()
        problem = destinations.url_problem(self.url or "")
        if self.url and not problem and self.kind == self.Kind.DISCORD:
            problem = discord_hook_problem(self.url)
        if self.url and problem:
            raise ValidationError({"url": problem})


DISCORD_HOOK = re.compile(
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d{15,25}/[\w-]{20,100}"
)


def discord_hook_problem(url: str) -> str | None:
    """A Discord channel webhook's URL is https://discord.com/api/webhooks/<id>/<token>, nothing else."""
    if DISCORD_HOOK.fullmatch(url):
        return None
    return (
        "This is not a Discord channel webhook URL. In Discord: the channel's settings, Integrations, "
        "Webhooks, New Webhook, Copy Webhook URL; it looks like https://discord.com/api/webhooks/<numbers>/<code>."
    )


class DiscordDM(models.Model):
    """How the site's Discord bot reaches a player: the DM channel Discord opened for them (asked once), and
    Discord's code for why the last DM could not reach them (discord_api.UNREACHABLE; none once one did)."""

    user = models.OneToOneField(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="discord_dm")
    discord_id = models.CharField(max_length=32)  # the Discord account this is about; another starts over
    channel_id = models.CharField(max_length=32, blank=True)
    problem = models.PositiveIntegerField(null=True, blank=True)
    problem_at = models.DateTimeField(null=True, blank=True)


def _kind_switch(kind: str) -> property:
    """A kind as one switch, as it was when email was the only way: read, whether any way carries it; set,
    by every way or by none (`NotificationPreference(user=ann, reminder=False)`: no reminders at all)."""

    def get(self) -> bool:
        return any(self.wants(kind, channel) for channel in self.CHANNELS)

    def put(self, on: bool) -> None:
        for channel in self.CHANNELS:
            self.choose(kind, channel, on)

    return property(get, put)


class NotificationPreference(models.Model):
    """Which kinds of message a user wants, and by which ways (reach/prefs.py). Missing row, or a kind or
    way not in `choices`: the default, every kind by every way that reaches them, except "your turn" and pair
    chats by email (a live match would fill the inbox; a chatty game would mail every player who never
    opens the site)."""

    # The ways a message may reach a player, in the order they are tried (reach/dispatch.py).
    CHANNELS = ("discord", "push", "email")
    QUIET_BY_EMAIL = ("your_turn", "chat_message")

    user = models.OneToOneField(
        conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs"
    )
    # {kind: {channel: ticked}}: only what the user chose; the rest is the default.
    choices = models.JSONField(default=dict, blank=True)
    # One email a day with what awaits the player, instead of one each time a round opens, results come or a
    # pair chat speaks (services/digest.py); deadline reminders and "your turn" still come as chosen.
    email_digest = models.BooleanField(default=False)

    class Meta:
        verbose_name = "notification preference"

    def __str__(self) -> str:
        return f"Messages {self.user} wants"

    @classmethod
    def default(cls, kind: str, channel: str) -> bool:
        return not (channel == "email" and kind in cls.QUIET_BY_EMAIL)

    def wants(self, kind: str, channel: str) -> bool:
        return bool(self.choices.get(kind, {}).get(channel, self.default(kind, channel)))

    def choose(self, kind: str, channel: str, on: bool) -> None:
        self.choices = {**self.choices, kind: {**self.choices.get(kind, {}), channel: bool(on)}}

    round_opened = _kind_switch("round_opened")
    reminder = _kind_switch("reminder")
    results = _kind_switch("results")
    your_turn = _kind_switch("your_turn")
    chat_message = _kind_switch("chat_message")


class Delivery(models.Model):
    """One email to one user, or one announcement to one webhook, under a key naming it
    (`results:<round>:<user>`, `webhook:<hook>:<event>`): claimed before it is sent and marked sent after
    (issue 28), so two runs of one task at once never both send it (services/deliveries.py).

    A claim lasts GENIUS_DELIVERY_LEASE_SECONDS. A sender killed mid-send leaves a claim that runs out; the
    delivery is then sent again with the same `uid` (the email's Message-ID, the webhook's Idempotency-Key),
    so its receiver can drop the copy if the first one did arrive.
    """

    key = models.CharField(max_length=120, unique=True)
    uid = models.UUIDField(default=uuid.uuid4, editable=False)
    claimed_by = models.UUIDField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return self.key


class DeathMatchPick(models.Model):
    """From a Main Match to its Death Match: the Elimination Candidate picks an opponent before a deadline."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for the pick"
        PICKED = "picked", "Picked"
        CREATED = "created", "Death Match created"

    main_match = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="death_match_pick")
    candidate = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    deadline = models.DateTimeField()
    excluded = models.ManyToManyField(
        conf.AUTH_USER_MODEL,
        related_name="+",
        blank=True,
        help_text="Players the candidate may not pick (e.g. ToL holders, the winner).",
    )
    opponent = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    picked_at = models.DateTimeField(null=True, blank=True)
    death_match = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="decides_pick"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)

    class Meta:
        verbose_name = "Death Match pick"

    def __str__(self) -> str:
        return f"Death Match pick of {self.main_match}"


class OutboxTask(models.Model):
    """A task a commit owes the outside (an email, a webhook post, an early resolution): written in the same
    transaction as the change that causes it, so no commit happens without it (issue 28; games/platform/
    outbox.py). It is published once the transaction commits, and again by the relay whenever `due_at`
    passes; the task deletes its row when its work is done. `attempts` counts the runs that failed.

    A row whose `due_at` is empty gave up (after its kind's retries): kept, with its error, for the admins.
    """

    name = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name}{tuple(self.args)}"


class Heartbeat(models.Model):
    """When something in the background last showed that it runs: the sweep, or a worker of a queue.

    In the database, not Redis: the trace must outlive a Redis outage, and every web process reads the same
    one. Stamped with the database's clock and read against it, so a machine whose clock is off neither
    looks late nor hides it (games/platform/heartbeats.py).
    """

    name = models.CharField(max_length=100, primary_key=True)  # "sweep", "worker:<queue>"
    at = models.DateTimeField()

    def __str__(self) -> str:
        return self.name


class PushMessage(models.Model):
    """A message of the live pages' channels (docs/live.md) when they run on the database (no Redis, as under
    the embedded `make run`): written after the commit it announces, read by one poller per web process,
    which relays it to that process's streams, and deleted GENIUS_PUSH_KEEP_SECONDS later
    (games/platform/push_table.py). Rows are read in id order; nothing else is kept about them."""

    channel = models.CharField(max_length=100)  # `<prefix>game:G`, `<prefix>user:U`, `<prefix>hosts:G`
    payload = models.JSONField()  # ids and numbers only, as on Redis
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return self.channel


def zone_choices() -> list[tuple[str, str]]:
    from zoneinfo import available_timezones

    return [(name, name.replace("_", " ")) for name in sorted(available_timezones())]


class Profile(models.Model):
    """What a person shows of themselves: the name on every page, and the zone every time is shown in."""

    user = models.OneToOneField(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown on every page in place of your username."
    )
    # "" until the person has a zone: their browser's is taken at their first page (people.zone_detected).
    time_zone = models.CharField(max_length=64, blank=True, default="", choices=zone_choices)

    def __str__(self) -> str:
        return self.display_name or str(self.user)


def new_invitation_token() -> str:
    # 32 random bytes: the link is the whole secret, so it must not be guessable.
    return secrets.token_urlsafe(32)


def default_invitation_expiry():
    return timezone.now() + timedelta(days=14)


class Invitation(models.Model):
    """A link a season's host hands out: whoever opens it in time, while places last, joins as a player."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token, editable=False)
    expires_at = models.DateTimeField(default=default_invitation_expiry)
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many people may join with it; empty for no limit."
    )
    uses = models.PositiveIntegerField(default=0, editable=False)
    note = models.CharField(max_length=120, blank=True, help_text="For the hosts: who it was sent to.")
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=models.F("max_uses")),
                name="invitation_not_over_used",
            )
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.season}" + (f" ({self.note})" if self.note else "")

    def clean(self):
        super().clean()
        if self.max_uses is not None and self.max_uses < self.uses:
            raise ValidationError({"max_uses": f"{self.uses} players have joined with it already."})


class PushSubscription(models.Model):
    """One device (a browser on a phone or a desktop) that lets the site send its owner Web Push
    notifications: the push service's endpoint URL and the browser's keys that each push is encrypted to
    (RFC 8291). Deleted when its owner removes it, or when the push service answers that it is gone (404,
    410)."""

    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's public key (base64url P-256 point).")
    auth = models.CharField(max_length=40, help_text="The browser's auth secret (base64url, 16 bytes).")
    label = models.CharField(max_length=80, blank=True, help_text="Which device, read from its browser.")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "push device"

    def __str__(self) -> str:
        return f"{self.label or 'A device'} of {self.user}"
