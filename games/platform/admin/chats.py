"""The games' chat messages, for their hosts to read."""

from __future__ import annotations

from django.contrib import admin

from ..models import ChatMessage
from ..people import label
from .scoping import ReadOnlyHostScoped
from .zoned import ZonedTimes


@admin.register(ChatMessage)
class ChatMessageAdmin(ZonedTimes, ReadOnlyHostScoped, admin.ModelAdmin):
    list_display = ("game", "low_seat", "high_seat", "written_by", "created_at", "text")
    list_select_related = ("game", "low_seat__user__profile", "high_seat__user__profile", "author__profile")
    search_fields = ("text",)

    @admin.display(description="author")
    def written_by(self, obj):
        return label(obj.author)
