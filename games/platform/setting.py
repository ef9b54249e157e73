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
from datetime import datetime
from typing import Any

WHOLE = "whole"  # a whole number (JSON integer; true/false is not one)
NUMBER = "number"  # a whole or decimal number
SWITCH = "switch"  # true or false
CHOICE = "choice"  # one of `choices`
WHOLES = "wholes"  # a list of whole numbers, `length` long when given
MOMENT = "moment"  # a moment: an ISO 8601 text with its offset (a form takes it in the host's zone)

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
    # The words a form labels it with and its messages name it by, where its key is not words enough
    # ("Hours to pick an opponent" for pick_hours); without one, the key's last part.
    label: str = ""

    @property
    def name(self) -> str:
        return self.key.rsplit(".", 1)[-1]

    @property
    def called(self) -> str:
        """What a host reads it as: its label, else its name."""
        return self.label or self.name

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
            return None if isinstance(value, bool) else f"{self.called} must be true or false, not {shown}."
        if self.kind == CHOICE:
            if value in self.choices and not isinstance(value, bool):
                return None
            return f"{self.called} must be one of {', '.join(_shown(c) for c in self.choices)}, not {shown}."
        if self.kind in (WHOLE, NUMBER):
            what = "a whole number" if self.kind == WHOLE else "a number"
            if not _is_number(value, whole=self.kind == WHOLE):
                return f"{self.called} must be {what}{self._range_words()}, not {shown}."
            if not self._in_range(value):
                return f"{self.called} must be {what}{self._range_words()}, not {shown}."
            return None
        if self.kind == MOMENT:
            if moment(value) is None:
                return f"{self.called} must be a date and time, not {shown}."
            return None
        if self.kind == WHOLES:
            count = f"{self.length} " if self.length is not None else ""
            wanted = f"{self.called} must be a list of {count}whole numbers{self._range_words()}"
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


def moment(value: Any) -> datetime | None:
    """A MOMENT setting's value as an aware datetime; None when it is not one (or has no offset)."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


# Sitting down at a live match (issue 20.1): the clocks stay stopped until the players say "I'm here". The
# platform reads these three settings of every game that plays on turn clocks; each such game lists them
# among its own (`sitting_down(...)`), with the sentence its rulings read for an absent player.
CLOCKS_START = "clocks_start"
WHEN_ALL_HERE = "when all are here"
AT_START_TIME = "at the start time"
START_TIME = "start_time"
ABSENT_AT_START = "absent_at_start"
ABSENT_LOSES = "loses"
ABSENT_REPLACED = "is replaced"
SITTING_DEFAULTS = {CLOCKS_START: WHEN_ALL_HERE, START_TIME: None, ABSENT_AT_START: ABSENT_LOSES}


def sitting_down(absent_ruling: str = "") -> list[Setting]:
    """The sitting-down settings of a live match; `absent_ruling`: the sentence of the game's rules its
    rulings read for a player who is not there at the start time."""
    return [
        Setting(
            CLOCKS_START,
            CHOICE,
            WHEN_ALL_HERE,
            'When the clocks start: "when all are here" (the last player\'s "I\'m here" starts them), or '
            '"at the start time" (below).',
            choices=(WHEN_ALL_HERE, AT_START_TIME),
        ),
        Setting(
            START_TIME,
            MOMENT,
            None,
            "The start time, in your time zone. Whoever is not here then is absent: with the clocks "
            '"when all are here" it is optional (without one the match waits for everyone).',
        ),
        Setting(
            ABSENT_AT_START,
            CHOICE,
            ABSENT_LOSES,
            "A player absent at the start time loses, or is replaced by a player the hosts name.",
            choices=(ABSENT_LOSES, ABSENT_REPLACED),
            ruling=absent_ruling,
        ),
    ]


def sitting_problems(settings: dict) -> list[str]:
    """What spans the sitting-down settings: the clocks cannot start at a start time that is not set."""
    if settings.get(CLOCKS_START) == AT_START_TIME and moment(settings.get(START_TIME)) is None:
        return ['start_time is needed when the clocks start "at the start time".']
    return []


def sitting(settings: dict, key: str) -> Any:
    """One sitting-down setting of a game (a game made before they existed, or a test game: the default)."""
    value = settings.get(key, SITTING_DEFAULTS[key])
    return moment(value) if key == START_TIME else value


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
