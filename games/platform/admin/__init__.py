"""The hosts' admin: each host sees and runs only the games they host; every action goes through a service."""

from __future__ import annotations

import logging
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.db.models import F, OuterRef, Q
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone

from .. import registry
from ..errors import NotAllowed, RoundClosed, StateChanged
from ..kit import RulesError
from ..models import (
    AuditLog,
    ChatMessage,
    DeathMatchPick,
    Event,
    Game,
    Invitation,
    LedgerAccount,
    LedgerEntry,
    OutboxTask,
    Round,
    Season,
    SeasonPlayer,
    Seat,
    Submission,
    Webhook,
)
from ..people import label
from ..services import games as game_services
from ..services import rounds
from ..services.audit import audit
from ..services.events import bump_version
from ..services.invitations import MAX_USES, TOO_MANY_USES
from ..services.ledger import hidden_moves, secret_from
from ..wording import names_for, plain
from . import accounts, settings_form  # noqa: F401  (accounts: the user forms)
from .console import HostConsole

log = logging.getLogger(__name__)


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


class HiddenDataAdmin(HostScoped):
    """A game's hidden host data (a table, boards): its hosts enter it before the start; then it is locked.

    `game_type` names the registered type and `hidden_related` the one-to-one related name from Game, so
    the form offers only the host's unstarted games that have none yet. The form takes `hosted=`.
    """

    game_type = ""
    hidden_related = ""

    def hosted(self, request):
        games = Game.objects.filter(
            game_type=self.game_type, status__in=(Game.Status.DRAFT, Game.Status.SEEDING)
        )
        if not request.user.is_superuser:
            games = games.filter(hosts=request.user)
        return games.filter(**{f"{self.hidden_related}__isnull": True})

    def has_add_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.locked:
            return False
        return self.has_module_permission(request)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        hosted = self.hosted(request)

        class Scoped(form):
            def __init__(self, *args, **inner):
                super().__init__(*args, hosted=hosted, **inner)

        return Scoped

    @admin.display(description="Game status")
    def status(self, obj):
        return obj.game.get_status_display()


def run_service(request, label, fn):
    """One game of an action on the selected games. Each service is a transaction of its own: one that
    fails keeps nothing of its game, and those before it stay done, so the answer names each game's outcome
    instead of a 500 for the whole selection (issue 28.3)."""
    try:
        fn()
        messages.success(request, f"{label}: done.")
    except (RulesError, StateChanged, NotAllowed, RoundClosed) as exc:
        messages.error(request, f"{label}: {exc.message}")
    except Exception as exc:
        log.exception("%s failed", label)
        failed = f"failed ({type(exc).__name__}); nothing of it was kept. The traceback is in the log."
        messages.error(request, f"{label}: {failed}")


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
    fields = ("number", "status", "opens_at", "closes_at", "attempts", "last_error")
    readonly_fields = fields
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
class GameAdmin(HostConsole, HostScoped, admin.ModelAdmin):
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
        kwargs["form"] = type("GameSettingsForm", (self.form,), attrs)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        game = ["season", "game_type", "name", "public", "seed", "hosts", "seat_players"]
        if obj is None:
            words = (
                "Saving opens the game's page, with every setting of its type (each ruling with the sentence "
                "of the rules it reads), the hidden data and the seats."
            )
            return [(None, {"fields": game, "description": words})]
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
            # A game's hidden data admin names its type (HiddenDataAdmin, or any admin with `game_type`).
            if getattr(model_admin, "game_type", "") == game.game_type:
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
        super().save_related(request, form, formsets, change)
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
        self._each(request, queryset, "Pause", lambda g: game_services.game_pause(game=g, actor=request.user))

    @admin.action(description="Resume")
    def resume(self, request, queryset):
        self._each(
            request, queryset, "Resume", lambda g: game_services.game_resume(game=g, actor=request.user)
        )

    @admin.action(description="Resolve the open round now")
    def resolve_now(self, request, queryset):
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


class ReadOnlyHostScoped(HostScoped):
    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyHostScoped, admin.ModelAdmin):
    game_path = "round__game"
    list_display = ("__str__", "round", "final", "created_at")
    list_select_related = ("round__game", "seat__user__profile")
    list_filter = ("final",)
    readonly_fields = ("round", "seat", "payload", "final", "created_at")


class ToldTexts:
    """A stored text as the host reads it (`wording`): the people it names as they are called now, its times
    in the host's zone. A list reads the names of all its rows at once."""

    told_field = "text"

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        rows = changelist.result_list  # its rows are read here once and kept for the page
        names = names_for(getattr(row, self.told_field) for row in rows)
        for row in rows:
            row.told = plain(getattr(row, self.told_field), names)
        return changelist

    def told(self, obj) -> str:
        if not hasattr(obj, "told"):
            text = getattr(obj, self.told_field)
            obj.told = plain(text, names_for([text]))
        return obj.told


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
class AuditLogAdmin(ReadOnlyHostScoped, admin.ModelAdmin):
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


class LedgerScoped(ReadOnlyHostScoped):
    """Season balances to the season's hosts; a game's chips, cards and points to that game's hosts only."""

    account_path = ""

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        p = self.account_path
        return qs.filter(
            Q(**{f"{p}game__isnull": True, f"{p}season__hosts": request.user})
            | Q(**{f"{p}game__hosts": request.user})
        ).distinct()


@admin.register(LedgerAccount)
class LedgerAccountAdmin(LedgerScoped, admin.ModelAdmin):
    """Balances as this host may know them: without what a game they do not host moved while it runs."""

    list_display = ("user", "season", "game", "what", "item", "known_balance")
    list_filter = ("what",)
    search_fields = ("user__username",)
    fields = readonly_fields = ("user", "season", "game", "what", "item", "known_balance")

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs.annotate(known=F("balance") - hidden_moves(request.user))

    @admin.display(description="balance", ordering="known")
    def known_balance(self, obj):
        return obj.known


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ToldTexts, LedgerScoped, admin.ModelAdmin):
    """Each change, except a running game's own moves to a host who does not host that game (issue 17.4)."""

    account_path = "account__"
    told_field = "reason"
    list_display = ("created_at", "account_name", "delta", "known_balance_after", "why", "actor")
    search_fields = ("account__user__username", "reason")
    fields = readonly_fields = (
        "account_name",
        "delta",
        "known_balance_after",
        "why",
        "game",
        "round_number",
        "actor",
        "created_at",
    )

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if not request.user.is_superuser:
            seasons = Season.objects.filter(hosts=request.user).values("pk")
            games = Game.objects.filter(hosts=request.user).values("pk")
            # A game's hosts also see what their game moved in the season's ledger, season hosts or not.
            qs = qs.filter(
                Q(account__game__isnull=True, account__season__in=seasons)
                | Q(account__game__in=games)
                | Q(game__in=games)
            )
        qs = qs.exclude(secret_from(request.user))
        return qs.select_related("account__user").annotate(
            known_after=F("balance_after")
            - hidden_moves(request.user, account=OuterRef("account"), up_to=OuterRef("pk"))
        )

    @admin.display(description="account")
    def account_name(self, obj):
        return str(obj.account)

    @admin.display(description="balance after", ordering="known_after")
    def known_balance_after(self, obj):
        return obj.known_after

    @admin.display(description="reason")
    def why(self, obj):
        return self.told(obj)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyHostScoped, admin.ModelAdmin):
    list_display = ("game", "low_seat", "high_seat", "written_by", "created_at", "text")
    list_select_related = ("game", "low_seat__user__profile", "high_seat__user__profile", "author__profile")
    search_fields = ("text",)

    @admin.display(description="author")
    def written_by(self, obj):
        return label(obj.author)


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Hosts point a game's or a season's announcements at a Discord channel or any other receiver."""

    list_display = ("url", "game", "season", "active")

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


@admin.register(OutboxTask)
class OutboxTaskAdmin(admin.ModelAdmin):
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


@admin.register(DeathMatchPick)
class DeathMatchPickAdmin(HostScoped, admin.ModelAdmin):
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
class InvitationAdmin(admin.ModelAdmin):
    """A season's hosts invite players: the link lets a newcomer sign up (or log in) and join in one step."""

    list_display = ("season", "link", "expires_at", "places", "note", "created_by")
    actions = ["expire_now"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = InvitationForm if obj is None else InvitationEditForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("season", "hours", "max_uses", "note")
        return ("season", "link", "expires_at", "max_uses", "uses", "note", "created_by", "created_at")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else ("season", "link", "uses", "created_by", "created_at")

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

    def get_changeform_initial_data(self, request):
        # A host of one season invites to it: nothing to pick.
        initial = super().get_changeform_initial_data(request)
        hosted = (
            Season.objects.all() if request.user.is_superuser else Season.objects.filter(hosts=request.user)
        )
        only = list(hosted.values_list("pk", flat=True)[:2])
        if "season" not in initial and len(only) == 1:
            initial["season"] = only[0]
        return initial

    @admin.display(description="link (send it to your players)")
    def link(self, obj):
        from django.utils.html import format_html

        from ..services.notify import page_link

        # The whole address, as players reach the site (GENIUS_SITE_URL, as in the emails), to copy as is.
        address = page_link("join", obj.token)
        return format_html('<a href="{}">{}</a>', address, address)

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
