"""The cards on the table: numbers, colours, heat indicators, boards and their cells."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.platform.kit import RulesError

SIZE = 5
CELLS = SIZE * SIZE
ROUNDS = 3


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"


class Shade(StrEnum):
    """The colour of one triangle or of the background of a heat indicator."""

    WHITE = "white"
    GREY = "grey"
    BLACK = "black"


class Action(StrEnum):
    """The three actions, in the order a player who forgets to declare is given the first unused one."""

    NULLIFY = "nullify"
    REPLACE = "replace"
    SCOUT = "scout"


ACTION_ORDER = (Action.NULLIFY, Action.REPLACE, Action.SCOUT)
COLOURS = (Colour.RED, Colour.BLUE, Colour.YELLOW)
NUMBERS = (1, 2, 3)


@dataclass(frozen=True)
class Card:
    number: int
    colour: Colour

    def words(self) -> str:
        return f"{self.number} {self.colour.value}"


@dataclass(frozen=True)
class HeatIndicator:
    """Four triangles, one per side of the card (the long side faces that direction), and a background."""

    top: Shade
    right: Shade
    bottom: Shade
    left: Shade
    background: Shade

    def words(self) -> str:
        return (
            f"top {self.top.value}, right {self.right.value}, bottom {self.bottom.value}, "
            f"left {self.left.value}, background {self.background.value}"
        )

    def to_dict(self) -> dict[str, str]:
        return {side: getattr(self, side).value for side in ("top", "right", "bottom", "left", "background")}


# A board is 25 cards, row by row: the card at row r, column c (both 1-5) is board[index(r, c)].
Board = tuple[Card, ...]
Boards = tuple[Board, ...]


def index(row: int, col: int) -> int:
    return (row - 1) * SIZE + (col - 1)


def cell_of(i: int) -> tuple[int, int]:
    return i // SIZE + 1, i % SIZE + 1


def cell_name(row: int, col: int) -> str:
    """The way players wrote a coordinate in the original game: R2C4."""
    return f"R{row}C{col}"


def check_cell(row: object, col: object, field: str = "cell") -> tuple[int, int]:
    """A cell a player named, checked: rows and columns run 1 to 5."""
    if not isinstance(row, int) or not isinstance(col, int) or isinstance(row, bool) or isinstance(col, bool):
        raise RulesError("Name a card by its row and column, each a number from 1 to 5.", field=field)
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise RulesError(f"There is no card at row {row}, column {col}: rows and columns run 1 to 5.", field)
    return row, col


def board_from_rows(rows: list[list[tuple[int, str]]] | tuple) -> Board:
    """A board from a 5x5 grid of (number, colour) pairs, as a host types it."""
    return tuple(Card(int(n), Colour(c)) for row in rows for (n, c) in row)
