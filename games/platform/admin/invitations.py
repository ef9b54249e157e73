"""The invitations a season's hosts send to players, and their forms.

The add form picks the season itself when there is one to pick (the host's only season, or the one whose
page it was opened from, `?season=`). Made, the invitation opens on its own page: the link in a read-only
box and a few lines for Discord, each with a Copy button (static/platform/copy.js; without the script the
boxes are there to select and copy by hand).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from ..models import Invitation, Season
from ..services.audit import audit
from ..services.invitations import MAX_USES, TOO_MANY_USES, invitation_text
from ..services.notify import page_link
from .zoned import ZonedTimes


def copy_box(name: str, text: str, button: str, label: str, rows: int = 0):
    """Words to copy in a read-only box (selected whole as it takes the focus) and a Copy button that the
    script shows (copy.js): without it, the box is still there to select and copy by hand."""
    if rows:
        box = format_html(
            '<textarea id="{}" class="copy-source vLargeTextField" rows="{}" readonly aria-label="{}">'
            "{}</textarea>",
            name,
            rows,
            label,
            text,
        )
    else:
        box = format_html(
            '<input id="{}" class="copy-source vTextField" type="text" readonly value="{}" aria-label="{}">',
            name,
            text,
            label,
        )
    return format_html(
        '<span class="copy-row">{}<button type="button" class="copy-button" data-copy="{}" hidden>{}</button>'
        '<span class="copy-said" role="status"></span></span>',
        box,
        name,
        button,
    )


class InvitationEditForm(forms.ModelForm):
    """An invitation's places, bounded as the API bounds them (services/invitations.py): a number past them
    is refused next to the field, never sent to the database's integer column."""

    max_uses = forms.IntegerField(
        min_value=1,
        max_value=MAX_USES,
        required=False,
        error_messages={"max_value": TOO_MANY_USES},
        help_text="How many people may join with it; empty for no limit.",
    )

    class Meta:
        model = Invitation
        fields = ("max_uses", "note")


class InvitationForm(InvitationEditForm):
    hours = forms.IntegerField(
        min_value=1, max_value=24 * 90, initial=24 * 14, help_text="How long the link works (up to 90 days)."
    )

    class Meta:
        model = Invitation
        fields = ("season", "max_uses", "note")


@admin.register(Invitation)
class InvitationAdmin(ZonedTimes, admin.ModelAdmin):
    """A season's hosts invite players: the link lets a newcomer sign up (or log in) and join in one step."""

    list_display = ("season", "link", "expires_at", "places", "note", "created_by")
    actions = ["expire_now"]

    class Media:
        js = ("platform/copy.js",)
        css = {"all": ("platform/copy.css",)}

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = InvitationForm if obj is None else InvitationEditForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("season", "hours", "max_uses", "note")
        return (
            "season",
            "link_to_copy",
            "text_to_copy",
            "expires_at",
            "max_uses",
            "uses",
            "note",
            "created_by",
            "created_at",
        )

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return ("season", "link_to_copy", "text_to_copy", "uses", "created_by", "created_at")

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            audit(action="invitation_edit", actor=request.user, season=obj.season, fields=form.changed_data)
            return
        from ..services.invitations import invitation_create

        made = invitation_create(
            season=obj.season,
            actor=request.user,
            hours=form.cleaned_data["hours"],
            max_uses=obj.max_uses,
            note=obj.note,
        )
        obj.pk, obj.token, obj.expires_at = made.pk, made.token, made.expires_at

    def response_add(self, request, obj, post_url_continue=None):
        # The link is what the host came for: the invitation's own page, with it ready to copy.
        if "_addanother" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        messages.success(request, "Invitation made: copy the link, or the text for Discord, and send it.")
        return HttpResponseRedirect(reverse("admin:platform_invitation_change", args=[obj.pk]))

    def get_changeform_initial_data(self, request):
        # The season the form was opened from (?season=, one this host hosts), else the only one they host:
        # nothing to pick either way.
        initial = super().get_changeform_initial_data(request)
        hosted = (
            Season.objects.all() if request.user.is_superuser else Season.objects.filter(hosts=request.user)
        )
        asked = str(initial.get("season", ""))
        if asked.isdigit() and hosted.filter(pk=int(asked)).exists():
            initial["season"] = int(asked)
            return initial
        initial.pop("season", None)
        only = list(hosted.values_list("pk", flat=True)[:2])
        if len(only) == 1:
            initial["season"] = only[0]
        return initial

    @admin.display(description="link (send it to your players)")
    def link(self, obj):
        # The whole address, as players reach the site (GENIUS_SITE_URL, as in the emails), to copy as is.
        address = page_link("join", obj.token)
        return format_html('<a href="{}">{}</a>', address, address)

    @admin.display(description="link (send it to your players)")
    def link_to_copy(self, obj):
        return copy_box("invitation-link", page_link("join", obj.token), "Copy link", "The invitation link")

    @admin.display(description="to paste into Discord")
    def text_to_copy(self, obj):
        text = invitation_text(obj, page_link("join", obj.token))
        box = copy_box("invitation-text", text, "Copy text", "The invitation, to paste into Discord", rows=5)
        words = "Discord shows the time to each reader in their own time zone."
        return format_html('{}<div class="help">{}</div>', box, words)

    @admin.display(description="places")
    def places(self, obj):
        return f"{obj.uses} of {obj.max_uses}" if obj.max_uses else f"{obj.uses} (no limit)"

    @admin.action(description="Expire the selected invitations now")
    def expire_now(self, request, queryset):
        from django.utils import timezone

        for invitation in queryset:
            invitation.expires_at = min(invitation.expires_at, timezone.now())
            invitation.save(update_fields=["expires_at"])
            audit(action="invitation_expire", actor=request.user, season=invitation.season)
        messages.success(request, "Expired: the links now say so.")

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("season", "created_by")
        return qs if request.user.is_superuser else qs.filter(season__hosts=request.user)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "season" and not request.user.is_superuser:
            kwargs["queryset"] = Season.objects.filter(hosts=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
