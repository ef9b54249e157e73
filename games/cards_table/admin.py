"""The hosts' admin for Cards on the Table: three 5x5 boards typed as "2R" codes (or drawn from the seed),
the heat rule, hand-set heat indicators, the violations shown with their cells; heat verdicts."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join

from games.platform.admin.hidden import HiddenDataAdmin
from games.platform.admin.scoping import HostScoped
from games.platform.kit import RulesError
from games.platform.services.audit import audit

from .hidden import OVERRIDE_HELP, boards_from_seed, card_from_code, overrides_text, parse_overrides
from .models import UNSTARTED, BoardSet, HeatVerdict
from .rules import validate_boards

ROUNDS = (1, 2, 3)
CELLS = [(row, col) for row in range(1, 6) for col in range(1, 6)]


def cell_field(rnd: int, row: int, col: int) -> str:
    return f"r{rnd}_{row}{col}"


class BoardSetFormBase(forms.ModelForm):
    from_seed = forms.BooleanField(
        required=False,
        label="Generate from the game's seed",
        help_text="Tick to fill all three boards from the game's seed (what you typed below is replaced).",
    )
    keep_draft = forms.BooleanField(
        required=False,
        label="Save even with broken rules",
        help_text="Keep boards that break a rule as a draft. Boards with cards still blank are always kept "
        "as a draft. The game cannot start until every card is there and every rule holds.",
    )
    overrides = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 40}),
        label="Hand-set heat indicators",
        help_text=OVERRIDE_HELP,
    )

    class Meta:
        model = BoardSet
        fields = ("game", "heat_rule")

    def __init__(self, *args, hosted=None, **kwargs):
        super().__init__(*args, **kwargs)
        codes = self.instance.codes if self.instance.pk else []
        for rnd in ROUNDS:
            board = codes[rnd - 1] if len(codes) >= rnd else []
            for i, (row, col) in enumerate(CELLS):
                if i < len(board) and cell_field(rnd, row, col) in self.fields:
                    self.fields[cell_field(rnd, row, col)].initial = board[i]
        if self.instance.pk:
            # A started game's form has neither (they are read-only); an unstarted one keeps its game.
            if "game" in self.fields:
                self.fields["game"].disabled = True
            if "overrides" in self.fields:
                self.fields["overrides"].initial = overrides_text(self.instance.heat_overrides)
        elif hosted is not None:
            self.fields["game"].queryset = hosted

    def clean(self):
        data = super().clean()
        game = data.get("game") or getattr(self.instance, "game", None)
        if game is not None and game.status not in UNSTARTED:
            raise forms.ValidationError("The game has started: its boards are locked.")
        try:
            self.heat_overrides = parse_overrides(data.get("overrides", ""))
        except RulesError as error:
            self.add_error("overrides", error.message)
        if data.get("from_seed"):
            if game is None:
                raise forms.ValidationError("Choose the game first.")
            self.codes = boards_from_seed(game)
            return data
        self.codes = [
            [(data.get(cell_field(rnd, row, col)) or "").strip().upper() for row, col in CELLS]
            for rnd in ROUNDS
        ]
        cards = {}
        for rnd in ROUNDS:
            for i, (row, col) in enumerate(CELLS):
                name = cell_field(rnd, row, col)
                if not self.codes[rnd - 1][i]:
                    continue  # a blank card is still to type: the set is kept as a draft
                try:
                    cards[rnd, i] = card_from_code(self.codes[rnd - 1][i])
                except RulesError as error:
                    self.add_error(name, error.message)
        if len(cards) < len(ROUNDS) * len(CELLS):
            return data
        boards = tuple(tuple(cards[rnd, i] for i in range(len(CELLS))) for rnd in ROUNDS)
        diagonal = bool(((game.settings if game else {}).get("rules") or {}).get("diagonal_adjacency", False))
        violations = validate_boards(boards, diagonal)
        if violations and not data.get("keep_draft"):
            self._show_violations(violations)
        return data

    def _show_violations(self, violations) -> None:
        """Each broken rule next to every cell it names (round 0 names a location in all three rounds)."""
        for violation in violations:
            named = set()
            for rnd, row, col in violation.cells:
                for r in ROUNDS if rnd == 0 else (rnd,):
                    named.add(cell_field(r, row, col))
            for name in sorted(named):
                self.add_error(name, violation.message)
        self.add_error(None, [f"{v.rule}: {v.message}" for v in violations])


BoardSetForm = type(
    "BoardSetForm",
    (BoardSetFormBase,),
    {
        cell_field(rnd, row, col): forms.CharField(
            required=False,
            max_length=8,
            label=f"R{row}C{col}",
            widget=forms.TextInput(attrs={"size": 3, "class": "cards-table-cell"}),
        )
        for rnd in ROUNDS
        for row, col in CELLS
    },
)


def boards_html(board_set: BoardSet) -> str:
    """The saved boards as tables, each cell with its code, then every violation with its cells."""
    tables = format_html_join(
        "",
        "<table><caption>Round {}</caption>{}</table>",
        (
            (
                rnd,
                format_html_join(
                    "",
                    "<tr>{}</tr>",
                    (
                        (
                            format_html_join(
                                "", "<td>{}</td>", ((code or "·",) for code in board[r * 5 : r * 5 + 5])
                            ),
                        )
                        for r in range(5)
                    ),
                ),
            )
            for rnd, board in enumerate(board_set.codes or [], start=1)
        ),
    )
    problems = format_html_join(
        "",
        "<li>{}: {} <small>{}</small></li>",
        (
            (v["rule"], v["message"], " ".join(f"R{c[0] or '*'} R{c[1]}C{c[2]}" for c in v["cells"]))
            for v in board_set.violations()
        ),
    )
    verdict = format_html("<ul>{}</ul>", problems) if problems else "Every rule of the boards holds."
    return format_html("{}<p>{}</p>", tables, verdict)


@admin.register(BoardSet)
class BoardSetAdmin(HiddenDataAdmin, admin.ModelAdmin):
    """Each host sees the boards of the games they host; a started game's boards are read-only."""

    form = BoardSetForm
    list_display = ("game", "status", "draft", "heat_rule", "updated_at")
    actions = ["generate_from_seed"]

    game_type = "cards_table"
    hidden_related = "cards_table_boards"

    def get_fieldsets(self, request, obj=None):
        if obj is not None and obj.locked:
            return [(None, {"fields": ["game", "heat_rule", "board_check"]})]
        boards = [
            (
                f"Round {rnd} board (codes like 2R, 3Y, 1B)",
                {"fields": [tuple(cell_field(rnd, row, col) for col in range(1, 6)) for row in range(1, 6)]},
            )
            for rnd in ROUNDS
        ]
        first = ["game", "from_seed", "keep_draft", "heat_rule", "overrides"]
        if obj is not None:
            first.append("board_check")
        return [(None, {"fields": first}), *boards]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.locked:
            return ("game", "heat_rule", "board_check")
        return ("board_check",) if obj is not None else ()

    @admin.display(description="The saved boards and what breaks the rules")
    def board_check(self, obj):
        return boards_html(obj)

    @admin.display(description="Ready to start?")
    def draft(self, obj):
        summary = obj.summary()
        return f"Draft: {summary}" if summary else "Complete"

    def save_model(self, request, obj, form, change):
        obj.codes = form.codes
        obj.heat_overrides = form.heat_overrides
        super().save_model(request, obj, form, change)
        summary = obj.summary()
        if summary:
            messages.warning(
                request,
                f"Saved as a draft: {summary}. The game cannot start until every card is there and every "
                "rule holds.",
            )
        audit(
            action="cards_table_boards",
            actor=request.user,
            game=obj.game,
            from_seed=bool(form.cleaned_data.get("from_seed")),
            valid=not obj.violations(),
        )

    @admin.action(description="Generate the boards from the game's seed")
    def generate_from_seed(self, request, queryset):
        for board_set in queryset.select_related("game"):
            if board_set.locked:
                messages.error(request, f"{board_set.game}: the game has started; its boards are locked.")
                continue
            board_set.codes = boards_from_seed(board_set.game)
            board_set.save(update_fields=["codes", "updated_at"])
            audit(action="cards_table_boards", actor=request.user, game=board_set.game, from_seed=True)
            messages.success(request, f"{board_set.game}: generated from the seed.")


@admin.register(HeatVerdict)
class HeatVerdictAdmin(HostScoped, admin.ModelAdmin):
    """The hosts' verdicts on heat guesses (given on the game page, where the waiting guesses are listed)."""

    list_display = ("game", "round_number", "seat", "correct", "judged_by", "judged_at")
    readonly_fields = [f.name for f in HeatVerdict._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False
