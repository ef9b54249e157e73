"""The one door for game state: who a user is to a game, and what they may see of it.

Every page, partial, feed and API response takes game data from `observe`; templates and serializers
never read hidden models themselves.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from django.db.models import Exists, OuterRef, Q
from django.http import Http404

from genius.clock import site_now

from . import registry, setting
from .models import DeathMatchPick, Event, Game, LedgerEntry, Round, Seat, Submission, TurnClock
from .people import shown_name
from .registry import Viewer
from .services import sitting
from .services.clocks import seconds_left
from .services.commitment import commitment_check
from .services.ledger import balances
from .services.rounds import opens_by_hand
from .wording import Told, names_for

RECENT_EVENTS = 200


def viewer_for(game: Game, user) -> Viewer | None:
    """The user's role in the game, or None when the game is not theirs to see at all."""
    if getattr(user, "is_authenticated", False):
        if user.is_superuser:
            return Viewer(role="host", user=user)
        # One query for a player (their seat, and whether they also host it: a host added after seating).
        seat = player_seat(game.pk, user)
        hosts_it = seat.hosts_it if seat is not None else game.hosts.filter(pk=user.pk).exists()
        if hosts_it:
            return Viewer(role="host", user=user)
        if seat is not None:
            seat.game = game  # the caller's game: what it has read or changed stays in one object
            return Viewer(role="player", seat=seat, user=user)
        return Viewer(role="spectator", user=user)
    if game.public:
        return Viewer(role="spectator")
    return None


def player_seat(game_id: int, user) -> Seat | None:
    """The user's seat in the game with its game and season, and `hosts_it` (whether they also host the
    game), in one query; None when they have no seat."""
    hosted = Game.hosts.through.objects.filter(game_id=OuterRef("game_id"), user_id=OuterRef("user_id"))
    return (
        Seat.objects.select_related("game__season")
        .annotate(hosts_it=Exists(hosted))
        .filter(game_id=game_id, user_id=user.pk)
        .first()
    )


def seat_of_player(game_id: int, user) -> Seat | None:
    """The user's seat with its game and season, in one query, when they play (and do not host) the game.

    The path of a player's own saves; anyone else (and an unknown game) gets None and the full checks.
    """
    if not getattr(user, "is_authenticated", False) or user.is_superuser:
        return None
    seat = player_seat(game_id, user)
    if seat is None or seat.hosts_it:
        return None
    return seat


def viewer_or_404(game: Game, user) -> Viewer:
    viewer = viewer_for(game, user)
    if viewer is None:
        raise Http404("No such game.")
    return viewer


def visible_events(game: Game, viewer: Viewer):
    """Announcements for all; reveals to their seat; everything to hosts and, after the end, to everyone."""
    events = Event.objects.filter(game=game).select_related("seat__user__profile")
    if viewer.role == "host" or game.status == Game.Status.FINISHED:
        return events
    if viewer.role == "player":
        return events.filter(Q(kind=Event.Kind.ANNOUNCEMENT) | Q(seat=viewer.seat))
    return events.filter(kind=Event.Kind.ANNOUNCEMENT)


def event_dict(event: Event, names: dict[int, str] | None = None) -> dict:
    """`names`: {user id: shown name} of the people the events name (`events_named`); the text is told with
    them, in the reader's zone (on a page: each time for the page's script to write in the viewer's)."""
    if names is None:
        names = names_for([event.text])
    return {
        "id": event.ref,
        "kind": event.kind,
        "category": event.category,
        "round": event.round_number,
        "text": Told(event.text, names),
        "to": shown_name(event.seat.user) if event.seat_id else None,
        "at": event.created_at.isoformat(),
    }


def events_named(game: Game, events) -> list[dict]:
    """The events as `event_dict`s, the people they name read with the game's players (no query when those
    are all they name)."""
    events = list(events)
    known = {}
    if any("{" in e.text for e in events):
        known = {s.user_id: shown_name(s.user) for s in seats_with_players(game)}
    names = names_for([e.text for e in events], known)
    return [event_dict(e, names) for e in events]


@contextmanager
def reading(game: Game):
    """While one reading of `game` is made (an observation, or a page: its observation and its form), the
    game's seats, latest round and turn clock are read once: the platform's part and the game type's own
    view ask the same questions. Only for that while: after it, a service may seat a player or open a round
    on the same object, and the next reading must see it."""
    if hasattr(game, "_reading"):  # inside a reading already: its answers stand
        yield
        return
    game._reading = {}
    try:
        yield
    finally:
        del game._reading


def _read_once(game: Game, what: str, read):
    memo = getattr(game, "_reading", None)
    if memo is None:
        return read()
    if what not in memo:
        memo[what] = read()
    return memo[what]


def seats_with_players(game: Game) -> list[Seat]:
    """The game's seats in seat order, each with its player (a game type's view names them too)."""
    return _read_once(game, "seats", lambda: list(game.seats.select_related("user__profile")))


def current_round(game: Game) -> Round | None:
    """The game's latest round, open or not."""
    return _read_once(game, "round", lambda: game.rounds.order_by("-number").first())


def round_dict(rnd: Round | None, now) -> dict | None:
    if rnd is None:
        return None
    left = rnd.time_left(now).total_seconds() if rnd.status == Round.Status.OPEN else 0
    # Past its deadline and not resolved yet (the worker or beat late or down): closed, results coming. No
    # save is taken any more (submission_save refuses it), so nobody is shown the form or "0 s left".
    late = rnd.status == Round.Status.OPEN and rnd.remaining_when_paused is None and rnd.closes_at <= now
    return {
        "number": rnd.number,
        "status": "closed" if late else rnd.status,
        "results_coming": late,
        "opens_at": rnd.opens_at.isoformat(),
        "closes_at": rnd.closes_at.isoformat(),
        "seconds_left": left,
        # The same deadline as a time, which stays true while nothing changes (a cached page shows it).
        "ends_at": (now + timedelta(seconds=left)).isoformat(),
        "paused": rnd.remaining_when_paused is not None,
    }


def turn_clock(game: Game) -> TurnClock | None:
    """The live match's turn clock, with the seat and player it waits on."""
    return _read_once(
        game,
        "clock",
        lambda: TurnClock.objects.select_related("seat__user__profile").filter(game=game).first(),
    )


def clock_dict(game: Game, now, viewer: Viewer) -> dict | None:
    """The turn clock as every viewer may see it: whom the game waits on, and the time they have.

    `deadline` and `reserve_seconds` are the stored clock, not a reading of it: the page's script counts
    the turn down to the deadline, then draws the reserve in `increment` steps as the settlement will
    (services.clocks.clock_settle), so a page shows the true time while no sweep has drawn a step yet and
    without a GET writing anything. `out_at` is when the time-out falls once the reserve is gone.
    """
    clock = turn_clock(game)
    if clock is None or clock.seat_id is None:
        return None
    kind = registry.get(game.game_type)
    left = seconds_left(clock, now)
    paused = clock.remaining_when_paused is not None
    seats = {s.number: s for s in seats_with_players(game)}
    deciding = [clock.seat.number]
    # Several deciding at once (public, as the game type says): the clock's seat first, then the others.
    deciding += [n for n in kind.deciding_seats(game) or () if n != clock.seat.number and n in seats]
    names = [shown_name(seats[n].user) for n in deciding]
    reserve = clock.seat.reserve_seconds
    return {
        "seat": clock.seat.number,
        "player": names[0],
        "kind": clock.kind,
        # A turn ("Your turn"), or any other move the game waits for ("Your decision"), as awaiting says.
        "need": "turn" if clock.kind in ("", "turn") else "decision",
        "seats": deciding,
        "names": names,
        "waiting_for": names_listed(names),
        # Nobody's turn before the players sit down: the clock waits, and so does the title (issue 20.1).
        "mine": viewer.role == "player" and viewer.seat_number in deciding and not game.sitting_down,
        "others": names_listed([n for s, n in zip(deciding, names, strict=True) if s != viewer.seat_number])
        if viewer.role == "player"
        else "",
        "seconds_left": left,
        "ends_at": (now + timedelta(seconds=left)).isoformat(),
        "deadline": None if paused else clock.deadline.isoformat(),
        "reserve_seconds": reserve,
        "increment": kind.reserve_increment(game),
        "in_reserve": clock.increments_used > 0,
        "out_at": None if paused else (clock.deadline + timedelta(seconds=reserve)).isoformat(),
        "paused": paused,
    }


def names_listed(names: list[str], shown: int = 3) -> str:
    """ "ann", "ann and ben", "ann, ben and cleo", and past three "ann, ben and 4 others"."""
    if len(names) > shown:
        names = [*names[: shown - 1], f"{len(names) - shown + 1} others"]
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else ""


def sitting_dict(game: Game, seats: list[Seat], viewer: Viewer, now) -> dict | None:
    """A live match waiting for its players (issue 20.1): who is seated and here, and what it waits for.
    Public: everyone at the table and watching sees who has sat down. None once the clocks run."""
    if not game.sitting_down:
        return None
    here = [shown_name(s.user) for s in seats if s.here_at is not None]
    when = sitting.start_time(game)
    mine = viewer.seat if viewer.role == "player" else None
    return {
        "here": here,
        "seats": [
            {"seat": s.number, "name": shown_name(s.user), "here": s.here_at is not None} for s in seats
        ],
        "text": f"{len(here)} of {len(seats)} here" + (f": {', '.join(here)}" if here else ""),
        "waiting_for": sitting.waiting_words(game, seats, now),
        "clocks_start": setting.sitting(game.settings, setting.CLOCKS_START),
        "start_time": when.isoformat() if when else None,
        "absent_at_start": setting.sitting(game.settings, setting.ABSENT_AT_START),
        "replacing": sitting.start_time_passed(game, now)
        and setting.sitting(game.settings, setting.ABSENT_AT_START) == setting.ABSENT_REPLACED,
        "you_are_here": None if mine is None else any(s.pk == mine.pk and s.here_at for s in seats),
    }


def observe(game: Game, viewer: Viewer, *, after_event: int = 0) -> dict:
    """Everything `viewer` may know about `game`, as plain data."""
    with reading(game):
        return _observation(game, viewer, after_event)


def _observation(game: Game, viewer: Viewer, after_event: int) -> dict:
    now = site_now()
    kind = registry.get(game.game_type)
    seats = seats_with_players(game)
    rnd = current_round(game)
    # The latest events only: a long game's page stays light; the feed API and the history have them all.
    recent = visible_events(game, viewer).filter(id__gt=after_event).order_by("-id")[:RECENT_EVENTS]
    events = events_named(game, reversed(recent))
    data = {
        "id": game.id,
        "name": game.name,
        "type": kind.slug,
        "type_name": kind.name,
        "flow": kind.flow,
        "season": {"id": game.season_id, "name": game.season.name},
        "status": game.status,
        "paused": game.paused_at is not None,
        "version": game.version,
        "poll_seconds": kind.poll_seconds,
        "viewer": {"role": viewer.role, "seat": viewer.seat_number},
        "players": [
            {"seat": s.number, "name": shown_name(s.user), "username": s.user.username} for s in seats
        ],
        "round": round_dict(rnd, now),
        "clock": clock_dict(game, now, viewer) if kind.flow == "turns" else None,
        "sitting": sitting_dict(game, seats, viewer, now) if kind.flow == "turns" else None,
        "announcements": [e for e in events if e["kind"] == Event.Kind.ANNOUNCEMENT],
        "inbox": [e for e in events if e["kind"] == Event.Kind.REVEAL],
        "state": kind.observation(game, viewer),
        "commitment": commitment_check(game)
        or ({"commitment": game.commitment} if game.commitment else None),
    }
    if rnd is not None and rnd.status == Round.Status.RESOLVED and game.status == Game.Status.RUNNING:
        # No round is open: the next opens by itself, or (GameType.round_opens_by_hand) when a host opens it.
        if opens_by_hand(game, rnd.number + 1):
            data["round"]["next_by_hand"] = rnd.number + 1
    pick = (
        DeathMatchPick.objects.filter(main_match=game)
        .select_related("candidate__profile", "opponent__profile")
        .first()
    )
    if pick is not None:
        data["death_match_pick"] = {
            "candidate": shown_name(pick.candidate),
            "deadline": pick.deadline.isoformat(),
            "opponent": shown_name(pick.opponent) if pick.opponent else None,
            "death_match": pick.death_match_id,
        }
    if viewer.role == "player":
        data["submission"] = own_submission(viewer.seat, rnd)
        data["balances"] = balances(season=game.season, user=viewer.user, game=game)
    if viewer.role == "host":
        data["submissions"] = all_submissions(rnd)
        data["failed_round"] = failed_round(game)
        if rnd is not None and rnd.status == Round.Status.OPEN and rnd.last_error and not rnd.attempts:
            data["round_waiting"] = rnd.last_error
    return data


def own_submission(seat: Seat, rnd: Round | None) -> dict | None:
    if rnd is None:
        return None
    latest = Submission.objects.filter(round=rnd, seat=seat).order_by("-created_at", "-id").first()
    if latest is None:
        return None
    return {
        "round": rnd.number,
        "payload": latest.payload,
        "final": latest.final,
        "saved_at": latest.created_at.isoformat(),
    }


def all_submissions(rnd: Round | None) -> list[dict]:
    if rnd is None:
        return []
    return [
        {
            "seat": s.seat.number,
            "player": shown_name(s.seat.user),
            "payload": s.payload,
            "final": s.final,
            "saved_at": s.created_at.isoformat(),
        }
        for s in Submission.objects.filter(round=rnd)
        .select_related("seat__user__profile")
        .order_by("seat__number", "created_at")
    ]


def failed_round(game: Game) -> dict | None:
    rnd = game.rounds.filter(status=Round.Status.FAILED).first()
    if rnd is None:
        return None
    return {"number": rnd.number, "attempts": rnd.attempts, "error": rnd.last_error}


def visible_games(user):
    """Games the user may open: public ones, their seats, their hosted ones (all for superusers)."""
    if getattr(user, "is_superuser", False):
        return Game.objects.all()
    if getattr(user, "is_authenticated", False):
        # Logged-in users may watch every game; non-public games are closed only to anonymous visitors.
        return Game.objects.all()
    return Game.objects.filter(public=True)


def history(game: Game) -> dict:
    """The whole game, revealed: every event round by round, every submission, the ledgers, the hidden data.

    Only for a finished game (or its hosts): the callers check that.
    """
    with reading(game):
        return _history(game)


def _history(game: Game) -> dict:
    kind = registry.get(game.game_type)
    rounds = {r.number: r for r in game.rounds.all()}
    players = {s.user_id: shown_name(s.user) for s in seats_with_players(game)}
    entries = list(
        LedgerEntry.objects.filter(game=game).select_related("account__user__profile").order_by("id")
    )
    reasons_named = names_for([e.reason for e in entries], players)
    return {
        "game": {
            "id": game.id,
            "name": game.name,
            "type": kind.slug,
            "season": game.season.name,
            "status": game.status,
            "seed": game.seed,
            "settings": game.settings,
            "started_at": game.started_at.isoformat() if game.started_at else None,
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        },
        "players": [
            {"seat": s.number, "name": shown_name(s.user), "username": s.user.username}
            for s in seats_with_players(game)
        ],
        "rounds": [
            {
                "number": n,
                "opens_at": r.opens_at.isoformat(),
                "closes_at": r.closes_at.isoformat(),
                "status": r.status,
            }
            for n, r in sorted(rounds.items())
        ],
        "events": events_named(game, Event.objects.filter(game=game).select_related("seat__user__profile")),
        "submissions": [
            {
                "round": s.round.number,
                "seat": s.seat.number,
                "player": shown_name(s.seat.user),
                "payload": s.payload,
                "final": s.final,
                "saved_at": s.created_at.isoformat(),
            }
            for s in Submission.objects.filter(round__game=game)
            .select_related("round", "seat__user__profile")
            .order_by("round__number", "seat__number", "created_at", "id")
        ],
        "ledger": [
            {
                "player": shown_name(e.account.user),
                "what": e.account.what,
                "item": e.account.item,
                "delta": e.delta,
                "balance_after": e.balance_after,
                "reason": Told(e.reason, reasons_named),
                "round": e.round_number,
                "at": e.created_at.isoformat(),
            }
            for e in entries
        ],
        "hidden_data": kind.hidden_data(game),
        "commitment": commitment_check(game),
        "final_state": kind.observation(game, Viewer(role="host")),
    }
