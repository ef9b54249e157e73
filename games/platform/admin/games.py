"""A game's admin: its form (its own fields, the players to seat, its type's settings as fields), its seats
and rounds, the actions on the selected games, and its page, which is the host's console (console.py)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse

from .. import live_push, registry
from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import Game, Round, Season, Seat
from ..services import games as game_services
from ..services import rounds
from ..services.audit import audit
from ..services.events import bump_version
from . import live_start, settings_form
from .actions import run_service
from .confirm import ask_first_of_selected
from .console import HostConsole
from .hidden import served_types
from .scoping import HostScoped
from .zoned import ZonedTimes, zoned


def seat_by_name(request, game, names: list[str]) -> None:
    """Seat each named player; one message for those seated, one for each refusal."""
    from django.contrib.auth import get_user_model

    seated = []
    for name in names:
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            messages.error(request, f"No player is called {name}.")
            continue
        try:
            seat = game_services.game_seat(game=game, user=user, actor=request.user)
        except (RulesError, StateChanged, NotAllowed) as exc:
            messages.error(request, f"{name} was not seated: {exc.message}")
            continue
        seated.append(f"{name} (seat {seat.number + 1})")
    if seated:
        total = game.seats.count()
        messages.success(request, f"Seated {', '.join(seated)}: {total} player{'s' * (total != 1)} in all.")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "reserve_seconds")
    readonly_fields = ("number", "reserve_seconds")
    can_delete = False

    def get_queryset(self, request):
        # Each row's title names its player as "Ali the Bold (alice)" (Seat.__str__): one query for all.
        return super().get_queryset(request).select_related("user__profile")

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    # The times in the viewer's zone, named (zoned.py), under the fields' own names.
    fields = ("number", "status", "opens", "closes", "attempts", "last_error")
    readonly_fields = fields
    opens = staticmethod(zoned(Round, "opens_at", "Opens"))
    closes = staticmethod(zoned(Round, "closes_at", "Closes"))
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class SettingsField(forms.JSONField):
    """Settings no description covers, as JSON; nesting thousands deep is a form error, not a crash."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except RecursionError as exc:
            raise forms.ValidationError("This JSON is nested too deeply.") from exc


class GameAdminForm(forms.ModelForm):
    """The game's own fields, the players to seat, and (once it has a type) its settings as fields."""

    settings = SettingsField(
        required=False,
        label="Other settings",
        help_text="JSON, for the settings this game type does not describe; the type's defaults fill in "
        "what is left out.",
    )
    seat_players = forms.CharField(
        required=False, help_text="Usernames to seat, separated by commas or spaces."
    )

    described: list = []  # the game type's described settings (set by GameAdmin.get_form)

    class Meta:
        model = Game
        fields = ("season", "game_type", "name", "public", "seed", "hosts")
        widgets = {"game_type": forms.Select(choices=[])}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_type"].widget.choices = registry.choices()
        if self.instance.pk and self.instance.status != Game.Status.DRAFT:
            for name in ("game_type", "seed", "season"):
                if name in self.fields:
                    self.fields[name].disabled = True
        if self.instance.pk:
            current = self.instance.settings or {}
            for name, value in settings_form.initial_values(current, self.described).items():
                if name in self.fields:
                    self.fields[name].initial = value
            if "settings" in self.fields:
                self.fields["settings"].initial = settings_form.undescribed(current, self.described)
        self.settings_changed = False

    def clean_game_type(self):
        # The select only offers registered types; a forged post must not reach game_create as a 500.
        slug = self.cleaned_data.get("game_type")
        try:
            registry.get(slug)
        except LookupError:
            raise forms.ValidationError("Choose one of the games in the list.") from None
        return slug

    def clean(self):
        """The settings as the game will have them (its type's defaults, then what it has, then the form),
        each checked by its own setting next to its field: a bad value never reaches the rules."""
        data = super().clean()
        if not self.instance.pk:
            self.live_settings = live_start.clean(self, data)
            return data
        try:
            kind = registry.get(data.get("game_type") or self.instance.game_type)
        except LookupError:
            return data  # the game type's own field says what is wrong
        other = data.get("settings") if "settings" in self.fields else {}
        if other in (None, ""):
            other = {}
        if not isinstance(other, dict):
            self.add_error("settings", 'Settings are a JSON object, like {"round_hours": 24}.')
            return data
        # With the JSON box on the form, it holds everything the fields do not (a key taken out goes).
        base = other if "settings" in self.fields else (self.instance.settings or {})
        merged = settings_form.clean_settings(self, kind, base)
        if merged is not None:
            self.settings_changed = merged != self.instance.settings
            self.instance.settings = merged
            if "settings" in self.fields:
                data["settings"] = merged
        return data


@admin.register(Game)
class GameAdmin(ZonedTimes, HostConsole, HostScoped, admin.ModelAdmin):
    form = GameAdminForm
    game_path = "id"
    list_display = ("name", "game_type", "season", "status", "paused_at", "version")
    list_filter = ("status", "game_type")
    inlines = [SeatInline, RoundInline]
    readonly_fields = ("status", "started_at", "finished_at", "paused_at", "hidden_state")
    actions = ["start", "pause", "resume", "resolve_now", "extend_hour", "extend_day", "retry_failed"]

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        return qs if request.user.is_superuser else qs.filter(hosts=request.user).distinct()

    def has_add_permission(self, request, obj=None):
        return request.user.is_staff and (
            request.user.is_superuser or Season.objects.filter(hosts=request.user).exists()
        )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "season" and not request.user.is_superuser:
            kwargs["queryset"] = Season.objects.filter(hosts=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _described(self, obj):
        if obj is None:
            return None, []
        try:
            kind = registry.get(obj.game_type)
        except LookupError:
            return None, []
        return kind, list(kind.settings_described())

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The form with a field for each setting the game's type describes (declared, so the fieldsets
        may name them)."""
        kind, described = self._described(obj)
        attrs = {"described": described, **settings_form.settings_fields(described)}
        if obj is None:
            attrs.update(live_start.fields())  # a live match's start time, in this host's zone
        kwargs["form"] = type("GameSettingsForm", (self.form,), attrs)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        game = ["season", "game_type", "name", "public", "seed", "hosts", "seat_players"]
        if obj is None:
            words = (
                "Saving opens the game's page, with every setting of its type (each ruling with the sentence "
                "of the rules it reads), the hidden data and the seats."
            )
            live = "A live match (a game on turn clocks) starts its clocks at its start time at the latest."
            return [
                (None, {"fields": game, "description": words}),
                ("A live match", {"fields": live_start.FIELDS, "description": live}),
            ]
        kind, described = self._described(obj)
        names = [settings_form.field_name(s) for s in described]
        if kind is None or not described or settings_form.undescribed(obj.settings or {}, described):
            names.append("settings")
        readonly = ["status", "started_at", "finished_at", "paused_at", "hidden_state"]
        return [
            (None, {"fields": game}),
            ("Settings", {"fields": names, "description": "Each setting of this game type."}),
            ("The game as it runs", {"fields": readonly, "classes": ["collapse"]}),
        ]

    def hidden_link(self, game):
        """The hidden data's page: its change page once it exists, else its add page with the game chosen."""
        for model, model_admin in self.admin_site._registry.items():
            # A game's hidden data admin names its types (HiddenDataAdmin: `game_types` or `game_type`).
            if game.game_type in served_types(model_admin):
                opts = model._meta
                found = model._default_manager.filter(game=game).values_list("pk", flat=True).first()
                if found is not None:
                    return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[found])
                return reverse(f"admin:{opts.app_label}_{opts.model_name}_add") + f"?game={game.pk}"
        return ""

    @admin.display(description="Hidden state (hosts only)")
    def hidden_state(self, obj):
        import json

        from django.utils.html import format_html

        return format_html("<pre>{}</pre>", json.dumps(obj.state, indent=1)[:20000])

    def response_add(self, request, obj, post_url_continue=None):
        # A new game goes straight to its console: seats, hidden data, settings and the buttons.
        return HttpResponseRedirect(reverse("admin:platform_game_change", args=[obj.pk]))

    def save_model(self, request, obj, form, change):
        if not change:
            created = game_services.game_create(
                season=obj.season,
                game_type=obj.game_type,
                name=obj.name,
                public=obj.public,
                seed=obj.seed,
                settings=getattr(form, "live_settings", None),
                hosts=[request.user],
                actor=request.user,
            )
            obj.pk = created.pk
            obj.refresh_from_db()
        else:
            # Only the fields the host changed: a whole-row save would write back the state and version
            # read when the form opened, undoing a resolution that committed in between.
            columns = {f.name for f in Game._meta.concrete_fields}
            fields = [name for name in form.changed_data if name in columns and name != "settings"]
            if form.settings_changed:
                fields.append("settings")
            if fields:
                obj.save(update_fields=fields)
            bump_version(obj)
            changed = [n for n in form.changed_data if not n.startswith(settings_form.PREFIX)]
            changed += [
                n.removeprefix(settings_form.PREFIX)
                for n in form.changed_data
                if n.startswith(settings_form.PREFIX)
            ]
            audit(action="game_edit", actor=request.user, game=obj, fields=changed)
        names = [n for n in form.cleaned_data.get("seat_players", "").replace(",", " ").split() if n]
        if names:
            seat_by_name(request, obj, names)

    def save_related(self, request, form, formsets, change):
        seated = set(form.instance.seats.values_list("user_id", flat=True)) if change else set()
        super().save_related(request, form, formsets, change)
        # A seat given to someone else here: its player before is no longer told of the game's moves.
        live_push.counts(seated - set(form.instance.seats.values_list("user_id", flat=True)))
        if request.user not in form.instance.hosts.all() and not request.user.is_superuser:
            form.instance.hosts.add(request.user)
        bump_version(form.instance)  # the hosts' list may have changed: who is a host, on every page

    def _each(self, request, queryset, label, fn):
        for game in queryset:
            run_service(request, f"{label} {game.name}", lambda g=game: fn(g))

    @admin.action(description="Start the selected games")
    def start(self, request, queryset):
        self._each(request, queryset, "Start", lambda g: game_services.game_start(game=g, actor=request.user))

    @admin.action(description="Pause")
    def pause(self, request, queryset):
        if asking := ask_first_of_selected(request, self, queryset, "pause", "pause", "Pause"):
            return asking
        self._each(request, queryset, "Pause", lambda g: game_services.game_pause(game=g, actor=request.user))

    @admin.action(description="Resume")
    def resume(self, request, queryset):
        self._each(
            request, queryset, "Resume", lambda g: game_services.game_resume(game=g, actor=request.user)
        )

    @admin.action(description="Resolve the open round now")
    def resolve_now(self, request, queryset):
        if asking := ask_first_of_selected(request, self, queryset, "resolve_now", "resolve", "Resolve now"):
            return asking
        self._each(
            request, queryset, "Resolve", lambda g: rounds.round_resolve_now(game=g, actor=request.user)
        )

    @admin.action(description="Extend the open round by 1 hour")
    def extend_hour(self, request, queryset):
        self._each(
            request,
            queryset,
            "Extend",
            lambda g: game_services.round_extend(game=g, by=timedelta(hours=1), actor=request.user),
        )

    @admin.action(description="Extend the open round by 24 hours")
    def extend_day(self, request, queryset):
        self._each(
            request,
            queryset,
            "Extend",
            lambda g: game_services.round_extend(game=g, by=timedelta(hours=24), actor=request.user),
        )

    @admin.action(description="Retry a failed round")
    def retry_failed(self, request, queryset):
        self._each(request, queryset, "Retry", lambda g: rounds.round_retry(game=g, actor=request.user))
