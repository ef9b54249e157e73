"""The state to and from a plain JSON dict, exactly (the site keeps it in a JSON column between requests)."""

from __future__ import annotations

import copy
from dataclasses import asdict, fields
from typing import Any

from .settings import Settings
from .state import State, Task


def state_to_json(state: State) -> dict[str, Any]:
    data = asdict(state)
    data["settings"]["placement_points"] = list(state.settings.placement_points)
    return copy.deepcopy(data)


def state_from_json(data: dict[str, Any]) -> State:
    data = copy.deepcopy(data)
    raw = data.pop("settings")
    raw["placement_points"] = tuple(raw["placement_points"])
    settings = Settings(**{f.name: raw[f.name] for f in fields(Settings) if f.name in raw})
    stack = [Task(**task) for task in data.pop("stack")]
    return State(settings=settings, stack=stack, **data)
