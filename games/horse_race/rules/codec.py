"""The state to and from a plain JSON dict, exactly (the site keeps it in a JSON column between requests)."""

from __future__ import annotations

import copy
from dataclasses import asdict

from .settings import Settings
from .state import Ending, Player, Report, State


def state_to_json(state: State) -> dict:
    return {
        "settings": state.settings.to_json(),
        "movement": copy.deepcopy(state.movement),
        "round": state.round,
        "players": [asdict(player) for player in state.players],
        "reports": [asdict(report) for report in state.reports],
        "ending": asdict(state.ending) if state.ending is not None else None,
    }


def state_from_json(data: dict) -> State:
    data = copy.deepcopy(data)
    return State(
        settings=Settings.from_json(data["settings"]),
        movement=data["movement"],
        round=data["round"],
        players=[Player(**player) for player in data["players"]],
        reports=[Report(**report) for report in data["reports"]],
        ending=Ending(**data["ending"]) if data["ending"] is not None else None,
    )
