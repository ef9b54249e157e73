"""A season's form for its hosts: its name and hosts; its settings as fields drawn from their description
(season_settings.py), as a game's are drawn from its type's, with the JSON box only for settings no
description covers; and a grant to several players at once with one reason.

A wrong value is an error next to its field and nothing else typed is lost (the form comes back as sent). A
grant is checked here against each player's balance as this host may know it, then made by the service in
one transaction, and answered with the new balances: "Granted 3 garnets to ann, ben, cat: ann 5, ben 3,
cat 3."
"""

from __future__ import annotations

import copy

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import format_html

from .. import registry
from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import Season
from ..season_settings import DEATH_MATCH_TYPE, SEASON, STARTING, described
from ..services.ledger import known_balances
from ..services.season import amount_words, grant_answer, season_grant_many, season_settings_changed
from . import settings_form
from .games import SettingsField

GRANT_FIELDS = ["grant_to", "grant_what", "grant_delta", "grant_reason"]
MOST_GRANTED = 1_000_000  # the API's bound (api/serializers.py MAX_AMOUNT): past it, a slip


class PlayersField(forms.ModelMultipleChoiceField):
    """The season's players as tick boxes, each with their balances as this host may know them."""

    widget = forms.CheckboxSelectMultiple
    labels: dict = {}

    def label_from_instance(self, user):
        return self.labels.get(user.pk, user.username)


class SeasonAdminForm(forms.ModelForm):
    settings = SettingsField(
        required=False,
        label="Other settings",
        help_text="JSON, for the settings no field above covers.",
    )
    grant_to = PlayersField(
        queryset=get_user_model().objects.none(),
        required=False,
        label="Players",
        help_text="Tick each player to grant to or take from.",
    )
    grant_what = forms.ChoiceField(
        choices=[("garnets", "Garnets"), ("tokens_of_life", "Tokens of Life")], required=False, label="What"
    )
    grant_delta = forms.IntegerField(
        required=False,
        min_value=-MOST_GRANTED,
        max_value=MOST_GRANTED,
        label="How many",
        help_text="To each player; negative to take away.",
        error_messages={"invalid": "How many must be a whole number, like 3 or -1."},
    )
    grant_reason = forms.CharField(
        required=False,
        max_length=200,
        label="Reason",
        help_text="Why: kept with each player's entry and in the audit log.",
    )

    described: list = []  # the season's described settings (set by SeasonAdmin.get_form, drawn afresh)
    viewer = None  # the host at the form: balances are shown as they may know them

    class Meta:
        model = Season
        fields = ("name", "hosts")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.settings_before = copy.deepcopy(self.instance.settings or {})
        if "settings" not in (self._meta.fields or ()):
            del self.fields["settings"]  # the JSON box only where fieldsets() shows it
        for name, value in settings_form.initial_values(self.settings_before, self.described).items():
            if name in self.fields:
                self.fields[name].initial = value
        if "settings" in self.fields:  # the model's whole dict would be its initial value: only the rest
            self.initial["settings"] = settings_form.undescribed(self.settings_before, self.described)
        dm = self.fields.get(settings_form.PREFIX + DEATH_MATCH_TYPE)
        if dm is not None:  # the game's name, not its slug
            dm.choices = [(slug, _game_name(slug)) for slug, _ in dm.choices]
        if "grant_to" in self.fields:
            self._players()

    def _players(self):
        field = self.fields["grant_to"]
        if self.instance.pk is None:
            return
        players = list(
            get_user_model()
            .objects.filter(seasons__season=self.instance)
            .order_by("username")
            .only("pk", "username")
        )
        field.queryset = get_user_model().objects.filter(pk__in=[p.pk for p in players]).order_by("username")
        known = known_balances(season=self.instance, viewer=self.viewer, users=players) if players else {}
        field.labels = {
            p.pk: f"{p.username}: "
            + ", ".join(
                amount_words(known.get((p.pk, what), 0), what) for what in ("garnets", "tokens_of_life")
            )
            for p in players
        }

    def clean(self):
        data = super().clean()
        self._clean_settings(data)
        self._clean_grant(data)
        return data

    def _clean_settings(self, data):
        """The settings as the season will have them (its defaults, then what it has, then the form), each
        checked by its own setting next to its field."""
        other = data.get("settings") if "settings" in self.fields else {}
        if other in (None, ""):
            other = {}
        if not isinstance(other, dict):
            self.add_error("settings", 'Settings are a JSON object, like {"pick_hours": 24}.')
            return
        # With the JSON box on the form, it holds everything the fields do not (a key taken out goes).
        base = other if "settings" in self.fields else self.settings_before
        merged = settings_form.clean_settings(self, SEASON, base)
        if merged is not None:
            self.instance.settings = merged
            if "settings" in self.fields:
                data["settings"] = merged

    def _clean_grant(self, data):
        players, delta = data.get("grant_to"), data.get("grant_delta")
        reason = (data.get("grant_reason") or "").strip()
        if not players and delta is None and not reason:
            return  # no grant this time
        if not players and "grant_to" not in self.errors:
            self.add_error("grant_to", "Tick the players to grant to.")
        if delta is None and "grant_delta" not in self.errors:
            self.add_error("grant_delta", "Say how many: 3 to grant, -1 to take away.")
        elif delta == 0:
            self.add_error("grant_delta", "Grant at least 1, or take at least 1 with a minus sign.")
        if not reason:
            self.add_error("grant_reason", "Say why: the reason is kept with each player's entry.")
        what = data.get("grant_what") or "garnets"
        if players and delta is not None and delta < 0:
            known = known_balances(season=self.instance, viewer=self.viewer, users=players)
            short = [p for p in players if known.get((p.pk, what), 0) + delta < 0]
            if short:
                held = ", ".join(
                    f"{p.username} has {amount_words(known.get((p.pk, what), 0), what)}" for p in short
                )
                self.add_error("grant_delta", f"{held}: {-delta} cannot be taken.")


def _game_name(slug: str) -> str:
    try:
        return registry.get(slug).name
    except LookupError:
        return slug


def form_for(base, viewer):
    """The form with a field for each season setting, described now (the registered Death Matches are the
    choices), the host's balances view with it."""
    now = described()
    attrs = {"described": now, "viewer": viewer, **settings_form.settings_fields(now)}
    return type("SeasonSettingsForm", (base,), attrs)


def fieldsets(season: Season | None) -> list:
    names = [settings_form.field_name(s) for s in described()]
    if season is not None and settings_form.undescribed(season.settings or {}, described()):
        names.append("settings")
    invite = ""
    if season is not None:
        address = reverse("admin:platform_invitation_add") + f"?season={season.pk}"
        invite = format_html('Players join with a link: <a href="{}">invite players</a>.', address)
    sets = [
        (None, {"fields": ["name", "hosts"], "description": invite}),
        (
            "Settings",
            {
                "fields": names,
                "description": "The season's rules around its games. Each player is given the starting "
                "balances once, as they join.",
            },
        ),
    ]
    if season is not None and season.players.exists():
        words = (
            "To several players at once, with one reason: each gets an entry in their ledger, and the audit "
            "log keeps who did it."
        )
        sets.append(
            ("Grant or correct garnets and Tokens of Life", {"fields": GRANT_FIELDS, "description": words})
        )
    return sets


def after_save(request, season: Season, form) -> None:
    """Inside the save's transaction: the settings' change audited (a starting amount just set given to
    those in the season who had none), then the grant, each answered in words."""
    given = season_settings_changed(season=season, before=form.settings_before, actor=request.user)
    for what, users in given.items():
        amount = season.settings[STARTING[what]]
        names = ", ".join(u.username for u in users)
        messages.success(request, f"Given {amount_words(amount, what)} each to {names}, who had none.")
    data = form.cleaned_data
    players = list(data.get("grant_to") or [])
    if not players:
        return
    what, delta = data.get("grant_what") or "garnets", data["grant_delta"]
    try:
        season_grant_many(
            season=season,
            users=players,
            what=what,
            delta=delta,
            reason=data["grant_reason"],
            actor=request.user,
        )
    except (RulesError, StateChanged, NotAllowed) as exc:
        messages.error(request, f"Nothing was granted: {exc.message}")
        return
    messages.success(
        request, grant_answer(season=season, users=players, what=what, delta=delta, viewer=request.user)
    )
