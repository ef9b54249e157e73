"""A game page's parts as rendered for a viewer: the context the templates read, and the rendering kept in
the page cache. The pages (views.py) and the live streams (stream.py) render through here, so a spectator's
stream carries exactly the part their page's fetch would bring (docs/live.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from . import live_push, pagecache, registry, round_form, zones
from .models import Game, Seat
from .observation import observe
from .registry import Viewer
from .services import unread
from .versions import game_row


def full_game(game_id: int, viewer):
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    if viewer.seat is not None:
        viewer.seat.game = game
    return game, viewer


def page_context(game, obs, form, viewer, look=None, feed=False) -> dict:
    token = pagecache.poll_token(game, viewer, look)
    rnd = obs["round"]
    return {
        "game": game,
        "obs": obs,
        "form": form,
        "problems": round_form.problems(form),
        # Which round (and in what state) the page's form belongs to, and the live part's: when a poll brings
        # another, the page's script replaces the form (static/js/site.js).
        "form_key": f"{rnd['number']}-{rnd['status']}-{obs['status']}-{rnd['paused']:d}" if rnd else "none",
        # A player's own unread chat messages: their body is kept under their own stamps, which a message
        # to them moves (services.unread); `feed`: the live partial, which updates the count in place.
        "chats_unread": unread.chats_unread_total(viewer.seat) if viewer.role == "player" else 0,
        "feed": feed,
        "state_template": registry.get(game.game_type).page_template,
        "form_after_state": registry.get(game.game_type).form_after_state,
        # The live partial's `v`: the public version, and the viewer's private stamps (game_feed).
        "poll": f"{obs['version']}-{token}" if token else str(obs["version"]),
        # Server push (docs/live.md): the page's event stream, and how often it still polls while the stream
        # is open (the safety net); without push the page polls at the game's own interval as before.
        "stream": f"{reverse('events')}?game={game.pk}" if live_push.enabled() else "",
        "safety_poll": settings.GENIUS_STREAM_SAFETY_POLL_SECONDS,
    }


def render_cacheable(request, template: str, context: dict, slot) -> SafeString:
    """Render a part of a game page; keep it in the page cache's `slot` (if any) with the CSRF token left
    as a placeholder, and give it back filled for this request. Its times are marks (`zones.LATER`): the
    body is shared by viewers in every zone, and each is served it with the times in their own."""
    return pagecache.fill(render_kept(request, template, context, slot), request)


def render_kept(request, template: str, context: dict, slot) -> str:
    """The part as the page cache keeps it (times as marks, the CSRF token a placeholder), kept in `slot`."""
    with timezone.override(zones.LATER):
        text = render_to_string(
            template, {**context, "csrf_token": pagecache.CSRF_PLACEHOLDER}, request=request
        )
    # A body with an open round's form and countdown is true until the deadline only: after it the page
    # says "closed, results coming" even if no resolution has moved the version yet.
    pagecache.keep(slot, text, until=open_until(context["obs"]))
    return text


def live_kept(request, game_id: int, viewer, look) -> str:
    """The live part of the game's page for `viewer`, as the page cache keeps it in `look`'s slot: what a
    poll's fetch brings (views.game_feed), and what a spectator's stream carries (spectators_live)."""
    game, seen_by = full_game(game_id, viewer)
    context = page_context(game, observe(game, seen_by), None, seen_by, look, feed=True)
    return render_kept(request, "platform/game.html#live", context, look.slot)


def open_until(obs: dict):
    """The deadline of the open, running round a body shows, after which it shows something else."""
    rnd = obs["round"]
    if rnd and rnd["status"] == "open" and not rnd["paused"]:
        return rnd["closes_at"]
    return None


@dataclass
class SpectatorsPart:
    """The live part every spectator of a game sees at one version, as the page cache keeps it (times as
    marks), and who may not be sent it: the game's players and hosts at that version."""

    version: int
    marked: str
    members: frozenset


def spectators_live(game_id: int, request, logged_in: bool) -> SpectatorsPart | None:
    """The live part of the game as its spectators see it now (logged in, or visitors): the body their
    fetch of the live part gets, kept once per version in the page cache and rendered by one of them.

    None when it can't be sent as it is: the game is gone, closed to visitors, or the body holds a form
    (its CSRF token is each request's own). The page is then told the version, and fetches.
    `request` is a spectator's of that kind (its user is the one the templates' context sees).
    """
    row = game_row(game_id)
    if row is None or (not row["public"] and not logged_in):
        return None
    light = Game(pk=game_id, **row)
    look = pagecache.Lookup(pagecache.spectators_slot(light, "live", logged_in), None, "spectator")
    members = (
        frozenset(light.seats.values_list("user_id", flat=True))
        | frozenset(light.hosts.values_list("pk", flat=True))
        if logged_in
        else frozenset()
    )
    marked = pagecache.kept_marked(look.slot)
    if marked is None:
        viewer = Viewer(role="spectator", user=request.user if logged_in else None)

        marked = pagecache.render_once_marked(look, lambda: live_kept(request, game_id, viewer, look))
    if marked is None or pagecache.CSRF_PLACEHOLDER in marked:
        return None
    return SpectatorsPart(row["version"], marked, members)


def _members(game_id: int) -> frozenset:
    """Who plays or hosts the game now (one query): a logged-in spectator's stream that finds its user
    among them has been seated or made a host since it opened, and is told the version instead (its page's
    fetch brings its own part)."""
    hosts = Game.hosts.through.objects.filter(game_id=game_id).values_list("user_id", flat=True)
    return frozenset(Seat.objects.filter(game_id=game_id).values_list("user_id", flat=True).union(hosts))
