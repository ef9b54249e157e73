"""The game state and the stack of owed decisions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .pieces import PIECES
from .settings import Settings

FULL_DECK = (0, 1, 2, 3, 4)


@dataclass
class Task:
    """One ability waiting on its owner's choice; the stack of these is resolved top first.

    kind is force_companion, force_lock, gravity, reflect, reflect_reverse, swap or discard.
    """

    kind: str
    seat: int
    piece: str
    away: bool = False  # Gravity played with a 0: push instead of pull
    sides: list[str] = field(default_factory=list)  # Gravity's parts not yet declared: "ahead", "behind"
    first: str = ""  # Gravity: the piece its first part moved, which its second part may not take again
    direction: int = 0  # Force/Reflect: direction (+1 forwards, -1 backwards) of the move that triggered it
    distance: int = 0
    start: int = 0  # Force: where it moves from and to once its companion is chosen
    end: int = 0


@dataclass
class State:
    settings: Settings
    first_player: int
    turn: int  # 1, 2, 3 ... turns alternate between the seats
    to_move: int
    positions: dict[str, int]  # pieces on the board only
    finished: list[str]  # finishing order so far: index 0 finished 1st
    hands: list[list[int]]  # the cards each seat has not used yet, sorted
    locked_until: dict[str, int]  # piece -> last turn number it cannot move
    reversed_until: dict[str, int]
    stack: list[Task]
    played: list[dict[str, Any]]  # {turn, seat, card, piece}: public
    discards: list[dict[str, Any]]  # {turn, seat, cards}
    decisions: list[dict[str, Any]]  # {turn, seat, kind, piece, choice, forced}: what the clocks count
    log: list[str]  # the move log in words
    result: dict[str, Any] | None = None


def new_game(settings: Settings | None = None, first_player: int = 0) -> State:
    """Every piece on space 1, both decks full, first_player (the DMO's choice) to play."""
    if first_player not in (0, 1):
        raise ValueError("first_player must be 0 or 1")
    settings = settings or Settings()
    if len(settings.placement_points) != len(PIECES):
        raise ValueError("placement_points needs one value per piece (9)")
    return State(
        settings=settings,
        first_player=first_player,
        turn=1,
        to_move=first_player,
        positions={piece: 1 for piece in PIECES},
        finished=[],
        hands=[list(FULL_DECK), list(FULL_DECK)],
        locked_until={},
        reversed_until={},
        stack=[],
        played=[],
        discards=[],
        decisions=[],
        log=[],
    )
