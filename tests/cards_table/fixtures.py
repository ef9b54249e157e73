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


def fresh(players: int = 10, **settings):
    """A game on the fixture boards, with the 'extremes' heat rule unless told otherwise."""
    from games.cards_table.rules import Settings, new_game

    settings.setdefault("heat_rule", "extremes")
    return new_game(Settings(players=players, **settings), boards=frozen(parse(VALID)))


def play(state, plan: dict):
    """Flip for each seat in turn: plan[seat] lists cells (row, col) or (action, (row, col)) for a declared
    flip. Returns the state and all events."""
    from games.cards_table.rules import flip

    events = []
    for seat, moves in plan.items():
        for move in moves:
            if isinstance(move[0], str):
                state, evs = flip(state, seat, *move[1], declared_action=move[0])
            else:
                state, evs = flip(state, seat, *move)
            events += evs
    return state, events


def round_points(state, rnd: int) -> list[int]:
    return [
        sum(p.delta for p in state.points if p.seat == s and p.round == rnd) for s in range(len(state.seats))
    ]


def totals(state) -> list[int]:
    return [sum(p.delta for p in state.points if p.seat == s) for s in range(len(state.seats))]
