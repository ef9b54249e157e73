"""The round form drawn from the hosts' field definitions.

A STOPGAP written by the hr-core helper so the game type's pages and tests run before the hr-fields helper's
forms.py is merged: that version replaces this file whole (the same `RoundForm(fields, players, data=,
initial=)` and its `payload`)."""

from __future__ import annotations

from django import forms

YES_NO = [("yes", "Yes"), ("no", "No")]


def _options(field: dict) -> list[str]:
    options = field.get("options") or []
    if isinstance(options, str):
        options = options.splitlines()
    return [o.strip() for o in options if o.strip()]


class RoundForm(forms.Form):
    """One form field per question; `payload` is the answers as the rules check them."""

    def __init__(self, fields: list[dict], players: dict[int, str], data=None, initial=None):
        self.definitions = fields
        super().__init__(data=data, initial=self._initial(fields, initial or {}))
        for field in fields:
            self.fields[field["key"]] = self._field(field, players)

    @staticmethod
    def _initial(fields: list[dict], payload: dict) -> dict:
        initial = {}
        for field in fields:
            value = payload.get(field["key"])
            if field["kind"] == "yes_no" and value is not None:
                value = "yes" if value else "no"
            initial[field["key"]] = value
        return initial

    @staticmethod
    def _field(field: dict, players: dict[int, str]) -> forms.Field:
        common = {
            "label": field["label"],
            "help_text": field.get("help") or "",
            "required": field.get("required", True),
        }
        kind, low, high = field["kind"], field.get("minimum"), field.get("maximum")
        if kind == "short_text":
            return forms.CharField(max_length=high or 200, **common)
        if kind == "long_text":
            return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), max_length=high, **common)
        if kind == "number":
            return forms.IntegerField(min_value=low, max_value=high, **common)
        if kind == "choice":
            return forms.ChoiceField(choices=[("", "—")] + [(o, o) for o in _options(field)], **common)
        if kind == "choices":
            return forms.MultipleChoiceField(
                choices=[(o, o) for o in _options(field)], widget=forms.CheckboxSelectMultiple, **common
            )
        if kind == "player":
            choices = [("", "—")] + [(str(n), name) for n, name in sorted(players.items())]
            return forms.ChoiceField(choices=choices, **common)
        return forms.ChoiceField(choices=YES_NO, widget=forms.RadioSelect, **common)

    @property
    def payload(self) -> dict:
        out = {}
        for field in self.definitions:
            value = self.cleaned_data.get(field["key"])
            if value in ("", None, []):
                value = [] if field["kind"] == "choices" else None
            elif field["kind"] == "player":
                value = int(value)
            elif field["kind"] == "yes_no":
                value = value == "yes"
            out[field["key"]] = value
        return out
