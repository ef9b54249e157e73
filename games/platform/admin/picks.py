"""The Death Match picks: who a Main Match's loser picks, and the Death Match made from the pick."""

from __future__ import annotations

from django.contrib import admin

from ..models import DeathMatchPick
from ..services.audit import audit
from .actions import run_service
from .scoping import HostScoped
from .zoned import ZonedTimes


@admin.register(DeathMatchPick)
class DeathMatchPickAdmin(ZonedTimes, HostScoped, admin.ModelAdmin):
    """The hosts mark who cannot be picked, override the pick, and create the Death Match in one step."""

    game_path = "main_match"
    list_display = ("main_match", "candidate", "opponent", "deadline", "status", "death_match")
    filter_horizontal = ("excluded",)
    readonly_fields = ("main_match", "candidate", "picked_at", "death_match", "status")
    actions = ["create_death_match"]

    class Media:
        js = ("platform/admin-a11y.js",)  # the two-box selector's icons, named as ARIA allows

    def save_model(self, request, obj, form, change):
        from ..services.season import pick_override

        if "opponent" in form.changed_data and obj.opponent_id:
            opponent = obj.opponent
            obj.opponent = DeathMatchPick.objects.get(pk=obj.pk).opponent
            super().save_model(request, obj, form, change)
            run_service(
                request, "Override", lambda: pick_override(pick=obj, opponent=opponent, actor=request.user)
            )
            return
        super().save_model(request, obj, form, change)
        audit(action="pick_edit", actor=request.user, game=obj.main_match, fields=list(form.changed_data))

    @admin.action(description="Create the Death Match from the pick")
    def create_death_match(self, request, queryset):
        from ..services.death_match import death_match_create

        for pick in queryset:
            run_service(
                request,
                f"Death Match for {pick.main_match}",
                lambda p=pick: death_match_create(pick=p, actor=request.user),
            )
