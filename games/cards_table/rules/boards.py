"""The thirteen Rules of the Boards: a validator that names every broken rule and the cells that break it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .cards import CELLS, COLOURS, NUMBERS, ROUNDS, SIZE, Board, Boards, Card, cell_of, index

# The rules' own words, one per bullet, keyed by the name a Violation carries.
RULES: dict[str, str] = {
    "location_sum": "If you sum the value of all the cards in the same location across all 3 rounds, "
    "it will equal 5, 6 or 7.",
    "location_balance": "There will be the same amount of locations whose sum is 5 as those whose sum is 7.",
    "line_numbers": "Every Row and every Column of each board contains at least one 1, one 2 and one 3 card.",
    "line_colours": "Every Row and every Column of each board contains at least one Red, one Blue and one "
    "Yellow card.",
    "adjacent_same_number": "If 2 adjacent cards on a board have the same number, they will have different "
    "colours.",
    "adjacent_same_colour": "If 2 adjacent cards on a board have the same colour, they will have different "
    "numbers.",
    "number_counts": "In each round, there will be eight 1 cards, nine 2 cards, and eight 3 cards.",
    "colour_counts": "In each round, there will be at least eight cards of each colour.",
    "colour_board_sum": "The sum of all cards of the same colour on a board will equal 16 or 17.",
    "colour_game_sum": "The sum of all cards of the same colour across all 3 rounds will equal 50.",
    "no_repeat": "No card will have the same number and the same colour as it did in the previous round.",
    "number_groups": "There will be no more than 2 orthogonally connected cells of the same number on a "
    "board.",
    "colour_groups": "There will be no more than 2 orthogonally connected cells of the same colour on a "
    "board.",
}

NUMBER_COUNTS = {1: 8, 2: 9, 3: 8}
LOCATION_SUMS = (5, 6, 7)
COLOUR_BOARD_SUMS = (16, 17)
COLOUR_GAME_SUM = 50
MIN_COLOUR_COUNT = 8
MAX_GROUP = 2

# A cell named in a violation: (round, row, column), all counted from 1. Round 0 means "every round":
# the location rules speak of one location across the three boards.
Place = tuple[int, int, int]


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str
    cells: tuple[Place, ...]

    def to_dict(self) -> dict:
        return {"rule": self.rule, "message": self.message, "cells": [list(c) for c in self.cells]}


def orthogonal(i: int) -> Iterator[int]:
    """The cells sharing a side with cell i on the board (no wrapping: wrapping is only for heat)."""
    r, c = divmod(i, SIZE)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            yield (r + dr) * SIZE + c + dc


def adjacent(i: int, diagonal: bool) -> Iterator[int]:
    yield from orthogonal(i)
    if diagonal:
        r, c = divmod(i, SIZE)
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                yield (r + dr) * SIZE + c + dc


def lines() -> Iterator[tuple[str, tuple[int, ...]]]:
    for k in range(SIZE):
        yield f"row {k + 1}", tuple(k * SIZE + c for c in range(SIZE))
        yield f"column {k + 1}", tuple(r * SIZE + k for r in range(SIZE))


def groups(values: list, size: int = CELLS) -> list[list[int]]:
    """The orthogonally connected groups of equal values on one board (None values belong to no group)."""
    seen: set[int] = set()
    found = []
    for start in range(size):
        if start in seen or values[start] is None:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in orthogonal(i):
                if j not in seen and values[j] == values[start]:
                    seen.add(j)
                    todo.append(j)
        found.append(sorted(group))
    return found


def _place(rnd: int, i: int) -> Place:
    return (rnd, *cell_of(i))


def validate_boards(boards: Boards, diagonal_adjacency: bool = False) -> list[Violation]:
    """Every way the three boards break the Rules of the Boards; an empty list means the set is valid."""
    if len(boards) != ROUNDS or any(len(board) != CELLS for board in boards):
        return [Violation("shape", "There must be 3 boards of 5 rows by 5 columns.", ())]
    if any(not isinstance(card, Card) or card.number not in NUMBERS for board in boards for card in board):
        return [Violation("shape", "Every card needs a number 1, 2 or 3 and a colour.", ())]
    found: list[Violation] = []
    found += _location_rules(boards)
    for rnd, board in enumerate(boards, start=1):
        found += _board_rules(rnd, board, diagonal_adjacency)
    found += _game_colour_sums(boards)
    found += _repeats(boards)
    return found


def _location_rules(boards: Boards) -> list[Violation]:
    found = []
    sums = [sum(board[i].number for board in boards) for i in range(CELLS)]
    for i, total in enumerate(sums):
        if total not in LOCATION_SUMS:
            r, c = cell_of(i)
            found.append(
                Violation(
                    "location_sum", f"The cards at R{r}C{c} sum to {total} over the 3 rounds.", ((0, r, c),)
                )
            )
    fives = [i for i, s in enumerate(sums) if s == 5]
    sevens = [i for i, s in enumerate(sums) if s == 7]
    if len(fives) != len(sevens):
        found.append(
            Violation(
                "location_balance",
                f"{len(fives)} locations sum to 5 but {len(sevens)} sum to 7.",
                tuple(_place(0, i) for i in fives + sevens),
            )
        )
    return found


def _board_rules(rnd: int, board: Board, diagonal: bool) -> list[Violation]:
    found = []
    numbers = [card.number for card in board]
    colours = [card.colour for card in board]
    for name, cells in lines():
        missing = [str(n) for n in NUMBERS if n not in {numbers[i] for i in cells}]
        if missing:
            found.append(
                Violation(
                    "line_numbers",
                    f"Round {rnd}, {name} has no {' or '.join(missing)} card.",
                    tuple(_place(rnd, i) for i in cells),
                )
            )
        missing = [c.value for c in COLOURS if c not in {colours[i] for i in cells}]
        if missing:
            found.append(
                Violation(
                    "line_colours",
                    f"Round {rnd}, {name} has no {' or '.join(missing)} card.",
                    tuple(_place(rnd, i) for i in cells),
                )
            )
    for i in range(CELLS):
        for j in adjacent(i, diagonal):
            if j > i and board[i] == board[j]:
                # Both bullets forbid exactly this: two adjacent cards alike in number and colour.
                pair = (_place(rnd, i), _place(rnd, j))
                text = (
                    f"Round {rnd}: adjacent cards R{pair[0][1]}C{pair[0][2]} and R{pair[1][1]}C{pair[1][2]}"
                )
                found.append(Violation("adjacent_same_number", f"{text} share number and colour.", pair))
                found.append(Violation("adjacent_same_colour", f"{text} share colour and number.", pair))
    for n, want in NUMBER_COUNTS.items():
        have = [i for i in range(CELLS) if numbers[i] == n]
        if len(have) != want:
            found.append(
                Violation(
                    "number_counts",
                    f"Round {rnd} has {len(have)} cards numbered {n}, not {want}.",
                    tuple(_place(rnd, i) for i in have),
                )
            )
    for colour in COLOURS:
        have = [i for i in range(CELLS) if colours[i] == colour]
        if len(have) < MIN_COLOUR_COUNT:
            found.append(
                Violation(
                    "colour_counts",
                    f"Round {rnd} has only {len(have)} {colour.value} cards.",
                    tuple(_place(rnd, i) for i in have),
                )
            )
        total = sum(numbers[i] for i in have)
        if total not in COLOUR_BOARD_SUMS:
            found.append(
                Violation(
                    "colour_board_sum",
                    f"Round {rnd}: the {colour.value} cards sum to {total}.",
                    tuple(_place(rnd, i) for i in have),
                )
            )
    for rule, values, word in (("number_groups", numbers, "number"), ("colour_groups", colours, "colour")):
        for group in groups(values):
            if len(group) > MAX_GROUP:
                found.append(
                    Violation(
                        rule,
                        f"Round {rnd}: {len(group)} orthogonally connected cards share a {word}.",
                        tuple(_place(rnd, i) for i in group),
                    )
                )
    return found


def _game_colour_sums(boards: Boards) -> list[Violation]:
    found = []
    for colour in COLOURS:
        places = [
            _place(r, i)
            for r, board in enumerate(boards, 1)
            for i in range(CELLS)
            if board[i].colour == colour
        ]
        total = sum(boards[r - 1][index(row, col)].number for r, row, col in places)
        if total != COLOUR_GAME_SUM:
            found.append(
                Violation(
                    "colour_game_sum",
                    f"The {colour.value} cards of the 3 rounds sum to {total}.",
                    tuple(places),
                )
            )
    return found


def _repeats(boards: Boards) -> list[Violation]:
    found = []
    for rnd in range(2, len(boards) + 1):
        for i in range(CELLS):
            if boards[rnd - 1][i] == boards[rnd - 2][i]:
                r, c = cell_of(i)
                found.append(
                    Violation(
                        "no_repeat",
                        f"R{r}C{c} is a {boards[rnd - 1][i].words()} card in both round {rnd - 1} "
                        f"and round {rnd}.",
                        ((rnd - 1, r, c), (rnd, r, c)),
                    )
                )
    return found
