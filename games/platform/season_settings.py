"""A season's settings, described as a game's are: name, kind, range, default and help.

The hosts' season form draws a field from each (admin/season_form.py, with admin/settings_form.py, as a game's
form does), the services read them through `season_setting`, and `SEASON.settings_problems` checks them by
kind and range with a message a host can act on. Settings no description covers stay in the form's JSON box.

The starting balances are given once to each player, as they join the season (services/membership.py).
"""

from __future__ import annotations

from typing import Any

from . import registry
from .setting import CHOICE, NUMBER, SWITCH, WHOLE, Setting, defaults, problems

STARTING_GARNETS = "starting_garnets"
STARTING_TOKENS_OF_LIFE = "starting_tokens_of_life"
TRANSFERS_ALLOWED = "transfers_allowed"
DEATH_MATCH_TYPE = "death_match_type"
PICK_HOURS = "pick_hours"
TOL_HOLDERS_IMMUNE = "tol_holders_immune"
TOL_SAVES_FROM_ELIMINATION = "tol_saves_from_elimination"

# What each starting setting gives: the season's own things (LedgerAccount.SEASON_WIDE).
STARTING = {"garnets": STARTING_GARNETS, "tokens_of_life": STARTING_TOKENS_OF_LIFE}
MOST_TO_START_WITH = 1000  # more than a season hands out in all; a bigger number is a slip
DEFAULT_DEATH_MATCH = "middle_marathon"
MOST_PICK_HOURS = 24 * 14


def death_match_types() -> tuple[str, ...]:
    """The registered Death Matches (read when the form is drawn: a test or a skipped app changes them)."""
    found = tuple(t.slug for t in registry.all_types() if t.match_kind == registry.DEATH_MATCH)
    return found or (DEFAULT_DEATH_MATCH,)


def described() -> list[Setting]:
    """Every season setting a host may change, in the order the form shows them."""
    return [
        Setting(
            STARTING_GARNETS,
            WHOLE,
            0,
            "Garnets each player starts the season with, given as they join it. Set now, they are also "
            "given to the players already in the season who have had none: each player has them once.",
            least=0,
            most=MOST_TO_START_WITH,
            label="Starting garnets",
        ),
        Setting(
            STARTING_TOKENS_OF_LIFE,
            WHOLE,
            0,
            "Tokens of Life each player starts the season with, given as the garnets are.",
            least=0,
            most=MOST_TO_START_WITH,
            label="Starting Tokens of Life",
        ),
        Setting(
            TRANSFERS_ALLOWED,
            SWITCH,
            False,
            "Players may give each other garnets and Tokens of Life, on the season's page.",
            label="Transfers between players",
        ),
        Setting(
            DEATH_MATCH_TYPE,
            CHOICE,
            DEFAULT_DEATH_MATCH,
            "The game the Elimination Candidate plays against the opponent they pick.",
            choices=death_match_types(),
            label="The Death Match",
        ),
        Setting(
            PICK_HOURS,
            NUMBER,
            24,
            "How long the Elimination Candidate has to pick an opponent; after that the hosts decide.",
            above=0,
            most=MOST_PICK_HOURS,
            label="Hours to pick an opponent",
        ),
        Setting(
            TOL_HOLDERS_IMMUNE,
            SWITCH,
            True,
            "A player holding a Token of Life cannot be picked as the Death Match opponent.",
            label="Token of Life holders cannot be picked",
        ),
        Setting(
            TOL_SAVES_FROM_ELIMINATION,
            SWITCH,
            True,
            "The Death Match's loser spends a Token of Life, if they hold one, instead of being eliminated.",
            label="A Token of Life saves the loser",
        ),
    ]


class SeasonSettings:
    """The season's settings as the settings form asks a game type for its own
    (settings_form.clean_settings)."""

    def settings_described(self) -> list[Setting]:
        return described()

    def default_settings(self) -> dict:
        return defaults(described())

    def settings_problems(self, settings: dict) -> list[str]:
        return problems(settings, described())


SEASON = SeasonSettings()
_DEFAULTS = {s.key: s.default for s in described()}


def season_setting(season, name: str) -> Any:
    """One setting of a season: as the hosts set it, else its default."""
    return (season.settings or {}).get(name, _DEFAULTS[name])


def starting_amounts(season) -> dict[str, int]:
    """What each new player is given: {"garnets": 3, "tokens_of_life": 1}, leaving out what is 0."""
    amounts = {what: season_setting(season, key) for what, key in STARTING.items()}
    return {what: n for what, n in amounts.items() if type(n) is int and n > 0}  # true is no number
