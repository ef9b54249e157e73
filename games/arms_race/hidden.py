"""The hidden data hosts seed: the deal, typed by a host and checked by the rules, or the shuffle from the
game's seed."""

from __future__ import annotations

import random

from games.platform.kit import RulesError

from .models import Deal
from .rules import Settings, new_game
from .rules.weapons import checked_deal, weapon_named
from .settings import MIN_PLAYERS, rules_settings


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


def deal_summary(hands: list[list[str]], players: int, hand_size: int) -> str:
    """What keeps a deal a draft, in one line ("2 hands missing"); "" once it can be played."""
    missing = sum(1 for hand in hands[:players] if not hand) + max(0, players - len(hands))
    if missing:
        return f"{missing} hand{'s' * (missing != 1)} missing"
    problems = deal_problems(hands, players, hand_size)
    return problems[0] if problems else ""


def shuffled_hands(game, settings: Settings) -> list[list[str]]:
    """The deal the rules shuffle from the game's seed when no host dealt by hand (it replays exactly)."""
    state, _ = new_game(random.Random(game.seed), settings)
    return [[w.value for w in hand] for hand in state.hands]


def hidden_data(game) -> dict:
    """The deal as it was at the start: the host's, or the shuffle from the seed."""
    deal = Deal.objects.filter(game=game).first()
    if deal is not None:
        return {"deal": deal.hands, "dealt_by": "host"}
    seats = game.seats.count()
    if seats < MIN_PLAYERS:
        return {"deal": [], "dealt_by": "seed"}
    return {"deal": shuffled_hands(game, rules_settings(game.settings, seats)), "dealt_by": "seed"}
