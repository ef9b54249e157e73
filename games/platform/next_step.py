"""A game's outcome and its one next step, in the words its hosts read: "Round 3 closes in 5 h (4 not
submitted)", "ivy picks a Death Match opponent by Sat 20:00 UTC", "Create the Death Match ivy vs ann",
"Finished: ann won 2 ToLs, cat 1; ivy is the EC", "Finished: ann eliminated".

Shared by the season's console (every game of the season at once: admin/season_console.py) and a game's own
console (admin/console.py), so both say the same. What it reads is what the hosts may know: the seats, the
open round and who has saved in it (the game's console lists them), and, once a game is over and everything
hidden is revealed, the Tokens of Life its ledger gave, its Death Match pick and the loser the game names.

`facts_for(games)` reads all of it for any number of games in a fixed number of queries, so a season's
console costs the same with 3 games as with 30; `outcome` and `next_step` then read nothing more (a game's
own code aside: a draft's `hidden_problems`, a decision round's `owed`, a Death Match's `match_loser`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from . import registry
from .models import (
    DeathMatchPick,
    ExcusedRound,
    Game,
    LedgerEntry,
    Round,
    SeasonPlayer,
    Seat,
    Submission,
    TurnClock,
)
from .people import label
from .services import sitting
from .services.rounds import opens_by_hand


@dataclass(frozen=True)
class Step:
    """What comes next for a game: `words`, and one way to take it, a button on the season's console
    (`action`, with `button` its words) or a link (`link`, `link_words`)."""

    words: str
    # "start", "remind_pick", "create_death_match", "open_round": the season console's routes
    action: str = ""
    button: str = ""
    link: str = ""
    link_words: str = ""
    game_id: int | None = None
    pick_id: int | None = None
    start_at: str = ""  # creating a Death Match: the start time proposed, as a datetime field shows it


@dataclass
class Facts:
    """What the words of a set of games are drawn from, read at once (`facts_for`)."""

    seats: dict[int, list[Seat]] = field(default_factory=dict)  # game id: its seats by number
    rounds: dict[int, Round] = field(default_factory=dict)  # running game id: its latest round
    saved: dict[int, set[int]] = field(default_factory=dict)  # round id: the seat ids that saved in it
    excused: dict[int, set[int]] = field(default_factory=dict)  # round id: the seat ids excused from it
    clocks: dict[int, TurnClock] = field(default_factory=dict)  # running live match id: its clock
    picks: dict[int, DeathMatchPick] = field(default_factory=dict)  # Main Match id: its pick
    decided_by: dict[int, DeathMatchPick] = field(default_factory=dict)  # Death Match id: its pick
    tokens: dict[int, list[LedgerEntry]] = field(default_factory=dict)  # finished game id: its ToL rows
    eliminated: set[tuple[int, int]] = field(default_factory=set)  # (season id, user id)
    # The games whose rounds the viewer may see into (who has saved): those they host; None, all of them.
    hosted: set[int] | None = None


def facts_for(games: list[Game], viewer=None) -> Facts:
    """Everything `outcome` and `next_step` say of `games` to `viewer` (None: a host of each), in at most
    nine queries whatever their number."""
    facts = Facts()
    if not games:
        return facts
    ids = [g.pk for g in games]
    if viewer is not None and not viewer.is_superuser:
        # A season's host who does not host a game is told when its round closes, not who has saved in it.
        facts.hosted = set(Game.objects.filter(pk__in=ids, hosts=viewer).values_list("pk", flat=True))
    for seat in Seat.objects.filter(game_id__in=ids).select_related("user__profile").order_by("number"):
        facts.seats.setdefault(seat.game_id, []).append(seat)
    running = [g.pk for g in games if g.status == Game.Status.RUNNING]
    if running:
        for rnd in Round.objects.filter(game_id__in=running).order_by("game_id", "number"):
            facts.rounds[rnd.game_id] = rnd  # the latest wins
        latest = [r.pk for r in facts.rounds.values()]
        saved = Submission.objects.filter(round_id__in=latest).values_list("round_id", "seat_id").distinct()
        for round_id, seat_id in saved:
            facts.saved.setdefault(round_id, set()).add(seat_id)
        excused = ExcusedRound.objects.filter(round_id__in=latest).values_list("round_id", "seat_id")
        for round_id, seat_id in excused:
            facts.excused.setdefault(round_id, set()).add(seat_id)
        clocks = TurnClock.objects.filter(game_id__in=running).select_related("seat__user__profile")
        facts.clocks = {clock.game_id: clock for clock in clocks}
    picks = DeathMatchPick.objects.filter(
        Q(main_match_id__in=ids) | Q(death_match_id__in=ids)
    ).select_related("candidate__profile", "opponent__profile", "death_match")
    for pick in picks:
        facts.picks[pick.main_match_id] = pick
        if pick.death_match_id:
            facts.decided_by[pick.death_match_id] = pick
    finished = [g.pk for g in games if g.status == Game.Status.FINISHED]
    if finished:
        tokens = LedgerEntry.objects.filter(game_id__in=finished, account__what="tokens_of_life")
        for entry in tokens.select_related("account__user__profile").order_by("pk"):
            facts.tokens.setdefault(entry.game_id, []).append(entry)
        out = SeasonPlayer.objects.filter(season_id__in={g.season_id for g in games}, eliminated=True)
        facts.eliminated = set(out.values_list("season_id", "user_id"))
    return facts


def when(moment: datetime) -> str:
    """A time as the consoles write it: "Sat 20:00 UTC", in the viewer's zone (the admin activates it)."""
    local = timezone.localtime(moment)
    return f"{local:%a %H:%M} {local.tzname()}"


def left(delta: timedelta) -> str:
    """How long until a deadline, roughly, as a host glances at it: "5 h", "40 min"."""
    minutes = max(int(delta.total_seconds() // 60), 0)
    return f"{minutes // 60} h" if minutes >= 60 else f"{minutes} min"


def default_start(now: datetime) -> datetime:
    """A Death Match's start time unless the host picks another: the next full hour a day on (in the
    viewer's zone), which gives both players a day's notice."""
    local = timezone.localtime(now).replace(minute=0, second=0, microsecond=0)
    return local + timedelta(hours=25)


DATETIME_INPUT = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends and shows


def console_link(game: Game) -> str:
    return reverse("admin:platform_game_change", args=[game.pk])


def outcome(game: Game, facts: Facts | None = None) -> str:
    """A finished game's outcome: "Finished: ann won 2 ToLs, cat 1; ivy is the EC" for a Main Match,
    "Finished: ann eliminated" for a Death Match; "" for a game not finished."""
    if game.status != Game.Status.FINISHED:
        return ""
    facts = facts or facts_for([game])
    kind = registry.get(game.game_type)
    if kind.match_kind == registry.DEATH_MATCH:
        return f"Finished: {_death_match_end(game, kind, facts)}"
    return f"Finished: {_tokens_won(facts.tokens.get(game.pk, []))}; {_candidate(facts.picks.get(game.pk))}"


def _tokens_won(entries: list[LedgerEntry]) -> str:
    won: dict = defaultdict(int)
    users = {}
    for entry in entries:
        if entry.delta > 0:
            won[entry.account.user_id] += entry.delta
            users[entry.account.user_id] = entry.account.user
    if not won:
        return "no Token of Life won"
    ranked = sorted(won, key=lambda uid: (-won[uid], users[uid].username))
    first = ranked[0]
    said = [f"{label(users[first])} won {won[first]} ToL{'s' * (won[first] != 1)}"]
    return ", ".join(said + [f"{label(users[uid])} {won[uid]}" for uid in ranked[1:]])


def _candidate(pick: DeathMatchPick | None) -> str:
    if pick is None:
        return "no Elimination Candidate named (the hosts decide)"
    return f"{label(pick.candidate)} is the EC"


def _death_match_end(game: Game, kind, facts: Facts) -> str:
    seats = {seat.number: seat for seat in facts.seats.get(game.pk, [])}
    loser = seats.get(kind.match_loser(game))
    if loser is None:
        return "no loser (the hosts decide)"
    name = label(loser.user)
    if game.pk not in facts.decided_by:
        return f"{name} lost (a match made by hand: nobody is eliminated)"
    if (game.season_id, loser.user_id) in facts.eliminated:
        return f"{name} eliminated"
    spent = any(e.delta < 0 and e.account.user_id == loser.user_id for e in facts.tokens.get(game.pk, []))
    if spent:
        return f"{name} lost and spent a Token of Life to stay"
    return f"{name} lost and is not eliminated (the hosts decided)"


def after_the_end(game: Game, now: datetime) -> dict:
    """A finished game's console lines: its `outcome` and its `next_step`, read once ({} while it runs)."""
    if game.status != Game.Status.FINISHED:
        return {}
    facts = facts_for([game])
    return {"outcome": outcome(game, facts), "next_step": next_step(game, now, facts)}


def next_step(game: Game, now: datetime, facts: Facts | None = None) -> Step:
    """The one thing that comes next for `game`, and the button or link that does it."""
    facts = facts or facts_for([game])
    kind = registry.get(game.game_type)
    if game.status in (Game.Status.DRAFT, Game.Status.SEEDING):
        return _draft(game, kind, facts)
    if game.status == Game.Status.RUNNING:
        if kind.flow == "rounds":
            return _rounds(game, kind, facts, now)
        return _live(game, facts, now)
    if kind.match_kind == registry.MAIN_MATCH:
        return _after_main_match(game, facts.picks.get(game.pk), now)
    return Step("Nothing: the season goes on.")


def _draft(game: Game, kind, facts: Facts) -> Step:
    seated = len(facts.seats.get(game.pk, []))
    if not kind.min_players <= seated <= kind.max_players:
        need = f"{kind.min_players} to {kind.max_players}"
        return Step(
            f"Seat players: {seated} seated, {kind.name} needs {need}.",
            link=console_link(game),
            link_words="Seat them",
            game_id=game.pk,
        )
    problems = kind.hidden_problems(game)
    if problems:
        return Step(
            f"Enter {kind.hidden_words}: {'; '.join(problems)}.",
            link=console_link(game),
            link_words="Its console",
            game_id=game.pk,
        )
    return Step(f"Ready: {seated} seated.", action="start", button="Start", game_id=game.pk)


def _rounds(game: Game, kind, facts: Facts, now: datetime) -> Step:
    rnd = facts.rounds.get(game.pk)
    link = {"link": console_link(game), "link_words": "Its console", "game_id": game.pk}
    if rnd is None:
        return Step("Running: no round is open yet.", **link)
    if rnd.status == Round.Status.FAILED:
        return Step(f"Round {rnd.number} failed: press Retry on its console.", **link)
    if rnd.status == Round.Status.RESOLVED:
        following = rnd.number + 1
        if opens_by_hand(game, following):
            return Step(
                f"Round {rnd.number} is resolved; Round {following} opens when a host opens it.",
                action="open_round",
                button=f"Open Round {following}",
                game_id=game.pk,
            )
        return Step(f"Round {rnd.number} is resolved; the next one opens.", **link)
    waiting = _waiting(game, kind, rnd, facts) if facts.hosted is None or game.pk in facts.hosted else ""
    if rnd.remaining_when_paused is not None:
        return Step(f"Paused: Round {rnd.number} keeps {left(rnd.remaining_when_paused)}{waiting}.", **link)
    if rnd.closes_at <= now:
        return Step(f"Round {rnd.number} closed {when(rnd.closes_at)} and waits to be resolved.", **link)
    return Step(f"Round {rnd.number} closes in {left(rnd.closes_at - now)}{waiting}.", **link)


def _waiting(game: Game, kind, rnd: Round, facts: Facts) -> str:
    """Who the open round waits for: " (4 not submitted)", or in a decision round " (ann decides)"."""
    # A seat the hosts excused from the round (issue 29.5) is not waited for.
    saved = facts.saved.get(rnd.pk, set()) | facts.excused.get(rnd.pk, set())
    owed = [(seat, kind.owed(game, seat, rnd)) for seat in facts.seats.get(game.pk, [])]
    owed = [(seat, what) for seat, what in owed if what is not None]
    missing = [seat for seat, _ in owed if seat.pk not in saved]
    if owed and all(what == "decision" for _, what in owed):
        if not missing:
            return " (decided)"
        names = ", ".join(label(seat.user) for seat in missing)
        return f" ({names} decide{'s' * (len(missing) == 1)})"
    return f" ({len(missing)} not submitted)" if missing else " (all submitted)"


def _live(game: Game, facts: Facts, now: datetime) -> Step:
    link = {"link": console_link(game), "link_words": "Its console", "game_id": game.pk}
    if game.sitting_down:
        return Step(sitting.waiting_words(game, facts.seats.get(game.pk, []), now), **link)
    if game.paused_at:
        return Step("Paused: every clock is stopped.", **link)
    clock = facts.clocks.get(game.pk)
    if clock is None or clock.seat_id is None:
        return Step("Running.", **link)
    return Step(f"Live: {label(clock.seat.user)} is to move ({clock.kind}).", **link)


def _after_main_match(game: Game, pick: DeathMatchPick | None, now: datetime) -> Step:
    if pick is None:
        return Step("No Elimination Candidate was named: the hosts decide who is eliminated.")
    ec = label(pick.candidate)
    ids = {"game_id": game.pk, "pick_id": pick.pk}
    if pick.status == DeathMatchPick.Status.OPEN:
        if pick.deadline > now:
            return Step(
                f"{ec} picks a Death Match opponent by {when(pick.deadline)}.",
                action="remind_pick",
                button="Remind",
                **ids,
            )
        override = reverse("admin:platform_deathmatchpick_change", args=[pick.pk])
        return Step(
            f"{ec} did not pick by {when(pick.deadline)}: set the opponent.",
            link=override,
            link_words="Set the opponent",
            **ids,
        )
    opponent = label(pick.opponent)
    if pick.status == DeathMatchPick.Status.PICKED:
        start_at = default_start(now).strftime(DATETIME_INPUT)
        return Step(
            f"Create the Death Match {ec} vs {opponent}.",
            action="create_death_match",
            button="Create and open it",
            start_at=start_at,
            **ids,
        )
    dm = pick.death_match
    if dm is None:  # deleted by hand since
        return Step(f"The Death Match {ec} vs {opponent} was made, then deleted: the hosts decide.", **ids)
    done = "is over" if dm.status == Game.Status.FINISHED else "is made"
    return Step(
        f"The Death Match {ec} vs {opponent} {done}.", link=console_link(dm), link_words="Its console", **ids
    )
