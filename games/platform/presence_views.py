"""The game page's beacon: shown or hidden, said the moment it happens (games/platform/presence.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_POST

from . import presence
from .models import Seat


@login_required
@require_POST
def game_presence(request, game_id: int):
    """`visible=1`: the player's page of the game is in view; `visible=0`: it was hidden or closed. Only a
    player of the game is heard; anyone else finds nothing here (a 404 says no more than a missing game)."""
    if not Seat.objects.filter(game_id=game_id, user=request.user).exists():
        raise Http404
    presence.seen(request.user.pk, game_id, request.POST.get("visible") == "1")
    return HttpResponse(status=204)
