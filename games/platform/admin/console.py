"""The host's console on a game's admin page: who is seated and how far each is, this round in the game's own
words, the verdicts it waits for, and one button per host action, each answering with what happened.

Only a host of the game reaches any of it: every view finds the game through the admin's own queryset (the
games this user hosts), so another game's host, or a season host who does not host this game, gets a 404.

A button's service commits, and then its words are read back (which round opened, what the game says now):
if reading them fails (the game's own code raising, the database gone since the commit), the press is still
answered as what it did (`told`), never a 500 for a change that was made; and a console the game's code
cannot describe still shows its buttons (`console_unreadable`), Retry and Pause first of all (issue 28.3).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils import timezone

from genius.clock import site_now

from .. import registry
from ..errors import NotAllowed, NotResolved, RoundClosed, StateChanged
from ..kit import RulesError
from ..models import Event, Game, Round, TurnClock
from ..next_step import after_the_end
from ..observation import current_round, reading, seats_with_players
from ..people import label
from ..reach.dispatch import unreachable_among
from ..reach.remind import deliver_now, what_reached
from ..registry import Viewer
from ..services import absence, rounds, sitting
from ..services import games as game_services
from ..services.audit import audit
from ..services.events import announcement_post
from ..services.live import operation_run
from ..services.reminders import reminder_send_now
from ..services.rounds import Resolution, latest_submissions
from . import absence as absence_forms
from .confirm import Button, ask_first, asks_first, confirming, question

log = logging.getLogger(__name__)

ANNOUNCE_CATEGORIES = [c for c in Event.Category.choices if c[0] != Event.Category.RESULT]


def when(moment) -> str:
    """A time as the host reads it on the console: "Mon 14:02 UTC" (the site's time zone)."""
    local = timezone.localtime(moment)
    return f"{local:%a %H:%M} {local.tzname()}"


def span(delta: timedelta) -> str:
    if delta.total_seconds() < 60:
        return f"{int(delta.total_seconds())} s"  # a live match's turn
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@dataclass
class SeatRow:
    number: int  # counted from 1, as hosts say it
    player: str
    status: str  # "final", "saved", "not submitted", "to move", "waiting", "seated"
    at: str = ""
    said: str = ""  # the submission (or nothing) in the game's own words
    unreachable: bool = False  # no way of the site's reaches this player: the host tells them


def _round_words(game: Game, rnd: Round | None, now) -> str:
    if rnd is None:
        return ""
    if rnd.status == Round.Status.FAILED:
        return (
            f"Round {rnd.number} failed after {rnd.attempts} attempts: fix the cause, then press Retry. "
            "Its traceback is below."
        )
    if rnd.status == Round.Status.RESOLVED:
        resolved = f"Round {rnd.number} was resolved {when(rnd.resolved_at)}."
        if game.status == Game.Status.RUNNING and rounds.opens_by_hand(game, rnd.number + 1):
            return f"{resolved} Round {rnd.number + 1} opens when you press Open Round {rnd.number + 1}."
        return resolved
    if rnd.remaining_when_paused is not None:
        return f"Round {rnd.number} is open; the game is paused with {span(rnd.remaining_when_paused)} left."
    if rnd.closes_at <= now:
        return f"Round {rnd.number} closed {when(rnd.closes_at)} and waits to be resolved."
    return f"Round {rnd.number} is open until {when(rnd.closes_at)} ({span(rnd.closes_at - now)} left)."


def _clock_words(player: str, clock: TurnClock, now) -> str:
    owes = f"{player} is to move ({clock.kind})"
    if clock.remaining_when_paused is not None:
        return f"{owes}; the game is paused with {span(clock.remaining_when_paused)} left."
    if clock.deadline is None:
        return f"{owes}."
    left = max(clock.deadline - now, timedelta(0))
    return f"{owes} until {when(clock.deadline)} ({span(left)} left, then the reserve)."


def console(game: Game, hidden_link: str = "") -> dict:
    """What the console shows of the game (its hosts' eyes only: the admin shows it to no one else).
    `hidden_link` is the page of the game's hidden data (a movement table, boards, a deal), if it has one."""
    kind = registry.get(game.game_type)
    now = site_now()
    with reading(game):
        seats = seats_with_players(game)
        rnd = current_round(game) if kind.flow == "rounds" else None
        rows = []
        turn_words = ""
        deciding = kind.deciders(game, rnd) if kind.flow == "rounds" and rnd is not None else None
        if kind.flow == "rounds" and rnd is not None:
            latest = latest_submissions(rnd)
            excused = absence.excused_seats(rnd)
            for seat in _deciding(seats, deciding):
                saved = latest.get(seat.number)
                if saved is None:
                    missed = "excused" if seat.number in excused else "not submitted"
                    rows.append(SeatRow(seat.number + 1, label(seat.user), missed))
                    continue
                rows.append(
                    SeatRow(
                        seat.number + 1,
                        label(seat.user),
                        "final" if saved.final else "saved",
                        when(saved.created_at),
                        kind.describe_submission(game, saved.payload),
                    )
                )
        elif kind.flow == "turns" and game.sitting_down:
            # The players sit down: no clock runs yet; who is here, and what the match waits for.
            for seat in seats:
                here = "here" if seat.here_at is not None else "not here yet"
                rows.append(SeatRow(seat.number + 1, label(seat.user), here))
            turn_words = sitting.waiting_words(game, seats, now)
        else:
            clock = TurnClock.objects.filter(game=game).first() if kind.flow == "turns" else None
            live = clock is not None and clock.seat_id is not None and game.status == Game.Status.RUNNING
            for seat in seats:
                status = "seated"
                if live:
                    status = f"to move ({clock.kind})" if clock.seat_id == seat.pk else "waiting"
                    if clock.seat_id == seat.pk:
                        turn_words = _clock_words(label(seat.user), clock, now)
                rows.append(SeatRow(seat.number + 1, label(seat.user), status))
        verdicts = kind.verdicts(game) if game.status == Game.Status.RUNNING else []
        unreached = unreachable_among([seat.user for seat in seats])
        for row in rows:
            row.unreachable = any(s.number + 1 == row.number and s.user_id in unreached for s in seats)
    missing = [r.player for r in rows if r.status == "not submitted"]
    counts = {s: sum(r.status == s for r in rows) for s in ("final", "saved", "not submitted")}
    open_round = rnd is not None and rnd.status == Round.Status.OPEN
    summary = "Seats"
    if rnd is not None:
        summary = f"Round {rnd.number}: " + ", ".join(f"{n} {status}" for status, n in counts.items())
        if deciding is not None:
            summary = f"{_decided_by(rnd, deciding, rows)} · {summary.split(': ', 1)[1]}"
    unstarted = game.status in (Game.Status.DRAFT, Game.Status.SEEDING)
    return {
        "kind": kind,
        "hidden_link": hidden_link if unstarted else "",
        "hidden_problems": kind.hidden_problems(game) if unstarted else [],
        "rows": rows,
        "round": rnd,
        "round_words": _round_words(game, rnd, now) or turn_words,
        "round_waits_for": rnd.last_error if open_round and rnd.attempts == 0 else "",
        "round_error": rnd.last_error if rnd is not None and rnd.attempts else "",
        "summary": summary,
        "missing": missing,
        "verdicts": [v for v in verdicts if v.given is None],
        "judged": [v for v in verdicts if v.given is not None],
        "buttons": _buttons(game, kind, rnd),
        "links": kind.console_links(game),
        "seated": f"{len(seats)} seated ({kind.min_players} to {kind.max_players} players)",
        "categories": ANNOUNCE_CATEGORIES,
        "can_remind": open_round and bool(missing),
        # A finished game's outcome and what comes next, as the season's console says them (next_step.py).
        **after_the_end(game, now),
    }


def _deciding(seats, deciding):
    """The seats the round asks anything of: those who decide it, where only some do."""
    return seats if deciding is None else [s for s in seats if s.number in deciding.seats]


def _decided_by(rnd: Round, deciding, rows) -> str:
    """ "Round 11, the winner's choice: ann decides" (the rows are the deciders' own)."""
    who = [r.player for r in rows]
    if not who:
        return f"Round {rnd.number}, {deciding.what}: nobody decides"
    names = ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0]
    return f"Round {rnd.number}, {deciding.what}: {names} decide{'s' * (len(who) == 1)}"


def console_unreadable(game: Game, exc: Exception) -> dict:
    """The console when describing the game failed: its round's line and its buttons, which need none of
    the game's own code, and a line saying what failed."""
    kind = registry.get(game.game_type)
    rnd = current_round(game) if kind.flow == "rounds" else None
    return {
        "kind": kind,
        "rows": [],
        "round": rnd,
        "round_words": _round_words(game, rnd, site_now()),
        "round_error": rnd.last_error if rnd is not None and rnd.attempts else "",
        "summary": "Seats",
        "buttons": _buttons(game, kind, rnd),
        "categories": ANNOUNCE_CATEGORIES,
        "unreadable": (
            f"The console could not read this game just now ({type(exc).__name__}: {exc}); the traceback is "
            "in the log. Its buttons still work."
        ),
    }


def _buttons(game: Game, kind, rnd: Round | None) -> list[Button]:
    """The host actions that make sense now, as (action, words, confirm); each answers what it did, whatever
    it is. `confirm` is the question an early or destructive action asks first (confirm.py), "" if none: the
    console shows such a button as a danger, and its first press shows the question instead of acting."""
    if game.status in (Game.Status.DRAFT, Game.Status.SEEDING):
        pairs = [("start", "Start")]
    elif game.status != Game.Status.RUNNING:
        pairs = []
    else:
        pairs = [("resume", "Resume")] if game.paused_at else [("pause", "Pause")]
        following = rnd.number + 1 if rnd is not None and rnd.status == Round.Status.RESOLVED else None
        if kind.flow == "rounds" and following and rounds.opens_by_hand(game, following):
            # No round is open, and the next waits for a host: nothing to extend or resolve, one to open.
            pairs.append(("open_round", f"Open Round {following}"))
        elif kind.flow == "rounds":
            pairs += [("extend_hour", "Extend 1 h"), ("extend_day", "Extend 24 h")]
            pairs.append(("resolve", "Resolve now"))
            if rnd is not None and rnd.status == Round.Status.FAILED:
                pairs.append(("retry", "Retry"))
    return [Button(action, words, question(game, action)) for action, words in pairs]


def _early(delta: timedelta) -> str:
    """How early a round closes, as a host counts it: "41 h", "1 h 20 min", "5 min"."""
    return f"{int(delta.total_seconds() // 3600)} h" if delta >= timedelta(hours=2) else span(delta)


def _not_submitted(game: Game, rnd: Round) -> list[str]:
    """Who has saved nothing for the round, among those it asks anything of."""
    deciding = registry.get(game.game_type).deciders(game, rnd)
    done = set(latest_submissions(rnd)) | absence.excused_seats(rnd)  # an excused seat is not waited for
    return [label(s.user) for s in _deciding(seats_with_players(game), deciding) if s.number not in done]


def _still(missing: list[str]) -> str:
    if not missing:
        return "Every player has submitted."
    if len(missing) == 1:
        return f"{missing[0]} has not submitted."
    return f"{len(missing)} players have not submitted."


@asks_first("resolve")
def _resolve_question(game: Game, fields) -> str:
    """Resolve now before the round's time is up: the round closes early, for everyone still writing."""
    rnd = _open_round(game)
    if rnd is None or game.status != Game.Status.RUNNING or game.paused_at:
        return ""  # nothing would close: the press is answered at once with why (a paused game waits)
    left = rnd.remaining_when_paused if rnd.remaining_when_paused is not None else rnd.closes_at - site_now()
    if left <= timedelta(0):
        return ""  # its time is up: closing it is what happens anyway
    asked = f"Close Round {rnd.number} now, {_early(left)} early?"
    try:
        return f"{asked} {_still(_not_submitted(game, rnd))}"
    except Exception:  # the game's own code (who decides) failing: the question, and the button, still stand
        log.exception("Who has not submitted to Round %s of game %s could not be read", rnd.number, game.pk)
        return asked


@asks_first("pause")
def _pause_question(game: Game, fields) -> str:
    if game.status != Game.Status.RUNNING or game.paused_at:
        return ""
    rnd = _open_round(game)
    keeps = ""
    if rnd is not None and rnd.closes_at > site_now():
        keeps = f" (Round {rnd.number} keeps its {_early(rnd.closes_at - site_now())} left)"
    return f"Pause {game.name}? Every clock stops until you press Resume{keeps}."


# -- what each button does, and the words it answers with ------------------------------------------------


def _open_round(game: Game) -> Round | None:
    return game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()


def told(done: str, words) -> str:
    """What a button that took effect answers: `words()`, what came of it read back, or, if reading it
    back fails, `done`: it was done all the same (the traceback goes to the log)."""
    try:
        return words()
    except Exception:
        log.exception("A host's action was stored, but what came of it could not be read back (%s)", done)
        return f"{done} What came of it could not be read back just now: reload this page to see it."


def start(request, game: Game) -> str:
    game = game_services.game_start(game=game, actor=request.user)

    def words():
        rnd = _open_round(game)
        if rnd is not None:
            return f"Started: Round {rnd.number} is open until {when(rnd.closes_at)}."
        return f"Started: {game.name} is running."

    return told("Started.", words)


def pause(request, game: Game) -> str:
    game_services.game_pause(game=game, actor=request.user)

    def words():
        rnd = _open_round(game)
        if rnd is not None and rnd.remaining_when_paused is not None:
            keeps = span(rnd.remaining_when_paused)
            return f"Paused: every clock is stopped; Round {rnd.number} keeps {keeps}."
        return "Paused: every clock is stopped."

    return told("Paused: every clock is stopped.", words)


def resume(request, game: Game) -> str:
    game_services.game_resume(game=game, actor=request.user)

    def words():
        rnd = _open_round(game)
        if rnd is not None:
            return f"Resumed: Round {rnd.number} closes {when(rnd.closes_at)}."
        return "Resumed."

    return told("Resumed.", words)


def _extend(request, game: Game, by: timedelta, words: str) -> str:
    rnd = game_services.round_extend(game=game, by=by, actor=request.user)
    if rnd.remaining_when_paused is not None:
        return f"Round {rnd.number} extended by {words}: {span(rnd.remaining_when_paused)} left when resumed."
    return f"Round {rnd.number} extended by {words}: it now closes {when(rnd.closes_at)}."


def extend_hour(request, game: Game) -> str:
    return _extend(request, game, timedelta(hours=1), "1 hour")


def extend_day(request, game: Game) -> str:
    return _extend(request, game, timedelta(hours=24), "24 hours")


def resolve(request, game: Game) -> str:
    rnd = _open_round(game)
    if rnd is None:
        raise StateChanged("Nothing to resolve: no round is open.")
    try:
        rounds.round_resolve_now(game=game, actor=request.user)
    except NotResolved as exc:
        if exc.outcome == Resolution.PAUSED:
            raise StateChanged("Nothing to resolve: the game is paused. Resume it first.") from exc
        if exc.outcome == Resolution.WAITING:
            waiting = [v for v in registry.get(game.game_type).verdicts(game) if v.given is None]
            if waiting:
                who = ", ".join(v.player for v in waiting)
                plural = "s" * (len(waiting) != 1)
                raise StateChanged(
                    f"Round {rnd.number} was not resolved: waiting for {len(waiting)} verdict{plural} "
                    f"({who}). Give them below; the round then resolves."
                ) from exc
        raise
    resolved = f"Round {rnd.number} resolved."
    return told(resolved, lambda: f"{resolved} {_after(game, rnd.number)}")


def _after(game: Game, number: int) -> str:
    game.refresh_from_db(fields=["status"])
    nxt = game.rounds.filter(number=number + 1).first()
    if nxt is not None:
        return f"Round {nxt.number} is open until {when(nxt.closes_at)}."
    return "The game is over." if game.status == Game.Status.FINISHED else ""


def open_round(request, game: Game) -> str:
    """A host's "Open Round N", for a round its game opens by hand: no question first (opening costs
    nothing; the round has its full window)."""
    rnd = game_services.round_open_by_hand(game=game, actor=request.user)
    return f"Round {rnd.number} is open until {when(rnd.closes_at)}."


def retry(request, game: Game) -> str:
    rnd = rounds.round_retry(game=game, actor=request.user)
    return f"Round {rnd.number} is open again: press Resolve now, or the sweep retries it."


def remind(request, game: Game) -> str:
    reminded = reminder_send_now(game=game, actor=request.user)

    def words():
        if not reminded.missing:
            return f"Nobody to remind: every player has submitted to Round {reminded.round.number}."
        return what_reached(deliver_now(reminded))  # sent now, after the commit

    return told("Reminded.", words)


def announce(request, game: Game) -> str:
    text = (request.POST.get("text") or "").strip()
    category = request.POST.get("category") or Event.Category.GENERAL
    if not text:
        raise RulesError("Write the announcement first.", field="text")
    if category not in dict(ANNOUNCE_CATEGORIES):
        raise RulesError("Pick a kind of announcement.", field="category")
    announcement_post(game=game, text=text, category=category, actor=request.user)
    audit(action="announce", actor=request.user, game=game)
    return f"Announcement posted ({dict(ANNOUNCE_CATEGORIES)[category].lower()})."


def verdict(request, game: Game) -> str:
    """A verdict the round waits for, given through the game's own operation; the round resolves once the
    last one it waited for is in (the game's operation sees to that, at its commit)."""
    kind = registry.get(game.game_type)
    try:
        seat_number = int(request.POST.get("seat"))
    except (TypeError, ValueError):
        raise RulesError("Name the seat whose verdict you give.", field="seat") from None
    answer = request.POST.get("answer")
    found = next((v for v in kind.verdicts(game) if v.seat_number == seat_number), None)
    if found is None or answer not in found.answers:
        raise StateChanged("That verdict is no longer waiting: the round moved on.")
    rnd = _open_round(game) or game.rounds.order_by("-number").first()
    viewer = Viewer(role="host", user=request.user)
    operation_run(game=game, viewer=viewer, name=found.operation, payload=found.answers[answer])
    given = f"Verdict given: {found.player}, {answer.lower()}."

    def words():
        rnd.refresh_from_db()
        if rnd.status == Round.Status.RESOLVED:
            return f"{given} Round {rnd.number} resolved. {_after(game, rnd.number)}"
        waiting = [v for v in kind.verdicts(game) if v.given is None]
        if waiting:
            return f"{given} Waiting for {len(waiting)} more verdict{'s' * (len(waiting) != 1)}."
        return given

    return told(given, words)


ACTIONS = {
    "start": start,
    "pause": pause,
    "resume": resume,
    "extend_hour": extend_hour,
    "extend_day": extend_day,
    "resolve": resolve,
    "retry": retry,
    "open_round": open_round,
    "remind": remind,
    "announce": announce,
    "verdict": verdict,
    "replace": absence_forms.replace,
    "excuse": absence_forms.excuse,
}


class HostConsole:
    """The console's routes on the game admin: POST admin/platform/game/<id>/host/<action>/."""

    change_form_template = "admin/platform/game/console.html"

    def hidden_link(self, game: Game) -> str:
        """The admin page of the game's hidden data, if its type has one (the game admin says which)."""
        return ""

    def get_urls(self):
        own = [
            path(
                "<path:object_id>/host/<str:action>/",
                self.admin_site.admin_view(self.host_action),
                name="platform_game_host",
            )
        ]
        return own + super().get_urls()

    def host_action(self, request, object_id, action):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        game = self.get_object(request, object_id)  # only the games this user hosts (superusers: all)
        if game is None or action not in ACTIONS or not self.has_change_permission(request, game):
            raise Http404("No such game, or not one you host.")
        asking = ask_first(request, game, action)
        if asking is not None:
            return asking
        try:
            messages.success(request, ACTIONS[action](request, game))
        except (RulesError, StateChanged, NotAllowed, RoundClosed) as exc:
            messages.error(request, exc.message)
        return HttpResponseRedirect(reverse("admin:platform_game_change", args=[game.pk]) + "#console")

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and obj.pk:
            try:
                context["console"] = console(obj, self.hidden_link(obj))
                kind, rnd = context["console"]["kind"], context["console"]["round"]
                context["console"]["absence"] = absence_forms.absence_forms(request, obj, kind, rnd)
            except Exception as exc:  # the game's own code, most likely: the buttons must still show
                log.exception("The console of game %s could not be read", obj.pk)
                context["console"] = console_unreadable(obj, exc)
            context["console"]["confirming"] = confirming(request, obj, context["console"]["buttons"])
        return super().render_change_form(request, context, add, change, form_url, obj)
