"""A Horse Race's settings as hosts edit them: the round windows, and the rules' switches ("rules")."""

from __future__ import annotations

from games.platform import setting
from games.platform.kit import RulesError
from games.platform.registry import window_settings
from games.platform.setting import SWITCH, WHOLE, WHOLES, Setting

from .rules import Settings

HOURS = ("round0_hours", "round_hours", "decision_hours")
_RULES = Settings()


def _rule(name: str, kind: str, words: str, **bounds) -> Setting:
    return Setting(
        f"rules.{name}", kind, getattr(_RULES, name), words, ruling=RULINGS.get(name, ""), **bounds
    )


# The sentence of the rules each ruling reads (docs/rulings/horse_race.md), shown beside its setting.
RULINGS = {
    "round0_spectating": "For Round 0, you have 48 hours to submit; you only need to submit for the ability.",
    "final_spectate_scored": (
        "At the beginning of the next round, they will learn which horses, if any, are on that space."
    ),
    "round9_chips_raise_limit": (
        "You will gain 1 chip for every card you use; these chips can be used to bet in the current round."
    ),
    "limit_counts_voided_bets": (
        "Betting an invalid number of chips will result in your entire submission being invalidated, while "
        "an invalid bet on an individual horse will result in the bet for that horse being invalidated"
    ),
    "first_purchase_cost": (
        "You can use 2 garnets to purchase a horse card of your choice. Each additional purchase costs twice "
        "as much as the previous one."
    ),
    "only_two_tols_with_tied_seconds": (
        "If there is a sole winner and a tie for second place, only two ToLs are given out; the sole winner "
        "chooses which of the tied players wins the other ToL."
    ),
    "chosen_second_votes": (
        "the sole winner chooses which of the tied players wins the other ToL ... ties broken by a plurality "
        "vote among those who won a ToL in the Main Match (being given a ToL does not count as winning it)."
    ),
    "round10_utility_cap": (
        "You will gain n² points for each card you use ... capped at 20 points per card type."
    ),
}


# Every setting a host may change; the rules' numbers and switches live under "rules"
# (docs/rulings/horse_race.md says what each switch reads).
DESCRIBED = [
    *window_settings(
        {
            "round0_hours": (48, "How long Round 0 lasts, in hours."),
            "round_hours": (24, "How long each of Rounds 1-10 lasts, in hours."),
            "decision_hours": (24, "How long each decision after the race lasts, in hours."),
        }
    ),
    _rule("starting_chips", WHOLE, "Chips each player starts with.", least=0),
    _rule("base_bet_limit", WHOLE, "Chips a player may bet in a round.", least=0),
    _rule("track_length", WHOLE, "Spaces from the start to the finish.", least=1),
    _rule("bet_points", WHOLES, "Points per chip bet on a horse, by its placement, 1st to 9th.", length=9),
    _rule("round10_utility_cap", WHOLE, "Most Utility chips in Round 10.", least=0),
    _rule("points_per_garnet", WHOLE, "Points that make a garnet.", least=1),
    _rule("first_purchase_cost", WHOLE, "Garnets the first card bought costs.", least=0),
    _rule("max_tied_winners_with_tols", WHOLE, "Most tied winners who each get a Token of Life.", least=1),
    _rule("round0_spectating", SWITCH, "Round 0 spectates a space (and Round 1 takes bets)."),
    _rule("final_spectate_scored", SWITCH, "What Round 10 spectated is revealed and scored at the end."),
    _rule("round9_chips_raise_limit", SWITCH, "Round 9's Utility chips raise that round's bet limit."),
    _rule("standings_keep_finish_order", SWITCH, "Finished horses keep their race placement in the Clue."),
    _rule("limit_counts_voided_bets", SWITCH, "The bet limit counts voided bets too."),
    _rule("unmade_choice_drawn", SWITCH, "A winner's unmade choice among tied seconds is drawn at random."),
    _rule(
        "only_two_tols_with_tied_seconds",
        SWITCH,
        "A sole winner with tied seconds wins one ToL and gives the other (two in all); off, the winner "
        "keeps two and gives a third.",
    ),
    _rule(
        "chosen_second_votes",
        SWITCH,
        "The tied second the winner gives a ToL to also votes on a tied Elimination Candidate.",
    ),
]


def default_settings() -> dict:
    return {"round0_hours": 48, "round_hours": 24, "decision_hours": 24, "rules": Settings().to_json()}


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
        rules_settings(settings)
    except RulesError as error:
        problems.append(error.message)
    return problems


def rules_settings(settings: dict) -> Settings:
    """The engine's Settings from the game's settings ("rules" holds the engine's switches)."""
    return Settings.from_json(settings.get("rules") or {})
