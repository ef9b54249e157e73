"""Cards on the Table's settings as hosts edit them: the round windows, and the rules' switches ("rules")."""

from __future__ import annotations

import dataclasses

from games.platform import setting
from games.platform.kit import RulesError
from games.platform.registry import window_settings
from games.platform.setting import SWITCH, WHOLE, WHOLES, Setting

from .rules import Settings

HOURS = ("round_hours", "decision_hours")
_RULES = Settings()

# Every setting a host may change; the rules' switches live under "rules" (docs/rulings/cards_table.md).
DESCRIBED = [
    *window_settings(
        {
            "round_hours": (24, "How long each of the three rounds lasts, in hours."),
            "decision_hours": (24, "How long the loser's choice lasts after Round 3, in hours."),
        }
    ),
    Setting(
        "rules.diagonal_adjacency",
        SWITCH,
        _RULES.diagonal_adjacency,
        "Adjacent cards include diagonals.",
        ruling="If 2 adjacent cards on a board have the same number, they will have different colours.",
    ),
    Setting(
        "rules.crowd_size",
        WHOLE,
        _RULES.crowd_size,
        "A scoring card loses 1 point for every this many players scoring with it.",
        least=1,
        ruling=(
            "For every 3 players who select the same scoring card, the scoring card will be worth 1 less "
            "point"
        ),
    ),
    Setting(
        "rules.denied_after_crowd",
        SWITCH,
        _RULES.denied_after_crowd,
        "Count points denied after the crowd penalty (not the examples' way).",
    ),
    Setting(
        "rules.escalating_extra_flips",
        SWITCH,
        _RULES.escalating_extra_flips,
        "Each flip after the third costs one more than the last (-3, -4 ...) instead of -1.",
        ruling=(
            "You will receive a penalty of -2 points if you do this command 3 times in a single round, with "
            "an additional -1 point for every further card turned over"
        ),
    ),
    Setting(
        "rules.allow_repeated_actions",
        SWITCH,
        _RULES.allow_repeated_actions,
        "A player may declare an action already used in an earlier round.",
        ruling="Players must do each of these actions once across the 3 rounds",
    ),
    Setting(
        "rules.top_bonus_needs_both",
        SWITCH,
        _RULES.top_bonus_needs_both,
        "Round 3's top bonus only if nobody guessed right in both rounds.",
        ruling=(
            "if a player is in the primary list for both rounds 1 and round 2 and in either round 1 or round "
            "2 no player earnt points by guessing correctly ... they will earn 1 point at the end of round 3"
        ),
    ),
    Setting(
        "rules.unique_every_round",
        SWITCH,
        _RULES.unique_every_round,
        '"Unique for all 3 rounds" means unique in each round (off: not matched in all three).',
        ruling="If no other player selects the same scoring card as you for all 3 rounds, you earn 1 point",
    ),
    Setting(
        "rules.board_guess_threshold",
        WHOLE,
        _RULES.board_guess_threshold,
        "Cells a board guess needs right to score.",
        least=0,
        most=25,
    ),
    Setting(
        "rules.board_guess_cap",
        WHOLE,
        _RULES.board_guess_cap,
        "Most points from board guesses over the game.",
        least=0,
    ),
    Setting(
        "rules.tokens_of_life_threshold",
        WHOLE,
        _RULES.tokens_of_life_threshold,
        "Threshold N for the Tokens of Life: the top scorers win one, whole ties from the top while "
        "their count stays within N.",
        least=0,
    ),
    Setting(
        "rules.garnet_marks",
        WHOLES,
        _RULES.garnet_marks,
        "A garnet for each of these totals a player reaches.",
        least=0,
    ),
    Setting(
        "rules.missing_action_total",
        WHOLE,
        _RULES.missing_action_total,
        "The total a round counts for a player who declared no action.",
    ),
]


def default_settings() -> dict:
    return {"round_hours": 24, "decision_hours": 24}


def settings_problems(settings: dict) -> list[str]:
    if not isinstance(settings.get("rules") or {}, dict):
        return ["rules must be an object of the rules' settings."]
    hours = [s for s in DESCRIBED if s.key in HOURS]
    problems = (
        setting.missing(settings, hours)
        + setting.problems(settings, DESCRIBED)
        + setting.unknown(settings, DESCRIBED, "rules")
    )
    if problems:
        return problems
    try:
        rules_settings(settings, players=10)
    except RulesError as error:
        problems.append(error.message)
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
