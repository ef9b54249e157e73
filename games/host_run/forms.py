"""A host-run round's form, built from the questions the hosts set up (rules/fields.py keys and checks them).

Every question is a plain box that passes on what was typed; the form's clean() checks the answers with
`rules.fields.answer_problems`, so a player reads next to each question the same words the API gives.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import conditional_escape

from .rules.fields import TEXT_KINDS, answer_problems, choices_bounds, clean_answers, keyed, text_max

RADIO_MOST = 6  # a one-choice question with more options than this is a drop-down list
NO_ANSWER = ("", "No answer")


class Answer(forms.Field):
    """One question's answer as its widget gives it (a string, or a list for several choices). The form's
    clean() checks it: this field refuses nothing on its own, so the words are the rules' words."""

    def clean(self, value):
        return value


def _widget(field: dict[str, Any], players: dict[int, str]) -> forms.Widget:
    kind = field["kind"]
    optional = not field["required"]
    if kind == "short_text":
        return forms.TextInput(attrs={"maxlength": text_max(field)})
    if kind == "long_text":
        return forms.Textarea(attrs={"rows": 5, "maxlength": text_max(field)})
    if kind == "number":
        attrs: dict[str, Any] = {"step": 1}
        if field["minimum"] is not None:
            attrs["min"] = field["minimum"]
        if field["maximum"] is not None:
            attrs["max"] = field["maximum"]
        return forms.NumberInput(attrs=attrs)
    if kind == "choice":
        options = [(option, option) for option in field["options"]]
        if len(options) > RADIO_MOST:
            return forms.Select(choices=[("", "Choose one")] + options)
        return forms.RadioSelect(choices=options + ([NO_ANSWER] if optional else []))
    if kind == "choices":
        return forms.CheckboxSelectMultiple(choices=[(option, option) for option in field["options"]])
    if kind == "player":
        seats = [(str(seat), name) for seat, name in sorted(players.items())]
        return forms.Select(choices=[("", "Choose a player")] + seats)
    if kind == "yes_no":
        return forms.RadioSelect(choices=[("yes", "Yes"), ("no", "No")] + ([NO_ANSWER] if optional else []))
    return forms.TextInput()


def _help(field: dict[str, Any]) -> str:
    """The help under a question: the host's words, escaped (Django's own form templates mark help as safe),
    then what the form counts, in words."""
    words = [field["help"]] if field["help"] else []
    if field["kind"] == "choices":
        least, most = choices_bounds(field)
        words.append(f"Choose {least}." if least == most else f"Choose at least {least} and at most {most}.")
    if not field["required"]:
        words.append("You may leave this blank.")
    return conditional_escape(" ".join(words))


def to_widget_value(field: dict[str, Any], value: Any) -> Any:
    """A saved answer as its box shows it: a seat or a number as text, yes/no as "yes"/"no"."""
    if value is None:
        return None
    if field["kind"] == "yes_no":
        return "yes" if value is True else "no" if value is False else value
    if field["kind"] in ("number", "player"):
        return str(value)
    return value


class RoundForm(forms.Form):
    """The questions of a host-run round. `fields`: the form's field dicts (keyed here if they are not);
    `players`: {seat: name} for a "player" question; `initial`: a saved payload, shown as it was saved."""

    def __init__(
        self,
        fields: list[dict[str, Any]],
        players: dict[int, str],
        data=None,
        initial: dict[str, Any] | None = None,
        **kwargs,
    ):
        self.definition = keyed(fields)
        self.players = dict(players)
        saved = initial or {}
        shown = {f["key"]: to_widget_value(f, saved[f["key"]]) for f in self.definition if f["key"] in saved}
        super().__init__(data=data, initial=shown, **kwargs)
        self._payload: dict[str, Any] | None = None
        for field in self.definition:
            self.fields[field["key"]] = Answer(
                label=field["label"],
                help_text=_help(field),
                required=field["required"],
                widget=_widget(field, self.players),
            )

    def clean(self):
        data = super().clean()
        raw = {}
        for field in self.definition:
            value = data.get(field["key"])
            if field["kind"] in TEXT_KINDS and isinstance(value, str):
                value = value.strip()
            raw[field["key"]] = value
        problems = answer_problems(self.definition, raw, self.players)
        for key, message in problems.items():
            self.add_error(key if key in self.fields else None, message)
        if problems:
            return self.cleaned_data
        self._payload = clean_answers(self.definition, raw, self.players)
        self.cleaned_data = dict(self._payload)
        return self.cleaned_data

    @property
    def payload(self) -> dict[str, Any]:
        """The clean answers by question key, once the form is valid."""
        if not self.is_valid() or self._payload is None:
            raise ValueError("The form has problems: it has no payload.")
        return dict(self._payload)
