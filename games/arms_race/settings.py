"""Arms Race's settings as hosts edit them: the rules' choices plus the time each decision gets."""

from __future__ import annotations

from dataclasses import asdict, fields

from games.platform.kit import RulesError

from .rules import Settings
from .rules.flow import check_settings

# Minutes for a live session; hosts set hours (e.g. 43200 s) for a game that runs slowly.
CLOCK_DEFAULTS = {
    "attack_seconds": 120,
    "respond_seconds": 120,
    "redirect_seconds": 120,
    "wild_seconds": 120,
    "reserve_seconds": 0,
    "reserve_increment": 30,
}
# What the clock calls each kind of decision, and the setting that gives its time.
DECISIONS = {
    "attack": ("attack", "attack_seconds"),
    "respond": ("challenge or pass", "respond_seconds"),
    "redirect": ("redirect", "redirect_seconds"),
    "wild_card": ("wild card", "wild_seconds"),
}
# A Main Match for seven; the deal of nine cards each also serves a smaller table.
MIN_PLAYERS, MAX_PLAYERS = 3, 7
# The number of players is the number of seats, not a setting.
RULE_FIELDS = tuple(f.name for f in fields(Settings) if f.name != "players")


def default_settings() -> dict:
    rules = asdict(Settings())
    return {**CLOCK_DEFAULTS, **{name: rules[name] for name in RULE_FIELDS}}


def rules_settings(settings: dict, players: int) -> Settings:
    """The rules' Settings for a table of `players`, from the game's settings (unknown keys are ignored)."""
    return Settings(players=players, **{name: settings[name] for name in RULE_FIELDS if name in settings})


def decision_seconds(settings: dict, kind: str) -> float:
    """The time a decision of this kind gets; a game created before a setting existed gets the default."""
    setting = DECISIONS[kind][1]
    return settings.get(setting, CLOCK_DEFAULTS[setting])


def settings_problems(settings: dict, players: int = 7) -> list[str]:
    problems = []
    for name, default in CLOCK_DEFAULTS.items():
        value = settings.get(name, default)
        least = 0 if name.startswith("reserve") else 1
        if isinstance(value, bool) or not isinstance(value, int | float) or value < least:
            problems.append(f"{name} must be a number of seconds of at least {least}.")
    defaults = asdict(Settings())
    for name in RULE_FIELDS:
        if name in settings and type(settings[name]) is not type(defaults[name]):
            problems.append(f"{name} must be like {defaults[name]!r}.")
    if problems:
        return problems
    try:
        check_settings(rules_settings(settings, players))
    except RulesError as exc:
        return [exc.message]
    return []
