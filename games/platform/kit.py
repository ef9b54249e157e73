"""What every game's pure rules share: the events they emit, the error a player reads, the Threshold award.

Standard library only: a game's rules module may import this and nothing else of the site.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """An action the rules forbid. The message is shown to the player as it is, next to `field` if given."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def seat_ref(seat: int) -> str:
    """A player named in an event's text or a ledger reason, by their seat: "{seat:3}". The site keeps who it
    is and writes the name they go by when the text is read (`games.platform.wording`), not the name they
    had when it was written."""
    return f"{{seat:{seat}}}"


@dataclass(frozen=True)
class Announce:
    """A public announcement: every player and spectator reads it."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reveal:
    """Private information for one seat's inbox."""

    seat: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ledger:
    """A change to something countable a seat holds.

    `what` is one of chips, cards, points, garnets, tokens_of_life; `item` names which one where there are
    kinds (the horse letter of a card). Garnets and Tokens of Life go to the season's ledger; the rest stay
    with the game.
    """

    seat: int
    what: str
    delta: int
    reason: str
    item: str = ""


def threshold_award(scores: Mapping[Hashable, int], n: int) -> set[Hashable]:
    """The Threshold N award: from the top score down, add whole tie groups while the count stays within N.

    6,4,3,3 with Threshold 3 rewards the 6 and the 4; 4,4,4,4 with Threshold 3 rewards nobody.
    """
    winners: set[Hashable] = set()
    for value in sorted(set(scores.values()), reverse=True):
        group = {key for key, score in scores.items() if score == value}
        if len(winners) + len(group) > n:
            break
        winners |= group
    return winners
