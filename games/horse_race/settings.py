"""A Horse Race's settings as hosts edit them: the round windows, and the rules' switches ("rules")."""

from __future__ import annotations

from games.platform.kit import RulesError
from games.platform.registry import window_settings_problems

from .rules import Settings

HOURS = ("round0_hours", "round_hours", "decision_hours")


def default_settings() -> dict:
    return {"round0_hours": 48, "round_hours": 24, "decision_hours": 24, "rules": Settings().to_json()}


def settings_problems(settings: dict) -> list[str]:
    problems = window_settings_problems(settings, HOURS)
    try:
        rules_settings(settings)
    except RulesError as error:
        problems.append(error.message)
    return problems


def rules_settings(settings: dict) -> Settings:
    """The engine's Settings from the game's settings ("rules" holds the engine's switches)."""
    return Settings.from_json(settings.get("rules") or {})
