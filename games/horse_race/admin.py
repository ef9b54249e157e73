"""The hosts' admin for a Horse Race: the movement table as a grid (or drawn from the seed), the trades."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join

from games.platform.admin.hidden import HiddenDataAdmin
from games.platform.admin.scoping import HostScoped
from games.platform.models import Game
from games.platform.services.audit import audit

from .hidden import movement_from_seed
from .models import MovementTable, TradeOffer
from .rules import HORSES, ROUNDS

UNSTARTED = (Game.Status.DRAFT, Game.Status.SEEDING)


def cell(horse: str, round_number: int) -> str:
    return f"{horse}{round_number}"


class MovementTableFormBase(forms.ModelForm):
    from_seed = forms.BooleanField(
        required=False,
        label="Generate from the game's seed",
        help_text="Tick to fill the whole table from the game's seed (what you typed below is ignored).",
    )

    class Meta:
        model = MovementTable
        fields = ("game",)

    def __init__(self, *args, hosted=None, **kwargs):
        super().__init__(*args, **kwargs)
        grid = self.instance.grid or {} if self.instance.pk else {}
        for horse in HORSES:
            row = grid.get(horse) or []
            for r in range(1, min(len(row), ROUNDS) + 1):
                if cell(horse, r) in self.fields:
                    self.fields[cell(horse, r)].initial = row[r - 1]
        if "game" not in self.fields:
            return  # the locked, read-only view
        if self.instance.pk:
            self.fields["game"].disabled = True
        elif hosted is not None:
            self.fields["game"].queryset = hosted

    def clean(self):
        data = super().clean()
        game = data.get("game") or getattr(self.instance, "game", None)
        if game is not None and game.status not in UNSTARTED:
            raise forms.ValidationError("The game has started: its movement table is locked.")
        if data.get("from_seed"):
            if game is None:
                raise forms.ValidationError("Choose the game first.")
            self.grid = movement_from_seed(game.seed)
            return data
        # A blank cell is a cell still to fill: the table is kept as a draft, and the game cannot start
        # until it is complete. A value that is not 1, 2 or 3 is a slip, shown next to its cell.
        self.grid = {h: [data.get(cell(h, r)) for r in range(1, ROUNDS + 1)] for h in HORSES}
        for horse, row in self.grid.items():
            for r, value in enumerate(row, start=1):
                if cell(horse, r) not in self.errors and value not in (1, 2, 3, None):
                    self.add_error(cell(horse, r), "1, 2 or 3")
        return data


# 90 small number boxes named A1..I10, declared on the class so the admin's fieldsets may name them.
MovementTableForm = type(
    "MovementTableForm",
    (MovementTableFormBase,),
    {
        cell(h, r): forms.IntegerField(
            required=False,
            label=f"{h} R{r}",
            error_messages={"invalid": "1, 2 or 3"},
            widget=forms.NumberInput(attrs={"min": 1, "max": 3, "class": "vIntegerField"}),
        )
        for h in HORSES
        for r in range(1, ROUNDS + 1)
    },
)


def grid_html(grid: dict) -> str:
    head = format_html_join("", "<th>R{}</th>", ((r,) for r in range(1, ROUNDS + 1)))
    rows = format_html_join(
        "",
        "<tr><th>{}</th>{}</tr>",
        ((h, format_html_join("", "<td>{}</td>", ((v,) for v in (grid.get(h) or [])))) for h in HORSES),
    )
    return format_html("<table><tr><th></th>{}</tr>{}</table>", head, rows)


@admin.register(MovementTable)
class MovementTableAdmin(HiddenDataAdmin, admin.ModelAdmin):
    """Each host sees the tables of the games they host; a started game's table is read-only."""

    form = MovementTableForm
    list_display = ("game", "status", "draft", "updated_at")
    actions = ["generate_from_seed"]

    game_type = "horse_race"
    hidden_related = "horse_race_movement"

    def get_fieldsets(self, request, obj=None):
        if obj is not None and obj.locked:
            return [(None, {"fields": ["game", "table"]})]
        rows = [(f"Horse {h}", {"fields": [tuple(cell(h, r) for r in range(1, ROUNDS + 1))]}) for h in HORSES]
        return [(None, {"fields": ["game", "from_seed"]}), *rows]

    def get_readonly_fields(self, request, obj=None):
        return ("game", "table") if obj is not None and obj.locked else ()

    @admin.display(description="Movement values (Rounds 1-10)")
    def table(self, obj):
        return grid_html(obj.grid)

    @admin.display(description="Ready to start?")
    def draft(self, obj):
        summary = obj.summary()
        return f"Draft: {summary}" if summary else "Complete"

    def save_model(self, request, obj, form, change):
        obj.grid = form.grid
        super().save_model(request, obj, form, change)
        summary = obj.summary()
        if summary:
            messages.warning(
                request, f"Saved as a draft: {summary}. The game cannot start until every cell is filled."
            )
        audit(
            action="horse_race_movement_table",
            actor=request.user,
            game=obj.game,
            from_seed=bool(form.cleaned_data.get("from_seed")),
        )

    @admin.action(description="Generate the movement table from the game's seed")
    def generate_from_seed(self, request, queryset):
        for table in queryset.select_related("game"):
            if table.locked:
                messages.error(request, f"{table.game}: the game has started; its table is locked.")
                continue
            table.grid = movement_from_seed(table.game.seed)
            table.save(update_fields=["grid", "updated_at"])
            audit(action="horse_race_movement_table", actor=request.user, game=table.game, from_seed=True)
            messages.success(request, f"{table.game}: generated from the seed.")


@admin.register(TradeOffer)
class TradeOfferAdmin(HostScoped, admin.ModelAdmin):
    """Trades are private to the two players and the game's hosts."""

    list_display = (
        "game",
        "round_number",
        "offered_by",
        "give",
        "offered_to",
        "want",
        "status",
        "created_at",
    )
    list_filter = ("status",)
    readonly_fields = [f.name for f in TradeOffer._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False
