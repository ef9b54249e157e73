"""The webhooks that carry a game's or a season's announcements out."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q

from ..models import Game, Season, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Hosts point a game's or a season's announcements at a Discord channel or any other receiver."""

    list_display = ("url", "kind", "game", "season", "active")
    radio_fields = {"kind": admin.VERTICAL}
    fieldsets = [
        (
            None,
            {
                "fields": ["game", "season", "kind", "url", "secret", "active", "created_at"],
                "description": (
                    "A Discord channel: in Discord, open the channel's settings (the gear beside its name), "
                    "Integrations, Webhooks, New Webhook; name it, then Copy Webhook URL and paste it here. "
                    "It looks like https://discord.com/api/webhooks/1234567890/abc…, and each public "
                    "announcement appears in the channel with a link to the game, mentioning nobody. Any "
                    "other receiver gets signed JSON (the secret signs it; a Discord webhook needs none)."
                ),
            },
        )
    ]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(Q(game__hosts=request.user) | Q(season__hosts=request.user)).distinct()

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser and db_field.name == "game":
            kwargs["queryset"] = Game.objects.filter(hosts=request.user)
        if not request.user.is_superuser and db_field.name == "season":
            kwargs["queryset"] = Season.objects.filter(hosts=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
