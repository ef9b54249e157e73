"""The hidden data hosts seed: the movement table, typed in the admin or drawn from the game's seed."""

from __future__ import annotations

import random

from .rules import generate_movement_table


def movement_from_seed(seed: int) -> dict[str, list[int]]:
    """The movement table a game's seed draws (the hosts' one-click table, and the demo's)."""
    return generate_movement_table(random.Random(seed))
