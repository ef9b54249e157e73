"""A valid set of boards for the tests (made by the generator from seed 2025, checked by hand)."""

from games.cards_table.rules import Card, Colour

LETTERS = {"r": Colour.RED, "b": Colour.BLUE, "y": Colour.YELLOW}

VALID = (
    (
        "2b 3r 3b 2b 1y",
        "1y 1b 2y 3r 3b",
        "3b 3y 2r 1y 1r",
        "2y 2r 1b 2y 3r",
        "1r 3y 2r 1b 2y",
    ),
    (
        "3y 1y 1b 2r 2y",
        "3b 2b 2r 1b 3y",
        "1y 3r 1b 3y 2b",
        "2b 2y 3r 1r 3b",
        "3r 1r 2y 2b 1r",
    ),
    (
        "2y 1r 2r 1b 3y",
        "1b 3b 2y 3b 1r",
        "3y 1y 3b 2y 2r",
        "2r 3r 1y 3r 1b",
        "3b 2b 1r 2y 2r",
    ),
)


def parse(text_boards) -> list[list[Card]]:
    """Boards written as rows of "2b 3r ..." into lists of cards (lists, so a test can change them)."""
    return [
        [Card(int(token[0]), LETTERS[token[1]]) for row in board for token in row.split()]
        for board in text_boards
    ]


def frozen(boards) -> tuple:
    return tuple(tuple(board) for board in boards)


def at(row: int, col: int) -> int:
    return (row - 1) * 5 + col - 1
