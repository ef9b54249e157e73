"""Each setting a host may change, described: its name, kind, range, default and help.

A game type lists its settings as `Setting`s (`GameType.settings_described()`, kept in the game's settings
module). `problems` checks a game's settings against them by kind and range, with a message a host can act
on, before the rules ever see a value: a crowd of 0 would divide by zero at the close, and "3" typed as
text would fail there with a TypeError. The same descriptions can draw a form for the hosts.

Plain Python: the kit's neighbours, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

WHOLE = "whole"  # a whole number (JSON integer; true/false is not one)
NUMBER = "number"  # a whole or decimal number
SWITCH = "switch"  # true or false
CHOICE = "choice"  # one of `choices`
WHOLES = "wholes"  # a list of whole numbers, `length` long when given

_MISSING = object()
MISSING = _MISSING  # what `Setting.value_in` answers for a setting that is absent


@dataclass(frozen=True)
class Setting:
    """One setting. `key` is its name in the game's settings, dotted for a nested one ("rules.crowd_size")."""

    key: str
    kind: str
    default: Any = None
    help: str = ""
    least: float | None = None  # the smallest value allowed
    above: float | None = None  # or: values must be above this one (hours above 0)
    most: float | None = None
    choices: tuple = ()
    length: int | None = None
    # For a ruling that is a setting: the sentence of the rules it reads (quoted from docs/rulings), shown to
    # the host beside the setting so they know which reading they choose.
    ruling: str = ""

    @property
    def name(self) -> str:
        return self.key.rsplit(".", 1)[-1]

    def value_in(self, settings: dict) -> Any:
        value: Any = settings
        for part in self.key.split("."):
            if not isinstance(value, dict) or part not in value:
                return _MISSING
            value = value[part]
        return value

    def _range_words(self) -> str:
        if self.above is not None:
            most = f" and at most {_number(self.most)}" if self.most is not None else ""
            return f" above {_number(self.above)}{most}"
        if self.least is not None and self.most is not None:
            return f" from {_number(self.least)} to {_number(self.most)}"
        if self.least is not None:
            return f" of at least {_number(self.least)}"
        if self.most is not None:
            return f" of at most {_number(self.most)}"
        return ""

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this setting, in words; None when it is fine."""
        shown = _shown(value)
        if self.kind == SWITCH:
            return None if isinstance(value, bool) else f"{self.name} must be true or false, not {shown}."
        if self.kind == CHOICE:
            if value in self.choices and not isinstance(value, bool):
                return None
            return f"{self.name} must be one of {', '.join(_shown(c) for c in self.choices)}, not {shown}."
        if self.kind in (WHOLE, NUMBER):
            what = "a whole number" if self.kind == WHOLE else "a number"
            if not _is_number(value, whole=self.kind == WHOLE):
                return f"{self.name} must be {what}{self._range_words()}, not {shown}."
            if not self._in_range(value):
                return f"{self.name} must be {what}{self._range_words()}, not {shown}."
            return None
        if self.kind == WHOLES:
            count = f"{self.length} " if self.length is not None else ""
            wanted = f"{self.name} must be a list of {count}whole numbers{self._range_words()}"
            if not isinstance(value, list | tuple) or (self.length is not None and len(value) != self.length):
                return f"{wanted}, not {shown}."
            if not all(_is_number(item, whole=True) and self._in_range(item) for item in value):
                return f"{wanted}, not {shown}."
            return None
        raise ValueError(f"unknown kind of setting: {self.kind}")

    def _in_range(self, value) -> bool:
        return not (
            (self.least is not None and value < self.least)
            or (self.above is not None and value <= self.above)
            or (self.most is not None and value > self.most)
        )


def problems(settings: dict, described: Iterable[Setting]) -> list[str]:
    """Each described setting present in `settings` checked by kind and range (absent: its default holds)."""
    found = []
    for setting in described:
        value = setting.value_in(settings)
        if value is _MISSING or (value is None and setting.default is None):
            continue  # absent: the default holds (a setting whose default is null may be null)
        problem = setting.problem(value)
        if problem:
            found.append(problem)
    return found


def missing(settings: dict, described: Iterable[Setting]) -> list[str]:
    """A message for each described setting that is absent (for games whose settings must all be set)."""
    return [f"{s.name} is missing." for s in described if s.value_in(settings) is _MISSING]


def unknown(settings: dict, described: Iterable[Setting], under: str) -> list[str]:
    """A message naming the keys inside settings[under] that no setting describes (a typo would be lost)."""
    inside = settings.get(under) or {}
    known = {s.key.split(".", 1)[1] for s in described if s.key.startswith(under + ".")}
    names = sorted(set(inside) - known) if isinstance(inside, dict) else []
    return [f"Unknown {under} setting(s): {', '.join(names)}."] if names else []


def defaults(described: Iterable[Setting]) -> dict:
    """The described settings' defaults, nested as their dotted keys say."""
    result: dict = {}
    for setting in described:
        *parents, last = setting.key.split(".")
        place = result
        for part in parents:
            place = place.setdefault(part, {})
        place[last] = list(setting.default) if isinstance(setting.default, tuple) else setting.default
    return result


def _is_number(value: Any, *, whole: bool) -> bool:
    if isinstance(value, bool):
        return False
    if whole:
        return isinstance(value, int)
    return isinstance(value, int | float) and value == value  # NaN is no number


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 40 else f'"{value[:40]}…"'
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
