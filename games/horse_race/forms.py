"""The round form (this round's Clue or Utility with exactly its inputs, the space to spectate, the bets) and
the ending's decision form."""

from __future__ import annotations

from django import forms

from games.platform.kit import RulesError
from games.platform.models import Game

from .decisions import FIELD, WORDS, decision_now
from .names import seat_names
from .rules import ABILITIES, HORSES, State, seat_view, validate_submission

KINDS = ("clue", "utility")
MAX_GUESS_COPIES = 2

# What each input asks for, in the words of the rules ("select" keeps the card, "use" discards it).
INPUT_LABELS = {
    ("use", "cards"): "cards to use (discarded)",
    ("select", "cards"): "cards to select (kept)",
    ("select", "horses"): "cards to select (kept)",
    ("select", "horse"): "the card to select",
    ("gain", "horses"): "cards to gain (one for each card used, all different)",
    ("gain", "horse"): "the card to gain",
    ("guesses", "guesses"): "guesses: for each copy you use, how many horses will be ahead (0-8)",
}


def hand_words(hand: dict[str, int]) -> str:
    held = [f"{h}×{n}" for h, n in hand.items() if n]
    return ", ".join(held) if held else "no cards"


class HorseCountsWidget(forms.MultiWidget):
    """One small number box per horse, each labelled with its letter (and how many the player holds)."""

    template_name = "horse_race/widgets/horse_counts.html"

    def __init__(self, horses, notes=None, attrs=None):
        self.horses = list(horses)
        self.notes = notes or {}
        boxes = [
            forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "count"}) for _ in self.horses
        ]
        super().__init__(boxes, attrs)

    def decompress(self, value):
        value = value or {}
        return [value.get(h) for h in self.horses]

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        for horse, sub in zip(self.horses, context["widget"]["subwidgets"], strict=True):
            sub["horse"] = horse
            sub["note"] = self.notes.get(horse, "")
        return context


class HorseCountsField(forms.MultiValueField):
    """A whole number for each horse (cards or chips); blanks and zeros are left out."""

    def __init__(self, horses, what="cards", notes=None, **kwargs):
        self.horses = list(horses)
        message = f"Give a whole number of {what}, 0 or more."
        boxes = [
            forms.IntegerField(
                min_value=0, required=False, error_messages={"invalid": message, "min_value": message}
            )
            for _ in self.horses
        ]
        super().__init__(
            boxes,
            widget=HorseCountsWidget(self.horses, notes),
            require_all_fields=False,
            required=False,
            **kwargs,
        )

    def compress(self, data_list):
        return {h: n for h, n in zip(self.horses, data_list or [None] * len(self.horses), strict=True) if n}


class GuessesWidget(forms.MultiWidget):
    """Two optional guesses per horse, one for each copy of its card used."""

    template_name = "horse_race/widgets/guesses.html"

    def __init__(self, notes=None, attrs=None):
        self.notes = notes or {}
        boxes = [
            forms.NumberInput(
                attrs={"min": 0, "max": len(HORSES) - 1, "inputmode": "numeric", "class": "count"}
            )
            for _ in range(len(HORSES) * MAX_GUESS_COPIES)
        ]
        super().__init__(boxes, attrs)

    def decompress(self, value):
        value = value or {}
        flat = []
        for horse in HORSES:
            guesses = list(value.get(horse, []))
            flat.extend(guesses[i] if i < len(guesses) else None for i in range(MAX_GUESS_COPIES))
        return flat

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        subs = context["widget"]["subwidgets"]
        context["widget"]["rows"] = [
            {
                "horse": h,
                "note": self.notes.get(h, ""),
                "boxes": subs[i * MAX_GUESS_COPIES : (i + 1) * MAX_GUESS_COPIES],
            }
            for i, h in enumerate(HORSES)
        ]
        return context


class GuessesField(forms.MultiValueField):
    def __init__(self, notes=None, **kwargs):
        message = f"A guess is a whole number from 0 to {len(HORSES) - 1}."
        boxes = [
            forms.IntegerField(
                min_value=0,
                max_value=len(HORSES) - 1,
                required=False,
                error_messages={"invalid": message, "min_value": message, "max_value": message},
            )
            for _ in range(len(HORSES) * MAX_GUESS_COPIES)
        ]
        super().__init__(
            boxes, widget=GuessesWidget(notes), require_all_fields=False, required=False, **kwargs
        )

    def compress(self, data_list):
        data_list = data_list or [None] * (len(HORSES) * MAX_GUESS_COPIES)
        guesses = {}
        for i, horse in enumerate(HORSES):
            mine = [g for g in data_list[i * MAX_GUESS_COPIES : (i + 1) * MAX_GUESS_COPIES] if g is not None]
            if mine:
                guesses[horse] = mine
        return guesses


def ability_input(kind: str, name: str, input_kind: str, hand: dict[str, int]) -> forms.Field:
    label = f"{kind.title()}: {INPUT_LABELS[(name, input_kind)]}"
    notes = {h: f"(you hold {n})" for h, n in hand.items()}
    if input_kind == "cards":
        return HorseCountsField(HORSES, "cards", notes, label=label)
    if input_kind == "guesses":
        return GuessesField(
            notes, label=label, help_text="Leave a box blank to use fewer copies (at most 2)."
        )
    if input_kind == "horses":
        return forms.MultipleChoiceField(
            label=label,
            required=False,
            choices=[(h, f"{h} {notes[h]}") for h in HORSES],
            widget=forms.CheckboxSelectMultiple(attrs={"class": "horses"}),
        )
    return forms.ChoiceField(
        label=label, required=False, choices=[("", "—")] + [(h, f"{h} {notes[h]}") for h in HORSES]
    )


def payload_to_initial(payload: dict | None) -> dict:
    """A saved submission as the form's initial values, so it comes back filled in."""
    if not payload:
        return {}
    ability = payload.get("ability") or None
    initial = {"ability": ability["kind"] if ability else "", "space": payload.get("space")}
    if ability:
        for name, value in ability.items():
            if name != "kind":
                initial[f"{ability['kind']}_{name}"] = value
    initial["bets"] = payload.get("bets") or {}
    return initial


class RoundForm(forms.Form):
    """One round's submission for one seat, built from the rules' view of that seat."""

    def __init__(self, *args, state: State, seat: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.state, self.seat, self.payload = state, seat, None
        view = seat_view(state, seat)
        you = view["you"]
        self.inputs = {kind: ABILITIES[(state.round, kind)][1] for kind in KINDS}
        self.fields["ability"] = forms.ChoiceField(
            label=f"Round {state.round} ability",
            required=False,
            widget=forms.RadioSelect,
            choices=[("", "No ability")]
            + [(kind, f"{kind.title()}: {view['abilities'][kind]['text']}") for kind in KINDS],
            help_text=f"Your hand: {hand_words(you['hand'])}.",
        )
        for kind in KINDS:
            for name, input_kind in self.inputs[kind].items():
                self.fields[f"{kind}_{name}"] = ability_input(kind, name, input_kind, you["hand"])
        if not view["spectating_open"]:
            return
        length = view["track_length"]
        here = you["horses_in_current_space"] or []
        if you["current_space"] is None:
            betting = "You have no current space this round, so you cannot bet."
        elif not here:
            betting = f"No horse is on your current space ({you['current_space']}), so you cannot bet."
        else:
            betting = ""
        self.fields["space"] = forms.IntegerField(
            label="Space to spectate",
            required=False,
            min_value=1,
            max_value=length,
            error_messages={
                "invalid": f"Spectate a space from 1 to {length}, or leave it blank for none.",
                "min_value": f"Spectate a space from 1 to {length}, or leave it blank for none.",
                "max_value": f"Spectate a space from 1 to {length}, or leave it blank for none.",
            },
            help_text=f"1-{length}, or blank for none. {betting}".strip(),
        )
        if here:
            self.fields["bets"] = HorseCountsField(
                here,
                "chips",
                label="Bets (chips on each horse)",
                help_text=(
                    f"Horses in your current space ({you['current_space']}): {', '.join(here)}. "
                    f"You may bet at most {you['bet_limit']} chips this round; you hold {you['chips']}."
                ),
            )

    def error_field(self, field: str | None) -> str | None:
        """The form field that a rules error names (the rules say "use"; the form says "clue_use")."""
        if field in self.fields:
            return field
        kind = self.cleaned_data.get("ability")
        if kind and f"{kind}_{field}" in self.fields:
            return f"{kind}_{field}"
        return None

    def build_payload(self, data: dict) -> dict:
        kind = data.get("ability") or None
        ability = None
        if kind:
            ability = {"kind": kind, **{name: data.get(f"{kind}_{name}") for name in self.inputs[kind]}}
        payload = {"ability": ability}
        if "space" in self.fields:
            payload["space"] = data.get("space")
            payload["bets"] = data.get("bets") or {}
        return payload

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if not data.get("ability") and any(
            data.get(f"{kind}_{name}") for kind in KINDS for name in self.inputs[kind]
        ):
            self.add_error("ability", "You filled in cards for an ability: choose the Clue or the Utility.")
            return data
        try:
            self.payload = validate_submission(self.state, self.seat, self.build_payload(data))
        except RulesError as error:
            self.add_error(self.error_field(error.field), error.message)
        return data


class DecisionForm(forms.Form):
    """The winner's choice or an EC vote: one choice among the listed players."""

    def __init__(self, *args, game: Game, state: State, round_number: int, **kwargs):
        super().__init__(*args, **kwargs)
        decision = decision_now(state)
        names = seat_names(game)
        self.field_name = FIELD[decision["kind"]]
        label = "Give the Token of Life to" if decision["kind"] == "winner_choice" else "Your vote for the EC"
        self.fields[self.field_name] = forms.TypedChoiceField(
            label=label,
            coerce=int,
            choices=[("", "Choose a player")] + [(s, names[s]) for s in decision["candidates"]],
            help_text=f"Round {round_number} is {WORDS[decision['kind']]}.",
            error_messages={
                "required": "Choose one of the players listed.",
                "invalid_choice": "Choose one of the players listed.",
            },
        )
