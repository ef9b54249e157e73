"""The state to and from plain JSON for the site's JSON column: dataclasses, enums, tuples, by type hints."""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache

from .state import State


def to_json(value):
    if dataclasses.is_dataclass(value):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    return value


@cache
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def from_json(hint, data):
    if data is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return from_json(options[0], data)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=True))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(data)
    if dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        # A field the stored JSON lacks (a state stored before the field existed) takes its default.
        fields = [f for f in dataclasses.fields(hint) if f.name in data]
        return hint(**{f.name: from_json(hints[f.name], data[f.name]) for f in fields})
    if hint is typing.Any:
        return data
    return hint(data)


def state_to_json(state: State) -> dict:
    return to_json(state)


def state_from_json(data: dict) -> State:
    return from_json(State, data)
