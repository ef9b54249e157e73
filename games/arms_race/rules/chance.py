"""Every random draw of the game, each from its own Random seeded by the game's seed and what it is for.

A draw depends only on the stored seed and where the game is (the round, the turn, the step of the chain),
so a game replays exactly from its seed and its actions, and no draw disturbs another.
"""

from __future__ import annotations

import random


def for_deal(seed: int) -> random.Random:
    return random.Random(f"arms_race:{seed}:deal")


def for_order(seed: int, round_number: int) -> random.Random:
    return random.Random(f"arms_race:{seed}:order:{round_number}")


def for_timeout(seed: int, round_number: int, turn: int, step: int) -> random.Random:
    return random.Random(f"arms_race:{seed}:timeout:{round_number}:{turn}:{step}")


def for_tiebreak(seed: int) -> random.Random:
    return random.Random(f"arms_race:{seed}:tiebreak")


def round_order(seed: int, round_number: int, players: int) -> tuple[int, ...]:
    """The order in which the players present their weapons this round, drawn afresh every round."""
    order = list(range(players))
    for_order(seed, round_number).shuffle(order)
    return tuple(order)
