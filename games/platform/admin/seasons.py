"""A season's admin, where its hosts set it up (its form: season_form.py) and grant and correct balances,
and its players."""

from __future__ import annotations

from django.contrib import admin

from ..models import Game, Season, SeasonPlayer
from ..services.events import bump_version
from . import cohosts, season_form
from .season_console import SeasonConsole
from .season_form import SeasonAdminForm


@admin.register(Season)
class SeasonAdmin(SeasonConsole, admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = ("name", "created_at")
    filter_horizontal = ("hosts",)

    class Media:
        js = ("platform/admin-a11y.js",)  # the two-box selector's icons, named as ARIA allows

    def get_form(self, request, obj=None, change=False, **kwargs):
        # A field for each season setting, described afresh (season_form.py), and the host's balances view.
        kwargs["form"] = season_form.form_for(self.form, request.user)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        return season_form.fieldsets(obj)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change:
            # Every game page names its season.
            for game in Game.objects.filter(season=obj).only("pk"):
                bump_version(game)
        season_form.after_save(request, obj, form)

    def save_related(self, request, form, formsets, change):
        before = set(form.instance.hosts.values_list("pk", flat=True))  # the form's hosts replace these
        super().save_related(request, form, formsets, change)
        cohosts.hosts_saved(request, form.instance, before)

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        # Season hosts grant and correct balances from here.
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        # Members of Hosts make seasons (services/host_role.py), and superusers.
        return self.has_module_permission(request) and request.user.has_perm("platform.add_season")

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(hosts=request.user)


@admin.register(SeasonPlayer)
class SeasonPlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "season", "eliminated")
