"""Cards on the Table's settings as hosts edit them: the round windows, and the rules' switches ("rules")."""

from __future__ import annotations

import dataclasses

from games.platform.kit import RulesError
from games.platform.registry import window_settings_problems

from .rules import Settings

HOURS = ("round_hours", "decision_hours")


def default_settings() -> dict:
    return {"round_hours": 24, "decision_hours": 24}


def settings_problems(settings: dict) -> list[str]:
    problems = window_settings_problems(settings, HOURS)
    try:
        rules_settings(settings, players=10)
    except (RulesError, TypeError) as error:
        problems.append(getattr(error, "message", str(error)))
    return problems


def rules_settings(settings: dict, players: int, heat_rule: str | None = None) -> Settings:
    """The engine's Settings: the game's "rules" switches, its seat count and the host's heat rule."""
    switches = dict(settings.get("rules") or {})
    known = {f.name for f in dataclasses.fields(Settings)} - {"players", "heat_rule"}
    unknown = sorted(set(switches) - known)
    if unknown:
        raise RulesError(f"Unknown rules setting(s): {', '.join(unknown)}.", field="settings")
    if "garnet_marks" in switches:
        switches["garnet_marks"] = tuple(switches["garnet_marks"])
    return Settings(players=players, heat_rule=heat_rule, **switches)
