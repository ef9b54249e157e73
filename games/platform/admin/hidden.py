"""The base of a game's hidden host data admin (a horse race's boards, a cards table's deal): the game
apps' admins build on it, and the game's console links to it by its `game_type`."""

from __future__ import annotations

from django.contrib import admin

from ..models import Game
from .scoping import HostScoped


def served_types(model_admin) -> tuple[str, ...]:
    """The game types whose hidden data an admin holds: its `game_types`, else its one `game_type`."""
    several = tuple(getattr(model_admin, "game_types", ()) or ())
    one = getattr(model_admin, "game_type", "")
    return several or ((one,) if one else ())


class HiddenDataAdmin(HostScoped):
    """A game's hidden host data (a table, boards): its hosts enter it before the start; then it is locked.

    `game_type` names the registered type (`game_types` the several one admin serves) and `hidden_related`
    the one-to-one related name from Game, so the form offers only the host's unstarted games that have none
    yet. The form takes `hosted=`.
    """

    game_type = ""
    game_types: tuple[str, ...] = ()
    hidden_related = ""

    def hosted(self, request):
        games = Game.objects.filter(
            game_type__in=served_types(self), status__in=(Game.Status.DRAFT, Game.Status.SEEDING)
        )
        if not request.user.is_superuser:
            games = games.filter(hosts=request.user)
        return games.filter(**{f"{self.hidden_related}__isnull": True})

    def has_add_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.locked:
            return False
        return self.has_module_permission(request)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        hosted = self.hosted(request)

        class Scoped(form):
            def __init__(self, *args, **inner):
                super().__init__(*args, hosted=hosted, **inner)

        return Scoped

    @admin.display(description="Game status")
    def status(self, obj):
        return obj.game.get_status_display()
