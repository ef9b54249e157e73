"""The 15-space track: where a move lands, the floor at space 1, and pieces crossing the finish line."""

from __future__ import annotations

from .pieces import NEUTRAL, PIECES, name, owner
from .state import State

TRACK_LENGTH = 15


def destination(state: State, piece: str, direction: int, distance: int) -> int:
    """Where `piece` ends if moved `distance` spaces in `direction`; past 15 means it finishes.

    A locked piece takes the movement but stays put; a reversed piece goes the other way; nothing goes
    behind space 1.
    """
    start = state.positions[piece]
    if distance == 0 or piece in state.locked_until:
        return start
    if piece in state.reversed_until:
        direction = -direction
    return max(1, start + direction * distance)


def tie_rank(piece: str, turn_seat: int) -> int:
    """Pieces level in a tie: the player whose turn it is first, then the neutral piece, then the other."""
    if piece == NEUTRAL:
        return 1
    return 0 if owner(piece) == turn_seat else 2


def finishing_key(piece: str, past: int, turn_seat: int) -> tuple[int, int, int]:
    # Two pieces of one player level on every count finish in PIECES order: their owner's total is the same.
    return (-past, tie_rank(piece, turn_seat), PIECES.index(piece))


def place_pieces(state: State, moves: list[tuple[str, int, int]]) -> str:
    """Carry out moves [(piece, start, end)] that happen at the same time; returns them in words."""
    crossing = []
    for piece, _start, end in moves:
        if end > TRACK_LENGTH:
            del state.positions[piece]
            state.locked_until.pop(piece, None)
            state.reversed_until.pop(piece, None)
            crossing.append((piece, end - TRACK_LENGTH))
        else:
            state.positions[piece] = end
    crossing.sort(key=lambda item: finishing_key(item[0], item[1], state.to_move))
    places = {}
    for piece, _past in crossing:
        state.finished.append(piece)
        places[piece] = len(state.finished)
    words = []
    for piece, start, end in moves:
        if piece in places:
            past = end - TRACK_LENGTH
            words.append(
                f"{name(piece)} moves {start} -> {end}, {past} past the line, and finishes "
                f"{ordinal(places[piece])}"
            )
        elif start == end:
            why = " (locked)" if piece in state.locked_until else ""
            words.append(f"{name(piece)} does not move from {start}{why}")
        else:
            words.append(f"{name(piece)} moves {start} -> {end}")
    return "; ".join(words)


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def pieces_ahead(state: State, of: int) -> list[str]:
    return [piece for piece in PIECES if state.positions.get(piece, 0) > of]


def pieces_behind(state: State, of: int) -> list[str]:
    return [piece for piece in PIECES if piece in state.positions and state.positions[piece] < of]
