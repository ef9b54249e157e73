"""The rules' Settings: one switch for each reading of the rules that could fairly go two ways."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """The game's settings; each reading of the rules that could fairly go two ways is one of these."""

    players: int = 10
    heat_rule: str | None = None  # one of heat.HEAT_RULES; None: drawn from the game's seed
    diagonal_adjacency: bool = False  # do "adjacent cards" include diagonal neighbours?
    crowd_size: int = 3  # a scoring card loses 1 point per this many players scoring with it
    denied_after_crowd: bool = False  # count "points denied" after the crowd penalty (not the examples' way)
    escalating_extra_flips: bool = False  # 4th flip -3, 5th -4... instead of -1 each after the third's -2
    allow_repeated_actions: bool = False  # may a player declare an action already used in an earlier round?
    top_bonus_needs_both: bool = False  # Round 3 top bonus only if nobody guessed right in both rounds
    unique_every_round: bool = True  # "for all 3 rounds": unique in each round (False: not matched in all 3)
    board_guess_threshold: int = 3
    board_guess_cap: int = 4
    tokens_of_life_threshold: int = 5
    garnet_marks: tuple[int, ...] = (9, 15, 20)
    missing_action_total: int = 3
