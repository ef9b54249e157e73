"""A game's settings as a form: one field per described setting, checked by the same description.

The game type lists its settings (`GameType.settings_described()`); each becomes a field of the kind it
is (a number box, a tick box, a choice, a list typed as "1, 2, 3"), named `set__` and its dotted key with
"__" for the dots, its help the setting's help and, for a ruling, the sentence of the rules it reads. A bad
value is an error next to its own field, in the description's words; what spans several settings (or the
rules' own checks) is an error at the top of the form. Settings no description covers (a test game's) stay
in one JSON box.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime

from django import forms
from django.utils import timezone
from django.utils.html import format_html

from ..setting import CHOICE, MISSING, MOMENT, NUMBER, SWITCH, WHOLE, WHOLES, Setting, moment

PREFIX = "set__"


def field_name(setting: Setting) -> str:
    return PREFIX + setting.key.replace(".", "__")


def _help(setting: Setting):
    if not setting.ruling:
        return format_html("{}", setting.help)  # the admin shows help as HTML: the words are escaped here
    return format_html("{}<br><q>{}</q>", setting.help, setting.ruling)


class WholesField(forms.CharField):
    """A list of whole numbers typed as "1, 2, 3"."""

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value):
        text = (super().to_python(value) or "").replace(";", ",")
        items = [part.strip() for part in text.split(",") if part.strip()]
        try:
            return [int(item) for item in items]
        except ValueError:
            raise forms.ValidationError("Type whole numbers separated by commas, like 30, 60, 90.") from None


class MomentField(forms.DateTimeField):
    """A moment typed in the host's own zone (the page's active zone, named in the help), kept in UTC."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

    def prepare_value(self, value):
        if isinstance(value, str):
            value = moment(value)
        if isinstance(value, datetime):
            return timezone.localtime(value).strftime("%Y-%m-%dT%H:%M")
        return value


def setting_field(setting: Setting) -> forms.Field:
    """The form field of one setting; its range is checked by the setting itself (one set of words)."""
    label = setting.label or setting.name.replace("_", " ").capitalize()
    common = {"label": label, "help_text": _help(setting)}
    if setting.kind == SWITCH:
        return forms.BooleanField(required=False, **common)
    if setting.kind == WHOLE:
        message = {"invalid": f"{setting.called} must be a whole number."}
        return forms.IntegerField(required=setting.default is not None, error_messages=message, **common)
    if setting.kind == NUMBER:
        message = {"invalid": f"{setting.called} must be a number."}
        return forms.FloatField(required=setting.default is not None, error_messages=message, **common)
    if setting.kind == CHOICE:
        return forms.ChoiceField(choices=[(str(c), str(c)) for c in setting.choices], **common)
    if setting.kind == WHOLES:
        return WholesField(required=False, **common)
    if setting.kind == MOMENT:
        zone = timezone.get_current_timezone_name()
        message = {"invalid": f"{setting.called} must be a date and time, like 2026-11-24 20:00."}
        common["help_text"] = format_html("{} (Times here are in {}.)", common["help_text"], zone)
        return MomentField(required=False, error_messages=message, **common)
    raise ValueError(f"unknown kind of setting: {setting.kind}")


def from_field(setting: Setting, value):
    """The form's value as the settings keep it: a whole-valued number as a whole one, a choice as given."""
    if setting.kind == NUMBER and isinstance(value, float) and value.is_integer():
        return int(value)
    if setting.kind == CHOICE:
        return next((c for c in setting.choices if str(c) == value), value)
    if setting.kind == MOMENT and isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value


def nest(settings: dict, key: str, value) -> None:
    *parents, last = key.split(".")
    place = settings
    for part in parents:
        if not isinstance(place.get(part), dict):
            place[part] = {}
        place = place[part]
    place[last] = value


def undescribed(settings: dict, described: list[Setting]) -> dict:
    """What of the settings no description covers (kept as it is, in the JSON box)."""
    rest = copy.deepcopy(settings)
    for setting in described:
        *parents, last = setting.key.split(".")
        place = rest
        for part in parents:
            place = place.get(part) if isinstance(place, dict) else None
        if isinstance(place, dict):
            place.pop(last, None)
    for setting in described:  # a group ("rules") emptied by the described keys goes too
        head = setting.key.split(".")[0]
        if "." in setting.key and rest.get(head) == {}:
            rest.pop(head)
    return rest


def settings_fields(described: list[Setting]) -> dict[str, forms.Field]:
    return {field_name(s): setting_field(s) for s in described}


def initial_values(settings: dict, described: list[Setting]) -> dict:
    initial = {}
    for setting in described:
        value = setting.value_in(settings)
        if value is MISSING:
            value = setting.default  # absent: the default holds, and the form says which it is
        if value is not None:
            initial[field_name(setting)] = str(value) if setting.kind == CHOICE else value
    return initial


def clean_settings(form: forms.Form, kind, base: dict) -> dict | None:
    """The game's settings: its type's defaults, then `base`, then the form's fields, each field checked by
    its own setting; then the game type's checks of the whole. None when something is wrong (the errors are
    on the form)."""
    described = kind.settings_described()
    merged = copy.deepcopy({**kind.default_settings(), **base})
    for setting in described:
        name = field_name(setting)
        if name not in form.fields or name not in form.cleaned_data:
            continue  # the field's own error is already shown
        value = from_field(setting, form.cleaned_data[name])
        if value is None and (setting.default is not None or setting.value_in(merged) is MISSING):
            continue  # an empty box for a setting that was never set leaves it unset
        problem = setting.problem(value) if value is not None else None
        if problem:
            form.add_error(name, problem)
            continue
        nest(merged, setting.key, value)
    if form.errors:
        return None
    problems = kind.settings_problems(merged)
    if problems:
        form.add_error(None, problems)
        return None
    return merged
