"""The round's submission forms: the board guess grid, the top-of-list guess, the one heat guess; the
winners' choice of the elimination candidate."""

from __future__ import annotations

from django import forms

from .rules.play import MAX_HEAT_GUESS

NUMBER_CHOICES = [("", "?"), ("1", "1"), ("2", "2"), ("3", "3")]
COLOUR_CHOICES = [("", "?"), ("red", "Red"), ("blue", "Blue"), ("yellow", "Yellow")]
CELLS = [(row, col) for row in range(1, 6) for col in range(1, 6)]


class BoardGuessWidget(forms.MultiWidget):
    """50 small selects laid out as the 5x5 board: a number and a colour per card."""

    template_name = "cards_table/widgets/board_guess.html"

    def __init__(self, attrs=None):
        widgets = []
        for row, col in CELLS:
            widgets.append(forms.Select(choices=NUMBER_CHOICES, attrs={"aria-label": f"R{row}C{col} number"}))
            widgets.append(forms.Select(choices=COLOUR_CHOICES, attrs={"aria-label": f"R{row}C{col} colour"}))
        super().__init__(widgets, attrs)

    def decompress(self, value):
        if not value:
            return [""] * 50
        flat = []
        for row in value:
            for number, colour in row:
                flat += [str(number) if number else "", colour or ""]
        return flat

    def get_context(self, name, value, attrs):
        if isinstance(value, list) and len(value) == 5:
            value = self.decompress(value)  # a saved guess, 5 rows of pairs, not yet the 50 select values
        context = super().get_context(name, value, attrs)
        subs = context["widget"]["subwidgets"]
        context["rows"] = [
            [(f"R{r}C{c}", subs[2 * i], subs[2 * i + 1]) for i, (r, c) in enumerate(CELLS) if r == row]
            for row in range(1, 6)
        ]
        return context


class BoardGuessField(forms.MultiValueField):
    """The board guess: 5 rows of 5 [number, colour] pairs, blanks allowed (a blank counts as wrong)."""

    widget = BoardGuessWidget

    def __init__(self, **kwargs):
        fields = []
        for _ in CELLS:
            fields.append(
                forms.ChoiceField(
                    choices=NUMBER_CHOICES,
                    required=False,
                    error_messages={"invalid_choice": "A guessed number is 1, 2 or 3 (or blank)."},
                )
            )
            fields.append(
                forms.ChoiceField(
                    choices=COLOUR_CHOICES,
                    required=False,
                    error_messages={"invalid_choice": "A guessed colour is red, blue or yellow (or blank)."},
                )
            )
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list):
        if not data_list or not any(data_list):
            return None
        pairs = [
            [int(data_list[2 * i]) if data_list[2 * i] else None, data_list[2 * i + 1] or None]
            for i in range(len(CELLS))
        ]
        return [pairs[r * 5 : r * 5 + 5] for r in range(5)]


class RoundForm(forms.Form):
    """What a player saves until the round closes; every part is optional and may change until then."""

    board_guess = BoardGuessField(
        label="Your guess of this round's board",
        help_text="Numbers right and colours right each earn a point for the top players (Threshold 3).",
    )

    def __init__(self, *args, round_number: int, others: list[tuple[int, str]], heat_open: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if round_number > 1:
            self.fields["top_guess"] = forms.TypedChoiceField(
                choices=[("", "No guess")] + [(str(n), name) for n, name in others],
                coerce=int,
                empty_value=None,
                required=False,
                label=f"Who topped Round {round_number - 1}'s primary list?",
                error_messages={"invalid_choice": "Pick another player of this game."},
            )
        if heat_open:
            self.fields["heat_guess"] = forms.CharField(
                required=False,
                max_length=MAX_HEAT_GUESS,
                widget=forms.Textarea(attrs={"rows": 3}),
                label="How is the heat indicator calculated? (once per game)",
                help_text="The host judges it right or wrong; you are told at the close. You have one guess.",
                error_messages={"max_length": f"Keep your guess under {MAX_HEAT_GUESS} characters."},
            )

    @property
    def payload(self) -> dict:
        data = self.cleaned_data
        return {
            "board_guess": data.get("board_guess"),
            "top_guess": data.get("top_guess"),
            "heat_guess": (data.get("heat_guess") or "").strip(),
        }


def payload_to_initial(payload: dict | None) -> dict:
    """A saved payload back into the form's fields, so a player sees what they saved."""
    if not payload:
        return {}
    initial = {"board_guess": payload.get("board_guess")}
    if payload.get("top_guess") is not None:
        initial["top_guess"] = str(payload["top_guess"])
    if payload.get("heat_guess"):
        initial["heat_guess"] = payload["heat_guess"]
    return initial


class LoserChoiceForm(forms.Form):
    """Round 4, for the winners only: which of the players still tied becomes the elimination candidate."""

    loser = forms.TypedChoiceField(
        coerce=int,
        label="Who becomes the elimination candidate?",
        error_messages={
            "invalid_choice": "Pick one of the tied players.",
            "required": "Pick one of the tied players.",
        },
    )

    def __init__(self, *args, candidates: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["loser"].choices = [("", "Choose")] + [(str(n), name) for n, name in candidates]
