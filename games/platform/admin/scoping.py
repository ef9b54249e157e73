"""Who sees what in the hosts' admin: a staff host gets in and sees only the rows of the games they host
(superusers see all); the read-only kin shows what a game wrote, which no host edits here. Every model's admin
and the game apps' admins build on these."""

from __future__ import annotations

from ..models import Game


class HostScoped:
    """Staff hosts get in; what they see is limited to their own games (superusers see all)."""

    game_path = "game"

    def hosted(self, request):
        return Game.objects.filter(hosts=request.user)

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.game_path}__hosts": request.user}).distinct()

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


class ReadOnlyHostScoped(HostScoped):
    def has_change_permission(self, request, obj=None):
        return False
