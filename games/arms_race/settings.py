"""Arms Race's settings as hosts edit them: the rules' choices plus the time each decision gets."""

from __future__ import annotations

from dataclasses import asdict, fields

from games.platform import setting
from games.platform.kit import RulesError
from games.platform.setting import CHOICE, NUMBER, SWITCH, WHOLE, Setting

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


_RULES = Settings()


def _rule(name: str, kind: str, words: str, **bounds) -> Setting:
    return Setting(name, kind, getattr(_RULES, name), words, ruling=RULINGS.get(name, ""), **bounds)


# The sentence of the rules each ruling reads (docs/rulings/arms_race.md), shown beside its setting.
RULINGS = {
    "wild_declared_at": (
        "Clarification: To be clear: when using a wild-card, you have to choose which weapon it is before "
        "playing it!"
    ),
    "caught_pointer_winner": (
        "the two winners will be the player who initially played the killing weapon, and the player who "
        "pointed it towards the sole loser."
    ),
    "final_tiebreak": (
        "In the event that all nine rounds go by, and all weapons are used, then the sole loser will be "
        "determined by whoever has the most wounds in total."
    ),
}


def _clock(name: str, words: str, least: float) -> Setting:
    return Setting(name, NUMBER, CLOCK_DEFAULTS[name], words, least=least)


# Every setting a host may change (docs/rulings/arms_race.md says what each choice reads).
DESCRIBED = [
    _clock("attack_seconds", "Seconds to point the weapon.", 1),
    _clock("respond_seconds", "Seconds to answer a claim.", 1),
    _clock("redirect_seconds", "Seconds to turn the weapon to another player.", 1),
    _clock("wild_seconds", "Seconds to decide on a wild card.", 1),
    _clock("reserve_seconds", "Seconds of reserve each player has.", 0),
    _clock("reserve_increment", "Seconds the reserve is drawn in.", 0),
    _rule("rounds", WHOLE, "Rounds in the game.", least=1),
    _rule("hand_size", WHOLE, "Cards in each hand.", least=1),
    _rule("wounds_to_lose", WHOLE, "Wounds that lose the game.", least=1, most=8),
    _rule("wild_cards_offered", SWITCH, "Wild cards are sold between rounds."),
    _rule("wild_card_price", WHOLE, "Garnets a wild card costs.", least=0),
    _rule("wild_cards_per_break", WHOLE, "Wild cards a player may buy between two rounds.", least=0),
    _rule("wild_before_first_round", SWITCH, "Wild cards are sold before the first round too."),
    _rule(
        "wild_declared_at",
        CHOICE,
        "When a wild card's weapon is named: when played, or when bought.",
        choices=("play", "purchase"),
    ),
    _rule("announce_wild_purchases", SWITCH, "Wild card purchases are announced."),
    _rule(
        "caught_pointer_winner",
        CHOICE,
        "Who pointed it at the sole loser when the loser's claim was called right.",
        choices=("challenger", "previous"),
    ),
    _rule(
        "final_tiebreak",
        CHOICE,
        "A tie for most wounds after the last round.",
        choices=("by_type_then_random", "random"),
    ),
    _rule("timeout_call", CHOICE, "What a responder whose clock ran out says.", choices=("truth", "lie")),
    # Sitting down (docs/rulings/arms_race.md, "An absent player"): absent at the start, the sole loser.
    *setting.sitting_down(
        "The player who takes four wounds of the same type first will be the sole loser of the game."
    ),
]


def default_settings() -> dict:
    rules = asdict(Settings())
    return {**CLOCK_DEFAULTS, **{name: rules[name] for name in RULE_FIELDS}, **setting.SITTING_DEFAULTS}


def rules_settings(settings: dict, players: int) -> Settings:
    """The rules' Settings for a table of `players`, from the game's settings (unknown keys are ignored)."""
    return Settings(players=players, **{name: settings[name] for name in RULE_FIELDS if name in settings})


def decision_seconds(settings: dict, kind: str) -> float:
    """The time a decision of this kind gets; a game created before a setting existed gets the default."""
    setting = DECISIONS[kind][1]
    return settings.get(setting, CLOCK_DEFAULTS[setting])


def settings_problems(settings: dict, players: int = 7) -> list[str]:
    problems = setting.problems(settings, DESCRIBED) + setting.sitting_problems(settings)
    if problems:
        return problems
    try:
        check_settings(rules_settings(settings, players))
    except RulesError as exc:
        return [exc.message]
    return []
