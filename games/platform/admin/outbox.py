"""The owed tasks (the outbox's rows), for superusers."""

from __future__ import annotations

from django.contrib import admin
from django.utils import timezone

from ..models import OutboxTask
from .zoned import ZonedTimes


@admin.register(OutboxTask)
class OutboxTaskAdmin(ZonedTimes, admin.ModelAdmin):
    """What commits owe the outside and is not done yet (games/platform/outbox.py), for superusers: a row
    whose retries ran out stays here with its error (due never); "Try again now" makes rows due at once."""

    list_display = ("name", "args", "created_at", "due_at", "attempts", "last_error")
    list_filter = (("due_at", admin.EmptyFieldListFilter), "name")
    readonly_fields = ("name", "args", "created_at", "due_at", "attempts", "last_error")
    actions = ["try_again_now"]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_delete_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.action(description="Try again now", permissions=["view"])
    def try_again_now(self, request, queryset):
        count = queryset.update(due_at=timezone.now(), attempts=0)
        self.message_user(request, f"{count} owed tasks are due: the relay publishes them within seconds.")
