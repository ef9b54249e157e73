"""A game's life: create, seat, start, apply outcomes, pause, resume, extend, finish; hosts audited."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from genius.clock import site_now

from .. import enqueue, registry
from ..errors import StateChanged
from ..kit import Announce, RulesError
from ..models import Game, Round, Season, Seat, TurnClock
from ..wording import instant_ref, typed
from ..zones import span_text
from .audit import audit
from .clocks import clock_sync
from .commitment import commitment_publish
from .events import bump_version, events_write
from .hosts import require_host
from .locks import one_game_at_a_time
from .membership import season_join
from .rounds import all_final, round_open
from .seating import seat_refusal_check
from .sitting import start_time_set


@transaction.atomic
def game_create(
    *,
    season: Season,
    game_type: str,
    name: str,
    hosts=(),
    settings: dict | None = None,
    public: bool = True,
    seed: int | None = None,
    actor=None,
) -> Game:
    kind = registry.get(game_type)
    merged = {**kind.default_settings(), **(settings or {})}
    problems = kind.settings_problems(merged)
    if problems:
        raise RulesError("; ".join(problems), field="settings")
    extra = {"seed": seed} if seed is not None else {}
    game = Game.objects.create(
        season=season, game_type=game_type, name=name, settings=merged, public=public, **extra
    )
    game.hosts.set(hosts)
    audit(action="game_create", actor=actor, game=game, game_type=game_type, name=name)
    return game


@one_game_at_a_time
def game_seat(*, game: Game, user, actor=None) -> Seat:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status not in (Game.Status.DRAFT, Game.Status.SEEDING):
        raise StateChanged("Players can only be seated before the game starts.")
    seat_refusal_check(game, user, field="user")
    kind = registry.get(game.game_type)
    taken = game.seats.count()
    if taken >= kind.max_players:
        raise RulesError(f"{kind.name} seats at most {kind.max_players} players.", field="user")
    season_join(season=game.season, user=user, actor=actor)
    seat = Seat.objects.create(game=game, user=user, number=taken)
    bump_version(game)  # the players' list on every page
    audit(action="game_seat", actor=actor, game=game, user=user.username, seat=seat.number)
    return seat


@one_game_at_a_time
def game_start(*, game: Game, actor=None, now=None) -> Game:
    """Check the hidden data and the seats, let the game type set up, and open the first round or turn."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status not in (Game.Status.DRAFT, Game.Status.SEEDING):
        raise StateChanged("This game has already started.")
    kind = registry.get(game.game_type)
    seats = game.seats.count()
    if not kind.min_players <= seats <= kind.max_players:
        raise RulesError(
            f"{kind.name} needs {kind.min_players}-{kind.max_players} players; {seats} are seated.",
            field="seats",
        )
    problems = kind.hidden_problems(game)
    if problems:
        raise RulesError("The hidden data is not ready: " + "; ".join(problems), field="hidden")
    game.status = Game.Status.RUNNING
    game.started_at = now
    outcome = kind.start(game)
    game.state = outcome.state
    game.save(update_fields=["status", "started_at", "state"])
    committed = commitment_publish(game=game)
    started = Announce(f"{typed(game.name)} has started.")
    events_write(game=game, events=[started, committed, *outcome.events], actor=actor)
    if kind.flow == "rounds":
        game.clocks_started_at = now
        game.save(update_fields=["clocks_started_at"])
        round_open(game=game, number=kind.first_round(game), now=now)
    else:
        # A live match opens with its clocks stopped, until its players sit down (services/sitting.py).
        game.clocks_started_at = None
        start_time_set(game)
        game.save(update_fields=["clocks_started_at", "clocks_start_at"])
        Seat.objects.filter(game=game).update(reserve_seconds=kind.reserve_seconds(game), here_at=None)
        clock_sync(game=game, now=now)
    audit(action="game_start", actor=actor, game=game)
    return game


@one_game_at_a_time
def game_pause(*, game: Game, actor=None, now=None) -> Game:
    """Stop every clock of the game; what was left of each is kept for the resume."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    require_host(game, actor)
    if game.status != Game.Status.RUNNING or game.paused_at:
        raise StateChanged("Only a running game that is not paused can be paused.")
    game.paused_at = now
    game.save(update_fields=["paused_at"])
    for rnd in Round.objects.select_for_update().filter(game=game, status=Round.Status.OPEN):
        rnd.remaining_when_paused = max(rnd.closes_at - now, timedelta(0))
        rnd.save(update_fields=["remaining_when_paused"])
    clock = TurnClock.objects.select_for_update().filter(game=game, deadline__isnull=False).first()
    if clock:
        clock.remaining_when_paused = max(clock.deadline - now, timedelta(0))
        clock.save(update_fields=["remaining_when_paused"])
    events_write(
        game=game, events=[Announce("The hosts paused the game. Every clock is stopped.")], actor=actor
    )
    audit(action="game_pause", actor=actor, game=game)
    return game


@one_game_at_a_time
def game_resume(*, game: Game, actor=None, now=None) -> Game:
    """Start every clock again with what was left of it; a round everyone marked final while paused closes."""
    now = now or site_now()
    game = Game.objects.select_for_update().get(pk=game.pk)
    require_host(game, actor)
    if not game.paused_at:
        raise StateChanged("The game is not paused.")
    game.paused_at = None
    game.save(update_fields=["paused_at"])
    for rnd in Round.objects.select_for_update().filter(game=game, status=Round.Status.OPEN):
        rnd.closes_at = now + (rnd.remaining_when_paused or timedelta(0))
        rnd.remaining_when_paused = None
        rnd.save(update_fields=["closes_at", "remaining_when_paused"])
        if game.settings.get("close_when_all_final") and all_final(rnd):
            # The last "final" came while the game was paused, and could not close the round then.
            enqueue.resolve_round(rnd.pk, True)
    clock = TurnClock.objects.select_for_update().filter(game=game).first()
    # A clock whose players are still sitting down stays stopped: the last "I'm here" starts it.
    if clock and clock.remaining_when_paused is not None and game.clocks_started_at is not None:
        clock.deadline = now + clock.remaining_when_paused
        clock.remaining_when_paused = None
        clock.save(update_fields=["deadline", "remaining_when_paused"])
    events_write(game=game, events=[Announce("The hosts resumed the game.")], actor=actor)
    audit(action="game_resume", actor=actor, game=game)
    return game


@one_game_at_a_time
def round_extend(*, game: Game, by: timedelta, actor=None) -> Round:
    """Give the open round more time (a host's call, e.g. for a player in another time zone)."""
    require_host(game, actor)
    game = Game.objects.select_for_update().get(pk=game.pk)  # the game first, as every service locks
    rnd = Round.objects.select_for_update().filter(game=game, status=Round.Status.OPEN).first()
    if rnd is None:
        raise StateChanged("There is no open round to extend.")
    if rnd.remaining_when_paused is not None:
        rnd.remaining_when_paused += by
    else:
        rnd.closes_at += by
    rnd.save(update_fields=["closes_at", "remaining_when_paused"])
    events_write(
        game=game,
        events=[
            Announce(f"The hosts extended Round {rnd.number} by {span_text(by)}.", {"round": rnd.number})
        ],
        round_number=rnd.number,
        actor=actor,
    )
    audit(action="round_extend", actor=actor, game=game, round=rnd.number, seconds=by.total_seconds())
    return rnd


@one_game_at_a_time
def round_open_by_hand(*, game: Game, actor, now=None) -> Round:
    """A host's "Open Round N": the next round, one its game type opens by hand
    (GameType.round_opens_by_hand), opens now for its window; the players are told as when a resolution
    opens a round."""
    require_host(game, actor)
    game = Game.objects.select_for_update().get(pk=game.pk)  # the game first, as every service locks
    now = now or site_now()
    if game.status != Game.Status.RUNNING:
        raise StateChanged("The game is not running: no round can open.")
    latest = Round.objects.select_for_update().filter(game=game).order_by("-number").first()
    if latest is not None and latest.status == Round.Status.OPEN:
        raise StateChanged(f"Round {latest.number} is open: it must be resolved before the next one opens.")
    if latest is not None and latest.status == Round.Status.FAILED:
        raise StateChanged(f"Round {latest.number} failed: press Retry, and resolve it, first.")
    kind = registry.get(game.game_type)
    number = latest.number + 1 if latest is not None else kind.first_round(game)
    window = kind.round_window(game, number)
    if window is None:
        raise StateChanged(f"The game has no Round {number}.")
    if not kind.round_opens_by_hand(game, number):
        raise StateChanged(f"Round {number} does not open by hand: it opens when the round before resolves.")
    if game.paused_at:
        raise StateChanged(f"The game is paused: resume it before opening Round {number}.")
    rnd = Round.objects.create(game=game, number=number, opens_at=now, closes_at=now + window)
    events_write(
        game=game,
        events=[Announce(f"Round {number} is open until {instant_ref(rnd.closes_at)}.", {"round": number})],
        round_number=number,
        actor=actor,
    )
    audit(action="round_open_by_hand", actor=actor, game=game, round=number)
    enqueue.notify_round_opened(rnd.pk)
    return rnd


@one_game_at_a_time
def game_settings_update(*, game: Game, settings: dict, actor=None) -> Game:
    require_host(game, actor)
    game = Game.objects.select_for_update().get(pk=game.pk)
    kind = registry.get(game.game_type)
    merged = {**game.settings, **settings}
    problems = kind.settings_problems(merged)
    if problems:
        raise RulesError("; ".join(problems), field="settings")
    before = game.settings
    game.settings = merged
    start_time_set(game)  # a start time set (or moved) while the players sit down
    game.save(update_fields=["settings", "clocks_start_at"])
    bump_version(game)
    audit(action="game_settings", actor=actor, game=game, before=before, after=merged)
    return game


@one_game_at_a_time
def hidden_data_update(*, game: Game, data: dict, actor) -> list[str]:
    """A host seeds the hidden data before the start; returns what still blocks the start."""
    require_host(game, actor)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status not in (Game.Status.DRAFT, Game.Status.SEEDING):
        raise StateChanged(
            "The hidden data is locked: the game has started, and its commitment is published."
        )
    kind = registry.get(game.game_type)
    kind.hidden_data_set(game, data)
    if game.status == Game.Status.DRAFT:
        game.status = Game.Status.SEEDING
        game.save(update_fields=["status"])
    problems = kind.hidden_problems(game)
    audit(action="hidden_data_set", actor=actor, game=game, problems=len(problems))
    return problems
