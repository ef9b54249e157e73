"""The pages: home, a game (form, feed, inbox, state), its live feed partial, a season's standings.

Every page takes game data from the observation. A POST is told apart by its button's name.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, Sum
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, HttpResponseStopPolling

from . import game_parts, live_push, pagecache, presence, registry, round_form, shell
from .awaiting import awaiting
from .demo import demo_logins
from .errors import Busy, NotAllowed, RoundClosed, StateChanged
from .kit import RulesError
from .models import (
    DeathMatchPick,
    Game,
    LedgerAccount,
    LedgerEntry,
    Season,
    SeasonPlayer,
)
from .observation import (
    history,
    observe,
    reading,
    seats_with_players,
    viewer_or_404,
    visible_games,
)
from .people import shown_name
from .reach import prefs
from .services import games as game_services
from .services import live, sitting, unread
from .services.chat import chat_access, chat_messages, chat_post, chat_read, pair, require_player
from .services.season import pick_options, pick_submit, season_setting, season_transfer
from .versions import game_row
from .wording import Told, names_for, plain, seats_as_users

log = logging.getLogger(__name__)


def healthz(request):
    """A bare answer through the same middleware: the health check and the benchmark's ceiling."""
    return HttpResponse("ok", content_type="text/plain")


def _user_stream() -> str:
    """The logged-in user's event stream (their chats and counts: docs/live.md), when the site pushes."""
    return reverse("events") if live_push.enabled() else ""


def home(request):
    if request.htmx and request.GET.get("part") == "awaiting" and request.user.is_authenticated:
        needs = awaiting(request.user)
        context = {"awaiting": needs, "awaiting_count": len(needs), "stream": _user_stream()}
        context["safety_poll"] = settings.GENIUS_STREAM_SAFETY_POLL_SECONDS
        return render(request, "platform/home.html#awaiting", context)
    games = visible_games(request.user).select_related("season").order_by("-id")
    mine, hosting, needs = [], [], []
    if request.user.is_authenticated:
        needs = awaiting(request.user)
        mine = list(games.filter(seats__user=request.user))
        hosting = list(games.filter(hosts=request.user))
    return render(
        request,
        "platform/home.html",
        {
            "awaiting": needs,
            "awaiting_count": len(needs),
            "stream": _user_stream(),
            "safety_poll": settings.GENIUS_STREAM_SAFETY_POLL_SECONDS,
            "mine": mine,
            "hosting": hosting,
            "games": games[:50],
            "seasons": Season.objects.order_by("-id")[:20],
            "demo_logins": demo_logins(),
        },
    )


@require_http_methods(["GET", "POST"])
def game_page(request, game_id: int):
    if request.method == "GET" and not request.htmx:
        return _game_page_read(request, game_id)
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer = viewer_or_404(game, request.user)
    refused = None
    if request.method == "POST" and request.htmx and "here" in request.POST:
        return _here_in_place(request, game, viewer)
    if request.method == "POST":
        refused = _handle_post(request, game, viewer)
        if refused is None:
            back = request.POST.get("next", "")
            # A form on another page of this game (a pair chat) sends the player back there.
            if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
                return redirect(back)
            return redirect(reverse("game", args=[game.id]))
        game.refresh_from_db()
    with reading(game):
        obs = observe(game, viewer)
        form = refused.form if refused and refused.form else round_form.form_for(game, viewer, obs)
        context = game_parts.page_context(game, obs, form, viewer)
    if refused is not None:
        context["late"] = refused.late
    if request.htmx and request.htmx.target == "round-form":
        # The page's script asks for the form of the round open now; `closed` names the round whose form
        # it replaces, for the notice that says what became of it.
        closed = request.GET.get("closed", "")
        if closed.isdigit():
            context["round_notice"] = round_form.closed_notice(game, viewer, int(closed))
        return render(request, "platform/game.html#round_form", context)
    # A form with errors is this request's own: it is never cached.
    body = game_parts.render_cacheable(request, "platform/game.html#body", context, None)
    status = 200 if refused is None else 409 if refused.conflict else 400
    response = render(request, "platform/game_page.html", {"title": game.name, "body": body}, status=status)
    return _retry_later(response, refused.retry_after if refused else None)


def _retry_later(response, seconds: int | None):
    """A refusal because the game was busy says when the same request may be sent again."""
    if seconds is not None:
        response["Retry-After"] = str(seconds)
    return response


def _game_page_read(request, game_id: int):
    """A game page as most requests ask for it: from the page cache when this viewer's body is kept.

    The game's version comes from game_row (the shared cache, as the feed's does); the game itself is read
    only to render a body the cache does not hold.
    """
    light = _light_game(game_id)
    viewer, look = _cached_part(request, light, "page")
    body = look.body
    if body is None:
        viewer = viewer or viewer_or_404(light, request.user)

        def page_body():
            game, seen_by = game_parts.full_game(game_id, viewer)
            with reading(game):
                obs = observe(game, seen_by)
                context = game_parts.page_context(
                    game, obs, round_form.form_for(game, seen_by, obs), seen_by, look
                )
            return game_parts.render_cacheable(request, "platform/game.html#body", context, look.slot)

        body = pagecache.render_once(look, request, page_body)  # a page many open at once: one render
    _inbox_seen(request, light, viewer, look)
    return shell.game_page(request, light.name, body)


def _inbox_seen(request, light: Game, viewer, look) -> None:
    """A player looking at the game's page has read the results it shows ("results are in your inbox").
    The mark of the last version seen came with the page cache's lookup (`_cached_part`), when it did."""
    if (viewer.role if viewer is not None else look.role) == "player":
        key = unread.inbox_key(light.pk, request.user.pk)
        marked = {"marked": look.along[key]} if key in look.along else {}
        unread.inbox_opened(game_id=light.pk, user_id=request.user.pk, version=light.version, **marked)


def _cached_part(request, light: Game, part: str):
    """(the viewer if the database was asked, the page cache's lookup) for `part` of a game's page.

    When the cache has no body for the role it remembers, the database says who the viewer is, and the
    lookup is made again with that viewer: the slot a new body goes to is always the rendered role's."""
    user = request.user if request.user.is_authenticated else None
    viewer = None
    if user is None:
        viewer = viewer_or_404(light, request.user)  # no query: a game closed to visitors is a 404
    # A player's page also asks whether they have seen this version's results: read in the same round trip.
    along = (unread.inbox_key(light.pk, user.pk),) if user is not None else ()
    look = pagecache.find(light, user, part, request, along=along)
    if look.role is None and user is not None:
        viewer = viewer_or_404(light, request.user)
        look = pagecache.find(light, user, part, request, viewer=viewer, along=along)
    return viewer, look


def _light_game(game_id: int) -> Game:
    """The game as far as its row in game_row goes (id, version, name, season, status, public): unsaved."""
    row = game_row(game_id)
    if row is None:
        raise Http404("No such game.")
    return Game(pk=game_id, **row)


def _told_text(game, told: list[str]) -> str:
    """What an operation told the acting player, in their words: the rules name players by seat
    ("{seat:1}"), which the inbox names when it is read; a confirmation is read at once, so name them now."""
    if not any("{" in text for text in told):
        return " ".join(told)
    users_by_seat = dict(game.seats.values_list("number", "user_id"))
    texts = [seats_as_users(text, users_by_seat) for text in told]
    names = names_for(texts)
    return " ".join(plain(text, names) for text in texts)


def _handle_post(request, game, viewer):
    """Do what the pressed button asks; return what to show again (round_form.Refused), or None when done
    (a message then says what happened, the player's own inbox lines for an operation). A game too busy to
    take a move, an operation or a host's button is answered at once (409, Retry-After), not redirected: the
    page says to press it again in a moment."""
    try:
        if "save" in request.POST or "save_final" in request.POST:
            return round_form.save(request, game, viewer)
        if "action" in request.POST:
            if viewer.role != "player":
                raise NotAllowed("Only a player of this game can move.")
            live.action_apply(seat=viewer.seat, payload=json.loads(request.POST["action"]))
        elif "here" in request.POST:
            _say_here(viewer)
            messages.success(request, "You are here. The clocks start when everyone is.")
        elif "host" in request.POST:
            messages.success(request, _host_action(request, game, viewer))
        elif "op" in request.POST:
            if viewer.role == "spectator":
                raise NotAllowed("Spectators cannot act in a game.")
            payload = json.loads(request.POST.get("op_payload") or "{}")
            payload.update(
                {k[3:]: v for k, v in request.POST.items() if k.startswith("op_") and k != "op_payload"}
            )
            told: list[str] = []
            live.operation_run(game=game, viewer=viewer, name=request.POST["op"], payload=payload, told=told)
            messages.success(request, _told_text(game, told) or "Done.")
        else:
            messages.error(request, "Nothing was asked of the page.")
    except Busy as exc:
        messages.error(request, exc.message)
        return round_form.Refused(conflict=True, retry_after=exc.retry_after)
    except (RulesError, RoundClosed, StateChanged, NotAllowed) as exc:
        messages.error(request, exc.message)
    except (ValueError, TypeError, RecursionError):
        # RecursionError: a move's JSON nested thousands deep (the API's parser refuses it past 32 levels).
        messages.error(request, "That request was not understood.")
    return None


def _say_here(viewer) -> None:
    """The viewer says "I'm here" (the page's button, with or without its script)."""
    if viewer.role != "player":
        raise NotAllowed("Only a player seated in this game can say they are here.")
    sitting.here_say(seat=viewer.seat)


def _here_in_place(request, game, viewer):
    """ "I'm here" pressed on a page with its script: answered with the live part as this viewer sees it now
    (who is here, the clock once it starts), or with the refusal written beside the button. If the live part
    cannot be shown after "I'm here" was stored (the game's code raising), the page is reloaded with a line
    saying it was: never a 500 for a change that was made (issue 28.3)."""
    error = None
    try:
        _say_here(viewer)
    except (StateChanged, NotAllowed) as exc:
        error = exc.message
    try:
        game, viewer = game_parts.full_game(game.pk, viewer)
        context = game_parts.page_context(game, observe(game, viewer), None, viewer, feed=True)
        context["sitting_error"] = error
        return HttpResponse(game_parts.render_cacheable(request, "platform/game.html#live", context, None))
    except Exception:
        if error is not None:
            raise  # nothing was stored: the error is the answer
        log.exception("'I'm here' was stored for game %s, but its live part could not be shown", game.pk)
        messages.success(request, "You are here. The clocks start when everyone is.")
        return HttpResponseClientRefresh()


def _host_action(request, game, viewer) -> str:
    """A host's button on the game's page (a live match: pause, resume, give an absent player's seat); the
    services check that the viewer hosts the game. Returns what happened, in words."""
    if viewer.role != "host":
        raise NotAllowed("Only a host of this game can do that.")
    action = request.POST["host"]
    if action == "pause":
        game_services.game_pause(game=game, actor=request.user)
        return "Paused: every clock is stopped."
    if action == "resume":
        game_services.game_resume(game=game, actor=request.user)
        return "Resumed: the clocks run again."
    if action == "replace":
        seat = request.POST.get("seat", "")
        if not seat.isdigit():
            raise RulesError("Choose the seat to give.", field="seat")
        username = request.POST.get("username", "").strip()
        given = sitting.seat_replace(game=game, seat_number=int(seat), username=username, actor=request.user)
        return f"Seat {given.number + 1} is now {shown_name(given.user)}'s, who is here."
    raise RulesError("The hosts have no such button here.", field="host")


def game_feed(request, game_id: int):
    """The live part of a game page, polled by htmx: 204 when nothing changed since version `v`."""
    row = game_row(game_id)
    if row is None or (not row["public"] and not request.user.is_authenticated):
        # A game closed to visitors is a 404 to them, "nothing new" included: that would confirm it exists.
        return HttpResponse(status=404)
    if request.GET.get("seen") == "1" and (user_id := request.session.get(SESSION_KEY)):
        presence.seen(user_id, game_id, True)  # a visible page polled: its player is watching (cache only)
    version, _, token = request.GET.get("v", "").partition("-")
    if version == str(row["version"]) and row["status"] != Game.Status.FINISHED:
        # A spectator's `v` is the public version; a player's or a host's also names their private stamps
        # (pagecache.poll_token), checked against the session's user without reading it from the database.
        if not token or pagecache.poll_current(
            game_id, row["season_id"], token, request.session.get(SESSION_KEY)
        ):
            return HttpResponse(status=204)
    light = Game(pk=game_id, **row)
    viewer, look = _cached_part(request, light, "live")
    body = look.body
    if body is None:
        viewer = viewer or viewer_or_404(light, request.user)

        def live_part():
            return pagecache.fill(game_parts.live_kept(request, game_id, viewer, look), request)

        # Pushed, every spectator asks at once: one renders, the others are given its body.
        body = pagecache.render_once(look, request, live_part)
    _inbox_seen(request, light, viewer, look)
    response = HttpResponse(body)
    if light.status == Game.Status.FINISHED and version == str(row["version"]):
        return HttpResponseStopPolling()
    return response


def season_page(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    # A visitor who is not logged in is told of the public games only, as the game pages answer them.
    games = visible_games(request.user).filter(season=season)
    played = Q(user__seats__game__season=season)
    if not request.user.is_authenticated:
        played &= Q(user__seats__game__public=True)
    members = (
        SeasonPlayer.objects.filter(season=season)
        .select_related("user__profile")
        .annotate(games_played=Count("user__seats", filter=played, distinct=True))
    )
    totals = {
        (row["user_id"], row["what"]): row["total"]
        for row in LedgerAccount.objects.filter(season=season, game__isnull=True)
        .values("user_id", "what")
        .annotate(total=Sum("balance"))
    }
    # What a game still running moved (a card bought, a wild card bought in secret) shows when it ends:
    # the public standings would otherwise tell who spent what, and when.
    for row in (
        LedgerEntry.objects.filter(account__season=season, account__game__isnull=True, game__isnull=False)
        .exclude(game__status=Game.Status.FINISHED)
        .values("account__user_id", "account__what")
        .annotate(moved=Sum("delta"))
    ):
        key = (row["account__user_id"], row["account__what"])
        totals[key] = totals.get(key, 0) - row["moved"]
    standings = sorted(
        (
            {
                "player": shown_name(m.user),
                "username": m.user.username,  # what the transfer form posts
                "user_id": m.user_id,
                "eliminated": m.eliminated,
                "games": m.games_played,
                "garnets": totals.get((m.user_id, "garnets"), 0),
                "tokens_of_life": totals.get((m.user_id, "tokens_of_life"), 0),
            }
            for m in members
        ),
        key=lambda r: (r["eliminated"], -r["tokens_of_life"], -r["garnets"], r["player"].lower()),
    )
    return render(
        request,
        "platform/season.html",
        {
            "season": season,
            "standings": standings,
            "games": games.select_related("death_match_pick").order_by("-id"),
            "transfers": season_setting(season, "transfers_allowed"),
        },
    )


@login_required
def my_ledger(request, season_id: int):
    """The user's own ledger rows in a season: only the owner (and hosts, in the admin) read them."""
    season = get_object_or_404(Season, pk=season_id)
    entries = list(
        LedgerEntry.objects.filter(account__season=season, account__user=request.user)
        .select_related("account", "game")
        .order_by("-id")[:500]
    )
    names = names_for(e.reason for e in entries)  # who a reason names, as they are called now
    for entry in entries:
        entry.why = Told(entry.reason, names)
    return render(request, "platform/ledger.html", {"season": season, "entries": entries})


def _history_or_404(request, game_id: int):
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer = viewer_or_404(game, request.user)
    if game.status != Game.Status.FINISHED and viewer.role != "host":
        raise Http404("The history opens when the game ends.")
    return game, viewer


def game_history(request, game_id: int):
    """After the end: every event round by round, revealed, with the hidden data and its commitment check."""
    game, viewer = _history_or_404(request, game_id)
    data = history(game)
    by_round: dict = {}
    for event in data["events"]:
        by_round.setdefault(event["round"], []).append(event)
    timeline = sorted(by_round.items(), key=lambda item: -1 if item[0] is None else item[0])
    return render(
        request,
        "platform/history.html",
        {
            "game": game,
            "data": data,
            "timeline": timeline,
            "obs": observe(game, viewer),
            "state_template": registry.get(game.game_type).page_template,
            "form_after_state": registry.get(game.game_type).form_after_state,
            "hidden_json": json.dumps(data["hidden_data"], indent=1, sort_keys=True),
        },
    )


def game_export(request, game_id: int):
    """The whole game as JSON, for archives and for anyone who wants to replay it."""
    game, _ = _history_or_404(request, game_id)
    response = JsonResponse(history(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="genius-game-{game.id}.json"'
    return response


def chat_list(request, game_id: int):
    """The pair chats the viewer may open: a player's with each other player; a host's, every pair."""
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer = viewer_or_404(game, request.user)
    seats = seats_with_players(game)
    counts = {}
    if viewer.role == "player":
        # Each chat under its one address (the lower seat first), with what the player has not read in it.
        counts = unread.chats_unread(viewer.seat)
        chats = [(*pair(viewer.seat, other), other, counts.get(other.pk, 0)) for other in seats]
        chats = [chat for chat in chats if chat[2].pk != viewer.seat.pk]
    elif viewer.role == "host":
        chats = [(a, b, None, 0) for i, a in enumerate(seats) for b in seats[i + 1 :]]
    else:
        raise Http404("Pair chats are private.")
    return render(request, "platform/chat_list.html", {"game": game, "chats": chats, "viewer": viewer})


@require_http_methods(["GET", "POST"])
def chat_page(request, game_id: int, a: int, b: int):
    """A pair chat, at one address whoever opens it: the lower seat first (`2-0` sends to `0-2`). Opening it
    reads it: the player's unread count of this chat goes to 0."""
    if a > b:
        if request.method == "GET":
            there = reverse("chat", args=[game_id, b, a])
            query = request.META.get("QUERY_STRING")
            return redirect(f"{there}?{query}" if query else there, permanent=True)
        a, b = b, a
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer = viewer_or_404(game, request.user)
    seat_a, seat_b = chat_access(game, viewer, a, b)
    error, draft, busy = None, "", None
    if request.method == "POST":
        try:
            me = require_player(viewer)
            other = seat_b if me.pk == seat_a.pk else seat_a
            chat_post(game=game, author_seat=me, other_seat=other, text=request.POST.get("text", ""))
            if not request.htmx:
                return redirect("chat", game_id=game.id, a=a, b=b)
        except (RulesError, StateChanged, NotAllowed) as exc:
            error, draft, busy = exc.message, request.POST.get("text", ""), round_form.retry_after(exc)
    messages_ = list(chat_messages(game=game, seat_a=seat_a, seat_b=seat_b))
    chat_read(viewer, seat_a, seat_b)
    game.refresh_from_db(fields=["chats_muted", "version"])
    kind = registry.get(game.game_type)
    context = {
        "game": game,
        "seat_a": seat_a,
        "seat_b": seat_b,
        "chat": messages_,
        "viewer": viewer,
        "error": error,
        "draft": draft,
        "pair_template": kind.pair_template,
        "obs": observe(game, viewer) if kind.pair_template else None,
        "stream": _user_stream(),
        "safety_poll": settings.GENIUS_STREAM_SAFETY_POLL_SECONDS,
    }
    if request.htmx and request.htmx.target == "chat-messages":
        return render(request, "platform/chat.html#messages", context)
    status = 409 if busy else 400 if error else 200
    return _retry_later(render(request, "platform/chat.html", context, status=status), busy)


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request):
    """Which messages the user gets, and by which ways (reach/prefs.py)."""
    if request.method == "POST":
        prefs.choices_save(request.user, request.POST)
        messages.success(request, "Saved.")
        return redirect("notification-settings")
    return _reach_page(request)


@login_required
@require_POST
def notification_test(request):
    """ "Send me a test" by one way, to the user themself; ticks they had not saved stay as ticked."""
    channel = request.POST.get("test", "")
    reached, said = prefs.test_send(request.user, channel)
    if channel not in {column.name for column in prefs.columns(request.user)}:
        messages.error(request, said)  # no column to say it beside
        return _reach_page(request, posted=request.POST, status=400)
    return _reach_page(request, posted=request.POST, tested=(channel, reached, said))


def _reach_page(request, posted=None, tested=None, status=200):
    context = {
        "columns": prefs.columns(request.user),
        "rows": prefs.grid(request.user, posted),
        "tested": tested,
        "digest": prefs.digest_chosen(request.user, posted),
        "digest_hour": settings.GENIUS_DIGEST_HOUR,
    }
    return render(request, "platform/notifications.html", context, status=status)


@require_http_methods(["GET", "POST"])
def death_match_pick(request, game_id: int):
    """The Elimination Candidate picks an opponent before the deadline; everyone else sees where it stands."""
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer_or_404(game, request.user)
    pick = get_object_or_404(
        DeathMatchPick.objects.select_related("candidate__profile", "opponent__profile"), main_match=game
    )
    error, busy = None, None
    options = pick_options(pick)
    if request.method == "POST":
        chosen = next((u for u in options if str(u.pk) == request.POST.get("opponent")), None)
        try:
            if chosen is None:
                raise RulesError("Pick one of the players listed.", field="opponent")
            pick_submit(pick=pick, user=request.user, opponent=chosen)
            messages.success(request, f"You picked {shown_name(chosen)}.")
            return redirect("death-match-pick", game_id=game.id)
        except (RulesError, RoundClosed, StateChanged, NotAllowed) as exc:
            error, busy = exc.message, round_form.retry_after(exc)
    response = render(
        request,
        "platform/pick.html",
        {
            "game": game,
            "pick": pick,
            "options": options,
            "error": error,
            "is_candidate": request.user.is_authenticated and request.user.pk == pick.candidate_id,
        },
        status=409 if busy else 400 if error else 200,
    )
    return _retry_later(response, busy)


@login_required
@require_http_methods(["POST"])
def season_transfer_view(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    from django.contrib.auth import get_user_model

    receiver = get_user_model().objects.filter(username=request.POST.get("to", "")).first()
    try:
        if receiver is None:
            raise RulesError("No player has that name.", field="to")
        amount = int(request.POST.get("amount", "0") or 0)
        season_transfer(season=season, sender=request.user, receiver=receiver, what="garnets", amount=amount)
        messages.success(request, f"You gave {amount} garnets to {shown_name(receiver)}.")
    except (RulesError, StateChanged, NotAllowed) as exc:  # Busy included: the page says to try again
        messages.error(request, exc.message)
    except ValueError:
        messages.error(request, "Give a whole number of garnets.")
    return redirect("season", season_id=season.id)
