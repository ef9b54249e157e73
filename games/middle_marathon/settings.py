"""The host's settings of a Middle Marathon: who goes first, the clocks, and the rulings a host may change."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from . import rules

# Every clock value is a setting: hosts run slower versions of a DM for players in other time zones.
CLOCKS = (
    "turn_seconds",
    "interaction_seconds",
    "off_turn_decision_seconds",
    "reserve_seconds",
    "reserve_increment_seconds",
)
RULINGS = ("neutral_is_a_colour", "zero_may_target_itself", "discards_public")
FIRST_PLAYER_CHOICES = (0, 1, "random")


def default_settings() -> dict[str, Any]:
    """The rules' defaults (1 minute a turn, 30 s an interaction ...); Blue goes first (the addendum)."""
    defaults = rules.Settings()
    settings: dict[str, Any] = {"first_player": 0}
    settings.update({name: getattr(defaults, name) for name in CLOCKS + RULINGS})
    settings["placement_points"] = list(defaults.placement_points)
    return settings


def settings_problems(settings: dict[str, Any]) -> list[str]:
    problems = []
    if settings.get("first_player") not in FIRST_PLAYER_CHOICES:
        problems.append('first_player must be 0 (Blue), 1 (Red) or "random"')
    for name in CLOCKS:
        value = settings.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            problems.append(f"{name} must be a positive number of seconds")
    for name in RULINGS:
        if not isinstance(settings.get(name), bool):
            problems.append(f"{name} must be true or false")
    points = settings.get("placement_points")
    if (
        not isinstance(points, list)
        or len(points) != len(rules.PIECES)
        or not all(type(p) is int for p in points)
    ):
        problems.append(f"placement_points must list {len(rules.PIECES)} whole numbers, 1st place first")
    return problems


def clock(settings: dict[str, Any], name: str) -> float:
    """One clock value in seconds; a game created before a setting existed gets the rules' default."""
    return float(settings.get(name, getattr(rules.Settings(), name)))


def rules_settings(settings: dict[str, Any]) -> rules.Settings:
    known = {f.name for f in fields(rules.Settings)}
    chosen = {name: value for name, value in settings.items() if name in known}
    if "placement_points" in chosen:
        chosen["placement_points"] = tuple(chosen["placement_points"])
    return rules.Settings(**chosen)


def first_player(settings: dict[str, Any], seed: int) -> int:
    """The DMO's choice; "random" is drawn from the game's seed, so a replay draws the same seat."""
    choice = settings.get("first_player", 0)
    if choice == "random":
        return random.Random(seed).randrange(2)
    return int(choice)
