"""The eight weapons, their wounds, the 64-card deck and the deal of nine cards to each player."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

from games.platform.kit import RulesError


class Weapon(StrEnum):
    DAGGER = "dagger"
    BAT = "bat"
    WHIP = "whip"
    KATANA = "katana"
    CROSSBOW = "crossbow"
    TASER = "taser"
    PISTOL = "pistol"
    FLAMETHROWER = "flamethrower"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @property
    def wound(self) -> str:
        return WOUNDS[self]


WEAPONS: tuple[Weapon, ...] = tuple(Weapon)

# "The Bat gives a Bruise, the Dagger gives a Cut, the Crossbow gives an Arrow, the Pistol gives a
# Bullet, the Whip gives a Lash, the Katana gives a Slice, the Taser gives a Shock, and the Flamethrower
# gives a Burn."
WOUNDS: dict[Weapon, str] = {
    Weapon.BAT: "Bruise",
    Weapon.DAGGER: "Cut",
    Weapon.CROSSBOW: "Arrow",
    Weapon.PISTOL: "Bullet",
    Weapon.WHIP: "Lash",
    Weapon.KATANA: "Slice",
    Weapon.TASER: "Shock",
    Weapon.FLAMETHROWER: "Burn",
}

COPIES = 8
DECK: tuple[Weapon, ...] = tuple(w for w in WEAPONS for _ in range(COPIES))


def weapon_named(name: object, field: str) -> Weapon:
    """The weapon a player named in a form field; a readable error for anything else."""
    if isinstance(name, str):
        for weapon in WEAPONS:
            if name.strip().lower() == weapon.value:
                return weapon
    choices = ", ".join(w.title for w in WEAPONS)
    raise RulesError(f"Name one of the eight weapons: {choices}.", field=field)


def sort_hand(cards: Iterable[Weapon]) -> tuple[Weapon, ...]:
    """A hand in deck order: cards of one weapon are alike, so the order carries no information."""
    return tuple(sorted(cards, key=WEAPONS.index))


def without_one(hand: Sequence[Weapon], weapon: Weapon) -> tuple[Weapon, ...]:
    cards = list(hand)
    cards.remove(weapon)
    return tuple(cards)


def shuffled_deal(rng: random.Random, players: int, hand_size: int):
    """Shuffle the deck and send `hand_size` cards to each player; what is left stays face down, unused."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(sort_hand(deck[i * hand_size : (i + 1) * hand_size]) for i in range(players))
    return hands, sort_hand(deck[players * hand_size :])


def checked_deal(deal: object, players: int, hand_size: int):
    """A deal given by hand (the host's): `hand_size` weapons per player, all from the one deck."""
    if not isinstance(deal, Sequence) or isinstance(deal, str) or len(deal) != players:
        raise RulesError(f"A deal is {players} hands, one per player.", field="deal")
    hands = []
    for seat, hand in enumerate(deal):
        if not isinstance(hand, Sequence) or isinstance(hand, str) or len(hand) != hand_size:
            raise RulesError(f"Hand {seat + 1} must hold exactly {hand_size} cards.", field="deal")
        hands.append(sort_hand(weapon_named(card, "deal") for card in hand))
    counts = Counter(card for hand in hands for card in hand)
    for weapon, count in counts.items():
        if count > COPIES:
            raise RulesError(
                f"The deck has only {COPIES} {weapon.title} cards; this deal uses {count}.", field="deal"
            )
    left = Counter(DECK) - counts
    return tuple(hands), sort_hand(left.elements())


def counted(count: int, word: str) -> str:
    """ "1 Cut", "2 Cuts", "1 wound", "3 wounds", "2 Lashes": a count and its word, plural unless 1."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}{'es' if word.endswith(('sh', 'ch', 's', 'x')) else 's'}"
