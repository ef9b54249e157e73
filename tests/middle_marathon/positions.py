"""Hand-made Middle Marathon positions for the rules tests."""

from __future__ import annotations

from games.middle_marathon.rules import PIECES, Settings, State, apply, new_game, pending

BLUE, RED = 0, 1


def make(
    spaces: dict[str, int],
    *,
    gone: tuple[str, ...] = (),
    rest: int | None = 1,
    to_move: int = BLUE,
    turn: int = 1,
    hands: tuple[list[int], list[int]] | None = None,
    locked: dict[str, int] | None = None,
    reversed_: dict[str, int] | None = None,
    settings: Settings | None = None,
) -> State:
    """Pieces on the spaces given; `gone` have finished in that order; the rest sit on space `rest`.

    rest=None takes the unlisted pieces off the board as finishers after `gone` (in PIECES order).
    """
    state = new_game(settings or Settings(), to_move)
    state.turn = turn
    state.finished = list(gone)
    state.positions = dict(spaces)
    for piece in PIECES:
        if piece in spaces or piece in gone:
            continue
        if rest is None:
            state.finished.append(piece)
        else:
            state.positions[piece] = rest
    if hands is not None:
        state.hands = [list(hands[0]), list(hands[1])]
    state.locked_until = dict(locked or {})
    state.reversed_until = dict(reversed_ or {})
    return state


def play(state: State, card: int, piece: str, seat: int | None = None):
    """The player whose turn it is plays `card` on `piece`."""
    seat = state.to_move if seat is None else seat
    return apply(state, seat, {"type": "play", "card": card, "piece": piece})


def choose(state: State, choice, seat: int | None = None):
    """The player owing the pending decision answers it."""
    seat = pending(state)["seat"] if seat is None else seat
    return apply(state, seat, {"type": "choose", "choice": choice})


def texts(events) -> list[str]:
    return [event.text for event in events]
