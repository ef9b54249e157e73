"""What the games wrote, for their hosts to read: the submissions, the events and the audit log."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q

from ..models import AuditLog, Event, Submission
from ..people import label
from .scoping import ReadOnlyHostScoped
from .told import ToldTexts
from .zoned import ZonedTimes


@admin.register(Submission)
class SubmissionAdmin(ZonedTimes, ReadOnlyHostScoped, admin.ModelAdmin):
    game_path = "round__game"
    list_display = ("__str__", "round", "final", "created_at")
    list_select_related = ("round__game", "seat__user__profile")
    list_filter = ("final",)
    readonly_fields = ("round", "seat", "payload", "final", "created_at")


@admin.register(Event)
class EventAdmin(ToldTexts, ReadOnlyHostScoped, admin.ModelAdmin):
    list_display = ("game", "round_number", "kind", "category", "seat", "says")
    readonly_fields = ("says",)
    list_select_related = ("game", "seat__user__profile")
    list_filter = ("kind", "category")
    search_fields = ("text",)

    @admin.display(description="text")
    def says(self, obj):
        return self.told(obj)


@admin.register(AuditLog)
class AuditLogAdmin(ZonedTimes, ReadOnlyHostScoped, admin.ModelAdmin):
    # The details name accounts by username (what finds them here, whatever they go by later).
    list_display = ("created_at", "by", "action", "game")
    list_select_related = ("actor__profile", "game")
    list_filter = ("action",)

    @admin.display(description="actor")
    def by(self, obj):
        return label(obj.actor) if obj.actor_id else ""

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        return qs.filter(
            Q(game__hosts=request.user) | Q(season__hosts=request.user, game__isnull=True)
        ).distinct()
