"""A season's admin, where its hosts grant and correct balances, and its players."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from ..models import Game, Season, SeasonPlayer
from ..services.events import bump_version
from .actions import run_service


class SeasonAdminForm(forms.ModelForm):
    grant_to = forms.CharField(required=False, help_text="Grant or correct: the player's username.")
    grant_what = forms.ChoiceField(
        choices=[("garnets", "Garnets"), ("tokens_of_life", "Tokens of Life")], required=False
    )
    grant_delta = forms.IntegerField(required=False, help_text="Negative to take away.")
    grant_reason = forms.CharField(
        required=False, help_text="Why (kept with the entry and in the audit log)."
    )

    class Meta:
        model = Season
        fields = ("name", "hosts", "settings")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = ("name", "created_at")
    filter_horizontal = ("hosts",)

    class Media:
        js = ("platform/admin-a11y.js",)  # the two-box selector's icons, named as ARIA allows

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change:
            # Every game page names its season.
            for game in Game.objects.filter(season=obj).only("pk"):
                bump_version(game)
        data = form.cleaned_data
        if data.get("grant_to") and data.get("grant_delta"):
            from django.contrib.auth import get_user_model

            from ..services.season import season_grant

            user = get_user_model().objects.filter(username=data["grant_to"]).first()
            if user is None:
                messages.error(request, f"No player is called {data['grant_to']}.")
                return
            run_service(
                request,
                "Grant",
                lambda: season_grant(
                    season=obj,
                    user=user,
                    what=data["grant_what"],
                    delta=data["grant_delta"],
                    reason=data.get("grant_reason") or "",
                    actor=request.user,
                ),
            )

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        # Season hosts grant and correct balances from here; only superusers make seasons.
        return self.has_module_permission(request)

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(hosts=request.user)


@admin.register(SeasonPlayer)
class SeasonPlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "season", "eliminated")
