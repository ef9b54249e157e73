"""The host's settings of a Middle Marathon: who goes first, the clocks, and the rulings a host may change."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from games.platform import setting
from games.platform.setting import CHOICE, NUMBER, SWITCH, WHOLES, Setting

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
    settings.update(setting.SITTING_DEFAULTS)
    return settings


_RULES = rules.Settings()
_WORDS = {
    "turn_seconds": "Seconds a turn lasts.",
    "interaction_seconds": "Seconds added for each interaction.",
    "off_turn_decision_seconds": "Seconds for the other player's decision.",
    "reserve_seconds": "Seconds of reserve each player has.",
    "reserve_increment_seconds": "Seconds the reserve is drawn in.",
    "neutral_is_a_colour": "The purple Movement piece counts as a colour.",
    "zero_may_target_itself": "Force's and Reflect's 0 may select the piece itself.",
    "discards_public": "The cards Movement's 0 throws away are announced (off: only how many).",
}

# The sentence of the rules each ruling reads (docs/rulings/middle_marathon.md), shown beside its setting.
_SENTENCES = {
    "neutral_is_a_colour": (
        "When there are only pieces of one color, the game ends, with the remaining placements going to the "
        "pieces left on the board."
    ),
    "zero_may_target_itself": (
        "If you use a 0 movement card on this piece, you must select a piece to be unable to move until the "
        "end of your next turn."
    ),
    "discards_public": "",
}

# Every setting a host may change (docs/rulings/middle_marathon.md says what each ruling reads).
DESCRIBED = [
    Setting(
        "first_player",
        CHOICE,
        0,
        'Who goes first: 0 (Blue), 1 (Red) or "random" (drawn from the seed).',
        choices=FIRST_PLAYER_CHOICES,
        ruling="The DMO, MarcerMercer, will choose which player goes first.",
    ),
    *[Setting(name, NUMBER, getattr(_RULES, name), _WORDS[name], above=0) for name in CLOCKS],
    *[
        Setting(name, SWITCH, getattr(_RULES, name), _WORDS[name], ruling=_SENTENCES[name])
        for name in RULINGS
    ],
    Setting(
        "placement_points",
        WHOLES,
        _RULES.placement_points,
        "Points for each placement, 1st place first.",
        length=len(rules.PIECES),
    ),
    # Sitting down (docs/rulings/middle_marathon.md, "An absent player"): an absence is read as the clock's.
    *setting.sitting_down("Running out of reserve time is an instant loss."),
]
# A game made before sitting down existed has none of these: the platform reads their defaults.
_OPTIONAL = set(setting.SITTING_DEFAULTS)


def settings_problems(settings: dict[str, Any]) -> list[str]:
    """Each setting by kind and range; every one of them must be there (a game keeps them all)."""
    missing = [f"{s.key} is missing." for s in DESCRIBED if s.key not in settings and s.key not in _OPTIONAL]
    return missing + setting.problems(settings, DESCRIBED) + setting.sitting_problems(settings)


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
