"""The season's console, above its form on the season's admin page: its players with their balances, and
every game of the season with its state and the one next step (next_step.py), each a button or a link.

Its buttons POST to admin/platform/season/<id>/console/<action>/: start a draft that is ready, remind an
Elimination Candidate who has not picked, and create the Death Match of a made pick, seated, timed and
opened for its players to sit down, in one press. Each answers with what happened and a link to it.

Only a host of the season reaches any of it: the season is found through the admin's own queryset (the
seasons this user hosts), so another season's host gets a 404, and the game a button names must be one of
this season's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from genius.clock import site_now

from .. import registry
from ..errors import NotAllowed, RoundClosed, StateChanged
from ..kit import RulesError
from ..models import DeathMatchPick, Game, Season, SeasonPlayer
from ..next_step import Step, facts_for, next_step, outcome, when
from ..people import label
from ..reach.dispatch import unreachable
from ..services import games as game_services
from ..services.death_match import death_match_open
from ..services.ledger import known_balances
from ..services.pick_reminders import pick_remind
from .console import told


@dataclass
class PlayerRow:
    name: str
    garnets: int
    tokens_of_life: int
    eliminated: bool


@dataclass
class GameRow:
    game: Game
    kind: str
    state: str  # "Running", or a finished game's outcome
    step: Step
    start_at: str = ""  # a Death Match to create: the start time in its field (proposed, or as typed)
    start_error: str = ""  # what was wrong with the start time typed, beside the field


def start_at_from(typed: str, now: datetime) -> datetime:
    """The start time the host typed (in their zone, as its field shows it), or a RulesError saying why."""
    try:
        naive = datetime.fromisoformat(typed.strip())
    except ValueError:
        raise RulesError(
            "Write the start time as a date and a time, like 2026-11-28 20:00.", field="start_at"
        ) from None
    moment = naive if naive.tzinfo else timezone.make_aware(naive, timezone.get_current_timezone())
    if moment <= now:
        raise RulesError(
            f"The start time {when(moment)} has passed: pick one in the future.", field="start_at"
        )
    return moment


def season_console(season: Season, viewer, now: datetime, typed: dict | None = None) -> dict:
    """What the console shows: `typed` is a start time sent back with its error ({"game": id, "start_at"})."""
    players = SeasonPlayer.objects.filter(season=season).select_related("user__profile")
    known = known_balances(season=season, viewer=viewer)  # without a running game's secret purchases
    rows = [
        PlayerRow(
            label(p.user),
            known.get((p.user_id, "garnets"), 0),
            known.get((p.user_id, "tokens_of_life"), 0),
            p.eliminated,
        )
        for p in sorted(players, key=lambda p: (p.eliminated, p.user.username))
    ]
    games = list(Game.objects.filter(season=season).order_by("created_at", "pk"))
    facts = facts_for(games, viewer)
    typed = typed or {}
    shown = []
    for game in games:
        row = GameRow(
            game,
            registry.get(game.game_type).name,
            outcome(game, facts) or game.get_status_display() + (" (paused)" if game.paused_at else ""),
            next_step(game, now, facts),
        )
        row.start_at = row.step.start_at
        if row.step.action == "create_death_match" and str(game.pk) == typed.get("game"):
            row.start_at = typed.get("start_at", "")
            try:
                start_at_from(row.start_at, now)
            except RulesError as exc:
                row.start_error = exc.message
        shown.append(row)
    return {"players": rows, "games": shown, "zone": timezone.get_current_timezone_name()}


# -- what each button does, and the words it answers with ------------------------------------------------


def start(request, game: Game):
    game = game_services.game_start(game=game, actor=request.user)
    started = format_html('Started <a href="{}">{}</a>.', _console(game), game.name)
    # Started it is, even if its next step cannot be read back just now (console.told).
    return told(started, lambda: format_html("{} {}", started, next_step(game, site_now()).words))


def remind_pick(request, game: Game):
    pick = _pick(game)
    reminded = pick_remind(pick=pick, actor=request.user)
    ec = label(pick.candidate)
    how = "a line in their inbox and a message"
    if not reminded.emailed:
        how = "a line in their inbox (no message: they turned reminders off)"
    elif unreachable(pick.candidate):
        how = "a line in their inbox (no message: the site has no way to reach them; tell them yourself)"
    return format_html(
        'Reminded {} to pick a Death Match opponent by {}: {}. <a href="{}">See the pick</a>',
        ec,
        when(pick.deadline),
        how,
        reverse("death-match-pick", args=[game.pk]),
    )


def create_death_match(request, game: Game):
    pick = _pick(game)
    start_at = start_at_from(request.POST.get("start_at") or "", site_now())
    dm = death_match_open(pick=pick, actor=request.user, start_at=start_at)
    return told(
        format_html('Created <a href="{}">{}</a>.', _console(dm), dm.name),
        lambda: _created(pick, dm, start_at),
    )


def open_round(request, game: Game):
    rnd = game_services.round_open_by_hand(game=game, actor=request.user)
    return format_html(
        'Opened Round {} of <a href="{}">{}</a>: open until {}.',
        rnd.number,
        _console(game),
        game.name,
        when(rnd.closes_at),
    )


def _created(pick: DeathMatchPick, dm: Game, start_at: datetime) -> str:
    pick.refresh_from_db()
    if dm.status == Game.Status.DRAFT:  # its hosts set it up first (death_match_open)
        problems = registry.get(dm.game_type).hidden_problems(dm)
        return format_html(
            'Created <a href="{}">{}</a>: {} vs {}, seated. Before it can start: {}. Set it up from its '
            "console, then press Start.",
            _console(dm),
            dm.name,
            label(pick.candidate),
            label(pick.opponent),
            "; ".join(p.rstrip(".") for p in problems),
        )
    return format_html(
        'Created <a href="{}">{}</a>: {} vs {}, seated and open for them to sit down; its clocks start {}.',
        _console(dm),
        dm.name,
        label(pick.candidate),
        label(pick.opponent),
        when(start_at),
    )


def create_question(game: Game, typed_start: str) -> str:
    """What "Create the Death Match" asks first: it seats two players and tells them, which no press undoes
    here (issue 29.4: a destructive action asks, naming its consequence)."""
    pick = _pick(game)
    if pick.opponent_id is None or pick.death_match_id:
        return ""  # nothing to create: the press is answered at once, with why
    start_at = start_at_from(typed_start, site_now())
    return (
        f"Create the Death Match {label(pick.candidate)} vs {label(pick.opponent)}, its clocks starting "
        f"{when(start_at)}? Both are seated and told at once."
    )


def _pick(game: Game) -> DeathMatchPick:
    pick = DeathMatchPick.objects.select_related("candidate__profile", "opponent__profile").filter(
        main_match=game
    )
    if not pick.exists():
        raise StateChanged(f"{game.name} has no Death Match pick.")
    return pick.get()


def _console(game: Game) -> str:
    return reverse("admin:platform_game_change", args=[game.pk])


ACTIONS = {
    "start": start,
    "remind_pick": remind_pick,
    "create_death_match": create_death_match,
    "open_round": open_round,
}


class SeasonConsole:
    """The console's routes on the season admin: POST admin/platform/season/<id>/console/<action>/."""

    change_form_template = "admin/platform/season/console.html"

    def get_urls(self):
        own = [
            path(
                "<path:object_id>/console/<str:action>/",
                self.admin_site.admin_view(self.season_action),
                name="platform_season_console",
            )
        ]
        return own + super().get_urls()

    def season_action(self, request, object_id, action):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        season = self.get_object(request, object_id)  # only the seasons this user hosts (superusers: all)
        if season is None or action not in ACTIONS or not self.has_change_permission(request, season):
            raise Http404("No such season, or not one you host.")
        game = Game.objects.filter(season=season, pk=_number(request.POST.get("game"))).first()
        back = reverse("admin:platform_season_change", args=[season.pk])
        if game is None:
            messages.error(request, "That game is not in this season.")
            return HttpResponseRedirect(back)
        try:
            if action == "create_death_match" and request.POST.get("confirm") != "yes":
                asked = create_question(game, request.POST.get("start_at") or "")
                if asked:
                    query = {"confirm": action, "game": game.pk, "start_at": request.POST.get("start_at", "")}
                    return HttpResponseRedirect(f"{back}?{_encoded(query)}#season-console")
            messages.success(request, ACTIONS[action](request, game))
        except (RulesError, StateChanged, NotAllowed, RoundClosed) as exc:
            messages.error(request, exc.message)
            if getattr(exc, "field", None) == "start_at":
                # The start time comes back as typed, its error beside it (the console reads it again).
                query = {"game": game.pk, "start_at": request.POST.get("start_at", "")}
                return HttpResponseRedirect(f"{back}?{_encoded(query)}#game-{game.pk}")
        return HttpResponseRedirect(back)  # the answer above the console, both at the top of the page

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and obj.pk:
            typed = {k: request.GET[k] for k in ("game", "start_at") if k in request.GET}
            context["season_console"] = season_console(obj, request.user, site_now(), typed)
            context["season_console"]["confirming"] = _confirming(request, obj)
        return super().render_change_form(request, context, add, change, form_url, obj)


def _confirming(request, season: Season) -> dict | None:
    """The question at the console's top when a press waits to be confirmed (?confirm=create_death_match)."""
    if request.GET.get("confirm") != "create_death_match":
        return None
    game = Game.objects.filter(season=season, pk=_number(request.GET.get("game"))).first()
    if game is None:
        return None
    try:
        asked = create_question(game, request.GET.get("start_at") or "")
    except (RulesError, StateChanged):
        return None  # moved on meanwhile (made, or its time passed): its row says what now
    if not asked:
        return None
    fields = [("game", str(game.pk)), ("start_at", request.GET.get("start_at", ""))]
    return {"action": "create_death_match", "question": asked, "fields": fields}


def _number(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _encoded(query: dict) -> str:
    from urllib.parse import urlencode

    return urlencode(query)
