"""The move form's page: an attack or a redirect from a form, applied by the platform's live service."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.platform import registry
from games.platform.errors import NotAllowed, StateChanged
from games.platform.kit import RulesError
from games.platform.models import Game
from games.platform.observation import observe, viewer_or_404
from games.platform.services import live

from .forms import decision_form


@require_POST
def move(request, game_id: int):
    """Apply the viewer's decision from its form; on an error show the page again as typed."""
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer = viewer_or_404(game, request.user)
    if viewer.role != "player":
        messages.error(request, "Only a player of this game can move.")
        return redirect("game", game_id=game.id)
    obs = observe(game, viewer)
    form = decision_form(obs["state"], data=request.POST)
    if form is None or request.POST.get("kind") != form.kind:
        messages.error(request, "That decision is no longer yours to make; the game has moved on.")
        return redirect("game", game_id=game.id)
    if form.is_valid():
        try:
            live.action_apply(seat=viewer.seat, payload=form.payload())
            return redirect("game", game_id=game.id)
        except RulesError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        except StateChanged as exc:
            # The game moved on (a clock ran out before the move arrived): the form is stale, show the page.
            messages.error(request, exc.message)
            return redirect("game", game_id=game.id)
        except NotAllowed as exc:
            form.add_error(None, exc.message)
    context = {
        "game": game,
        "obs": obs,
        "form": None,
        "state_template": registry.get(game.game_type).page_template,
        "arms_race_form": form,
    }
    return render(request, "platform/game.html", context, status=400)
