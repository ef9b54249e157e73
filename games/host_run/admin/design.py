"""The hosts' admin of a host-run game's design, all as forms (no JSON): the rules text, the rounds and their
windows, the board, the notes; the round form's questions, the rounds that differ, the private columns and
each seat's starting values (a grid of seat x column). Every question is checked by rules/fields.py, its
problem shown on its row; what still keeps the game from starting (hidden.design_problems) heads the page.
Locked once the game starts. "Copy this game" makes a new draft of the same design in a season of the host's.
"""

from __future__ import annotations

import re

from django import forms
from django.contrib import admin, messages
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games.platform.admin.hidden import HiddenDataAdmin
from games.platform.errors import NotAllowed, StateChanged
from games.platform.kit import RulesError
from games.platform.models import Game, Season
from games.platform.services.audit import audit

from ..hidden import design_copy, design_problems
from ..models import Design, Field, PrivateColumn, PrivateValue, RoundPlan
from ..rules.fields import KINDS, definition_problems

QUESTION_KEYS = ("kind", "label", "help", "required", "minimum", "maximum", "options")
LEAST_MOST = (
    "number: the least / most value; several choices: at least / at most chosen; short or long text: the "
    "most characters (its least stays blank); other kinds: leave blank."
)
NO_HTML = "Markdown (**bold**, lists, tables). HTML is not allowed: it shows as text."


def first_upper(message: str) -> str:
    return message[:1].upper() + message[1:]


# ---- the design's own form --------------------------------------------------------------------------


class DesignForm(forms.ModelForm):
    """The design's fields, and (once saved) one box per seat and private column: that seat's value."""

    grid: list = []  # (field name, column, seat), set by DesignAdmin.get_form

    class Meta:
        model = Design
        fields = (
            "game",
            "rules",
            "rounds",
            "window",
            "window_unit",
            "opened_by_hand",
            "scoreboard_public",
            "board",
            "notes",
        )
        labels = {
            "rules": "Rules",
            "rounds": "Number of rounds",
            "window": "Each round's window",
            "window_unit": "in",
            "opened_by_hand": "Rounds opened by hand",
            "scoreboard_public": "Scoreboard public",
            "board": "Public board",
            "notes": "The hosts' hidden notes",
        }
        help_texts = {
            "rules": "The game's own rules, shown on its page and its rules page. " + NO_HTML,
            "rounds": "Blank: open-ended (a host ends the game in a resolution).",
            "window": "How long each round stays open (a round that differs may have its own, below).",
            "opened_by_hand": 'Ticked: every round after the first waits for a host\'s "Open Round N".',
            "scoreboard_public": "Unticked: points are hidden from players and spectators until the end "
            "(each player still sees their own).",
            "board": "What everyone sees at the start; you change it with each round's results. " + NO_HTML,
            "notes": "Only the hosts see these; they are committed at the start and shown to all at the end.",
        }
        widgets = {
            "rules": forms.Textarea(attrs={"rows": 20, "cols": 100}),
            "board": forms.Textarea(attrs={"rows": 6, "cols": 100}),
            "notes": forms.Textarea(attrs={"rows": 4, "cols": 100}),
        }

    def __init__(self, *args, hosted=None, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            if "game" in self.fields:
                self.fields["game"].disabled = True
            saved = {
                (v.column_id, v.seat_id): v.value
                for v in PrivateValue.objects.filter(column__design=self.instance)
            }
            for name, column, seat in self.grid:
                if name in self.fields:
                    self.fields[name].initial = saved.get((column.pk, seat.pk), "")
        elif hosted is not None and "game" in self.fields:
            self.fields["game"].queryset = hosted
            self.fields[
                "game"
            ].help_text = "Your host-run games that have not started and have no design yet."

    def clean_rounds(self):
        rounds = self.cleaned_data.get("rounds")
        if rounds is not None and rounds < 1:
            raise forms.ValidationError("At least 1 round, or blank for an open-ended game.")
        return rounds

    def clean_window(self):
        window = self.cleaned_data.get("window")
        if window is not None and window < 1:
            raise forms.ValidationError("A window lasts at least 1 minute or hour.")
        return window

    def clean(self):
        data = super().clean()
        game = data.get("game") or (self.instance.game if self.instance.pk else None)
        if game is not None and game.status not in (Game.Status.DRAFT, Game.Status.SEEDING):
            raise forms.ValidationError("The game has started: its design is locked.")
        return data


# ---- the inlines ---------------------------------------------------------------------------------------


def label_cells(form, row: str) -> None:
    """A table's cells have no <label> of their own: each box is named by its column and row ("Kind
    (question 2)"), so a screen reader says which box it is in."""
    match = re.search(r"-(\d+)$", form.prefix or "")
    where = f" ({row} {int(match.group(1)) + 1})" if match else f" (new {row})"
    for name, field in form.fields.items():
        words = "Delete" if name == "DELETE" else str(field.label or name.replace("_", " ").capitalize())
        field.widget.attrs["aria-label"] = words + where


class LabelledCells(BaseInlineFormSet):
    """An inline's formset whose every box (the delete box too) is named for a screen reader."""

    row = "row"

    def add_fields(self, form, index):
        super().add_fields(form, index)
        label_cells(form, self.row)


class DesignInline(admin.TabularInline):
    """Rows of the design: the hosts of its game edit them until the start (the design's admin scopes)."""

    extra = 0
    # Django's tabular inline, its sideways-scrolling table a region the keyboard reaches (axe-core).
    template = "admin/host_run/edit_inline/tabular.html"

    def _staff(self, request) -> bool:
        return request.user.is_active and request.user.is_staff

    def _open(self, request, obj) -> bool:
        return self._staff(request) and not (obj is not None and obj.locked)

    def has_view_permission(self, request, obj=None):
        return self._staff(request)

    def has_add_permission(self, request, obj=None):
        return self._open(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._open(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._open(request, obj)


class QuestionForm(forms.ModelForm):
    kind = forms.ChoiceField(choices=[("", "---------"), *KINDS], label="Kind")

    class Meta:
        model = Field
        fields = (
            "round_number",
            "order",
            "kind",
            "label",
            "help",
            "required",
            "minimum",
            "maximum",
            "options",
        )
        labels = {
            "round_number": "Round",
            "minimum": "Least / at least",
            "maximum": "Most / at most",
            "options": "Options",
        }
        help_texts = {
            "round_number": "Blank: the game's form (every round without its own); a number: that round's "
            "own form.",
            "order": "Questions are asked in this order.",
            "label": "The question, as the players read it.",
            "help": "A line under the question (optional).",
            "minimum": LEAST_MOST,
            "maximum": LEAST_MOST,
            "options": "One choice / several choices: one option per line.",
        }
        widgets = {
            "round_number": forms.NumberInput(attrs={"class": "hr-narrow"}),
            "order": forms.NumberInput(attrs={"class": "hr-narrow"}),
            "minimum": forms.NumberInput(attrs={"class": "hr-number"}),
            "maximum": forms.NumberInput(attrs={"class": "hr-number"}),
            "help": forms.TextInput(attrs={"size": 24}),
            "options": forms.Textarea(attrs={"rows": 3, "cols": 22}),
        }

    def clean_round_number(self):
        number = self.cleaned_data.get("round_number")
        if number is not None and number < 1:
            raise forms.ValidationError("Rounds count from 1 (blank: the game's form).")
        return number


class QuestionFormSet(LabelledCells):
    """Each form (the game's, each round's own) checked by rules/fields.py: a problem on its question's row,
    next to the box at fault."""

    row = "question"

    def clean(self):
        super().clean()
        forms_by_round: dict[int | None, list] = {}
        for position, form in enumerate(self.forms):
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or self._should_delete_form(form):
                continue
            forms_by_round.setdefault(data.get("round_number"), []).append((data.get("order") or 0, position))
        for rows in forms_by_round.values():
            rows.sort()
            asked = [self.forms[position] for _order, position in rows]
            definitions = [{key: form.cleaned_data.get(key) for key in QUESTION_KEYS} for form in asked]
            for index, attribute, message in definition_problems(definitions):
                if index is None:
                    continue  # an empty form: the page's problems say it (the game cannot start without)
                form = asked[index]
                form.add_error(attribute if attribute in form.fields else None, message)


class QuestionInline(DesignInline):
    model = Field
    form = QuestionForm
    formset = QuestionFormSet
    verbose_name = "round form question"
    verbose_name_plural = "Round form questions"
    extra = 3


class PlanForm(forms.ModelForm):
    class Meta:
        model = RoundPlan
        fields = ("number", "title", "window", "window_unit", "opens")
        labels = {"number": "Round", "window": "Window", "window_unit": "in", "opens": "Opens"}
        help_texts = {
            "title": 'Shown with the round ("The auction"); optional.',
            "window": "Blank: the game's window.",
            "opens": "Round 1 always opens at the start.",
        }
        widgets = {"number": forms.NumberInput(attrs={"class": "hr-narrow"})}

    def clean_number(self):
        number = self.cleaned_data.get("number")
        if number is not None and number < 1:
            raise forms.ValidationError("Rounds count from 1.")
        return number


class PlanFormSet(LabelledCells):
    row = "round that differs"


class PlanInline(DesignInline):
    model = RoundPlan
    form = PlanForm
    formset = PlanFormSet
    verbose_name = "round that differs"
    verbose_name_plural = "Rounds that differ"


class ColumnFormSet(LabelledCells):
    row = "column"

    def clean(self):
        super().clean()
        seen: set[str] = set()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or not data.get("name"):
                continue
            name = data["name"].strip().casefold()
            if name in seen:
                form.add_error("name", "Another column has this name: give each its own.")
            seen.add(name)


class ColumnInline(DesignInline):
    model = PrivateColumn
    formset = ColumnFormSet
    fields = ("order", "name")
    verbose_name = "private value column"
    verbose_name_plural = "Private values: the columns (a role, a hand, a secret number)"
    extra = 1


# ---- the admin -----------------------------------------------------------------------------------------


def grid_name(column: PrivateColumn, seat) -> str:
    return f"private_{column.pk}_{seat.pk}"


def seat_words(seat) -> str:
    return f"Seat {seat.number + 1} ({seat.user.username})"


@admin.register(Design)
class DesignAdmin(HiddenDataAdmin, admin.ModelAdmin):
    """Each host sees the designs of the games they host; a started game's design is read-only."""

    form = DesignForm
    inlines = [QuestionInline, PlanInline, ColumnInline]
    list_display = ("game", "game_kind", "status", "rounds", "ready")
    game_types = ("host_run", "host_run_death")
    hidden_related = "host_run_design"

    class Media:
        css = {"all": ("host_run/admin.css",)}

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")

    # -- the page ------------------------------------------------------------------------------------
    def _grid(self, obj) -> list:
        if obj is None or obj.locked:
            return []
        columns = list(obj.private_columns.order_by("order", "id"))
        seats = list(obj.game.seats.select_related("user").order_by("number"))
        return [(grid_name(column, seat), column, seat) for seat in seats for column in columns]

    def get_form(self, request, obj=None, change=False, **kwargs):
        grid = self._grid(obj)
        attrs = {"grid": grid}
        for name, column, seat in grid:
            attrs[name] = forms.CharField(
                required=False,
                label=f"{seat_words(seat)}: {column.name}",
                widget=forms.Textarea(attrs={"rows": 1, "cols": 40}),
            )
        kwargs["form"] = type("DesignGridForm", (self.form,), attrs)
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        setup = [
            "game",
            "rules",
            "rounds",
            ("window", "window_unit"),
            "opened_by_hand",
            "scoreboard_public",
            "board",
            "notes",
        ]
        if obj is None:
            return [
                (None, {"fields": setup, "description": "Save once: then set each seat's private values."})
            ]
        head = (None, {"fields": ["start_problems"]})
        if obj.locked:
            return [
                head,
                ("The set-up", {"fields": setup}),
                ("Private values", {"fields": ["private_table"]}),
            ]
        grid = self._grid(obj)
        rows: dict[int, list[str]] = {}
        for name, _column, seat in grid:
            rows.setdefault(seat.pk, []).append(name)
        words = (
            "Each seat's value of each column at the start: a seat sees only its own. Add a column below and "
            "save to get its boxes here."
        )
        if not grid:
            words = "Add a column below (a role, a hand, a secret number) and seat the players, then save."
        return [
            head,
            ("The set-up", {"fields": setup}),
            ("Private values", {"fields": [tuple(names) for names in rows.values()], "description": words}),
        ]

    def get_readonly_fields(self, request, obj=None):
        return ("start_problems", "private_table") if obj is not None else ()

    @admin.display(description="Before the start")
    def start_problems(self, obj):
        if obj.locked:
            return "The game has started: its design was copied into it and is locked here."
        problems = design_problems(obj.game)
        if not problems:
            return "The design is ready to start."
        return format_html(
            "<ul>{}</ul>", format_html_join("", "<li>{}.</li>", ((first_upper(p),) for p in problems))
        )

    @admin.display(description="Each seat's values at the start")
    def private_table(self, obj):
        columns = list(obj.private_columns.order_by("order", "id"))
        seats = list(obj.game.seats.select_related("user").order_by("number"))
        if not columns or not seats:
            return "None."
        values = {(v.column_id, v.seat_id): v.value for v in PrivateValue.objects.filter(column__in=columns)}
        head = format_html_join("", "<th>{}</th>", ((c.name,) for c in columns))
        body = format_html_join(
            "",
            "<tr><th>{}</th>{}</tr>",
            (
                (
                    seat_words(seat),
                    format_html_join(
                        "", "<td>{}</td>", ((values.get((c.pk, seat.pk), ""),) for c in columns)
                    ),
                )
                for seat in seats
            ),
        )
        return format_html("<table><tr><th>Seat</th>{}</tr>{}</table>", head, body)

    @admin.display(description="Type")
    def game_kind(self, obj):
        return "Death Match" if obj.game.game_type == "host_run_death" else "Main Match"

    @admin.display(description="Ready to start?")
    def ready(self, obj):
        if obj.locked:
            return "Started"
        problems = design_problems(obj.game)
        return "Ready" if not problems else f"{len(problems)} to fix"

    # -- saving ----------------------------------------------------------------------------------------
    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        design = form.instance
        live = set(design.private_columns.values_list("pk", flat=True))
        for name, column, seat in form.grid:
            if column.pk in live and name in form.cleaned_data:
                PrivateValue.objects.update_or_create(
                    column_id=column.pk, seat=seat, defaults={"value": form.cleaned_data[name]}
                )
        audit(action="host_run_design", actor=request.user, game=design.game, created=not change)
        problems = design_problems(design.game)
        if problems:
            messages.warning(
                request,
                "Saved. Before the game can start: " + "; ".join(p.rstrip(".") for p in problems) + ".",
            )

    def response_add(self, request, obj, post_url_continue=None):
        # The design's own page: the private values' boxes are there once its columns are saved.
        if "_addanother" in request.POST or "_popup" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        messages.success(request, f"The design of {obj.game} was saved.")
        return HttpResponseRedirect(reverse("admin:host_run_design_change", args=[obj.pk]))

    # -- Copy this game ---------------------------------------------------------------------------------
    def get_urls(self):
        own = [
            path(
                "<path:object_id>/copy/",
                self.admin_site.admin_view(self.copy_view),
                name="host_run_design_copy",
            )
        ]
        return own + super().get_urls()

    def copy_view(self, request, object_id):
        design = self.get_object(request, object_id)  # only the designs of the games this user hosts
        if design is None or not self.has_view_permission(request, design):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        seasons = (
            Season.objects.all() if request.user.is_superuser else Season.objects.filter(hosts=request.user)
        )
        game = design.game
        form = CopyForm(request.POST or None, seasons=seasons, game=game)
        if request.method == "POST" and form.is_valid():
            try:
                copy = design_copy(
                    game=game,
                    season=form.cleaned_data["season"],
                    name=form.cleaned_data["name"],
                    actor=request.user,
                )
            except (RulesError, StateChanged, NotAllowed) as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    f"{copy.name} is a new draft in {copy.season}, with the design of {game.name} "
                    "(its rules, rounds and questions; no seats, private values or notes). "
                    "Seat its players on its page.",
                )
                new = Design.objects.get(game=copy)
                return HttpResponseRedirect(reverse("admin:host_run_design_change", args=[new.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": design,
            "title": f"Copy {game.name}",
            "form": form,
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/host_run/design/copy.html", context)


class CopyForm(forms.Form):
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(), help_text="One of the seasons you host.", empty_label=None
    )
    name = forms.CharField(max_length=120, label="The new game's name")

    def __init__(self, *args, seasons, game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = seasons.order_by("-id")
        if game.season_id and seasons.filter(pk=game.season_id).exists():
            self.fields["season"].initial = game.season_id
        self.fields["name"].initial = f"{game.name} (again)"[:120]
