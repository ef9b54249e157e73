"""The deal: a hand typed by a host, checked by the rules, or the shuffle from the game's seed."""

from __future__ import annotations

import random

from games.platform.kit import RulesError

from .rules import Settings, new_game
from .rules.weapons import checked_deal, weapon_named


def parse_hand(text: str) -> list[str]:
    """Read "3 dagger, bat, 2 whip" (or "dagger x3") as a list of weapon names."""
    cards: list[str] = []
    for part in text.replace(";", ",").split(","):
        words = part.replace("×", " ").lower().split()
        if not words:
            continue
        count = 1
        numbers = [w.lstrip("x") for w in words if w.lstrip("x").isdigit()]
        names = [w for w in words if not w.lstrip("x").isdigit()]
        if numbers:
            count = int(numbers[0])
        if len(names) != 1 or len(numbers) > 1:
            raise RulesError(f"Write each entry as a weapon with an optional count, not {part.strip()!r}.")
        cards.extend([weapon_named(names[0], "deal").value] * count)
    return cards


def deal_problems(hands: list[list[str]], players: int, hand_size: int) -> list[str]:
    """What is wrong with a deal for `players` seats, in the rules' words (empty when it is good)."""
    try:
        checked_deal(hands, players, hand_size)
    except RulesError as exc:
        return [exc.message]
    return []


def shuffled_hands(game, settings: Settings) -> list[list[str]]:
    """The deal the rules shuffle from the game's seed when no host dealt by hand (it replays exactly)."""
    state, _ = new_game(random.Random(game.seed), settings)
    return [[w.value for w in hand] for hand in state.hands]
