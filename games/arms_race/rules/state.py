"""What an Arms Race game holds: the hands, the wounds, the weapon in flight and the log."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .settings import Settings
from .weapons import WEAPONS, Weapon

SOLE_WINNER_AWARD = (2, 7)  # tokens of life, garnets: one player both played and pointed the killing weapon
SHARED_WINNER_AWARD = (1, 3)  # each, when two different players did


class Phase(StrEnum):
    WILD_CARDS = "wild_cards"  # between rounds: each player buys a wild card or declines
    ATTACK = "attack"  # the player whose turn it is picks a card, a target and a claim
    RESPOND = "respond"  # the targeted player challenges or passes
    REDIRECT = "redirect"  # the player who passed aims the weapon at someone who has not seen it
    OVER = "over"


class Call(StrEnum):
    TRUTH = "truth"
    LIE = "lie"


@dataclass(frozen=True)
class Claim:
    """One pointing of the weapon: who aimed it, at whom, and what they said it was."""

    pointer: int
    target: int
    weapon: Weapon


@dataclass(frozen=True)
class Flight:
    """The weapon in flight: the real card (a wild card's declared weapon), the claims, who has seen it."""

    owner: int
    weapon: Weapon
    wild: bool
    claims: tuple[Claim, ...]
    seen: tuple[int, ...]

    @property
    def last(self) -> Claim:
        return self.claims[-1]

    def unseen(self, players: int) -> tuple[int, ...]:
        return tuple(seat for seat in range(players) if seat not in self.seen)


@dataclass(frozen=True)
class AttackRecord:
    """A finished attack: the chain of claims, the challenge, the revealed card and the wound it gave."""

    round: int
    turn: int
    owner: int
    weapon: Weapon
    wild: bool
    claims: tuple[Claim, ...]
    seen: tuple[int, ...]
    challenger: int
    call: Call
    correct: bool
    wounded: int
    timed_out: tuple[int, ...] = ()

    @property
    def wound(self) -> str:
        return self.weapon.wound


@dataclass(frozen=True)
class Outcome:
    """How the game ended: by three wounds of one type, or after nine rounds by most wounds."""

    reason: str  # "three_wounds" or "nine_rounds"
    loser: int
    winners: tuple[int, ...] = ()
    original: int | None = None  # the player who first played the killing weapon
    pointer: int | None = None  # the player who pointed it towards the loser
    tiebreak: str = ""  # how a tie for most wounds was settled, in words


@dataclass(frozen=True)
class State:
    settings: Settings
    seed: int
    names: tuple[str, ...]
    hands: tuple[tuple[Weapon, ...], ...]
    undealt: tuple[Weapon, ...]
    # One entry per wild card a seat holds: its weapon if it was named at purchase, else None.
    wilds: tuple[tuple[Weapon | None, ...], ...]
    # wounds[seat][i] counts the wounds of WEAPONS[i]'s type.
    wounds: tuple[tuple[int, ...], ...]
    round: int
    order: tuple[int, ...]
    turn: int
    phase: Phase
    flight: Flight | None = None
    wild_decided: tuple[int, ...] = ()  # seats that have bought or declined in this break
    wild_bought: tuple[int, ...] = ()  # seats that bought in this break
    timed_out: tuple[int, ...] = ()  # seats whose clock ran out during the attack in flight
    history: tuple[AttackRecord, ...] = ()
    outcome: Outcome | None = None

    @property
    def players(self) -> int:
        return self.settings.players

    @property
    def attacker(self) -> int | None:
        """The player whose turn it is this round."""
        if self.phase in (Phase.ATTACK, Phase.RESPOND, Phase.REDIRECT):
            return self.order[self.turn]
        return None

    def wounds_of(self, seat: int, weapon: Weapon) -> int:
        return self.wounds[seat][WEAPONS.index(weapon)]

    def total_wounds(self, seat: int) -> int:
        return sum(self.wounds[seat])
