"""Placements, points, the end of the race and the winner with its tie-break ladder."""

from __future__ import annotations

from typing import Any

from .pieces import NEUTRAL, PIECES, colour, name, owner, seat_name
from .settings import Settings
from .state import State
from .track import ordinal, tie_rank


def colours_on_board(state: State) -> set[str]:
    on_board = [piece for piece in PIECES if piece in state.positions]
    if not state.settings.neutral_is_a_colour:
        on_board = [piece for piece in on_board if piece != NEUTRAL]
    return {colour(piece) for piece in on_board}


def race_is_over(state: State) -> bool:
    """ "When there are only pieces of one color, the game ends" (none at all ends it too)."""
    return len(colours_on_board(state)) <= 1


def final_order(state: State) -> list[str]:
    """Finishers in order, then the pieces left on the board from the front backwards.

    Pieces left on one space are ordered like pieces finishing together: the player whose turn it is,
    then the neutral piece, then the other player.
    """
    left = [piece for piece in PIECES if piece in state.positions]
    left.sort(
        key=lambda piece: (-state.positions[piece], tie_rank(piece, state.to_move), PIECES.index(piece))
    )
    return list(state.finished) + left


def placements(order: list[str], settings: Settings) -> list[dict[str, Any]]:
    return [
        {"place": index + 1, "piece": piece, "seat": owner(piece), "points": settings.placement_points[index]}
        for index, piece in enumerate(order)
    ]


def seat_scores(order: list[str], settings: Settings) -> list[int]:
    """Each player's points: the sum over the pieces of their colour (the neutral piece scores nobody)."""
    scores = [0, 0]
    for row in placements(order, settings):
        if row["seat"] is not None:
            scores[row["seat"]] += row["points"]
    return scores


def decide_winner(order: list[str], settings: Settings) -> tuple[int | None, str]:
    """The winner seat (None: the DMO wins, a draw) and why, walking the rules' tie-break ladder."""
    scores = seat_scores(order, settings)
    if scores[0] != scores[1]:
        best = 0 if scores[0] > scores[1] else 1
        return best, f"{seat_name(best)} has more points ({scores[best]} to {scores[1 - best]})"
    fifth = order[4] if len(order) > 4 else NEUTRAL
    if owner(fifth) is not None:
        return owner(fifth), f"tied on points; {seat_name(owner(fifth))}'s {name(fifth)} finished 5th"
    for low, high in ((4, 6), (3, 7), (2, 8)):
        pair = {owner(order[low - 1]), owner(order[high - 1])}
        if len(pair) == 1 and None not in pair:
            seat = pair.pop()
            both = f"{ordinal(low)} and {ordinal(high)}"
            return seat, f"tied on points, neutral 5th; {seat_name(seat)} finished both {both}"
    return None, "tied on points and no one holds a matching pair of places: the DMO wins (a draw)"


def end_race(state: State, reason: str = "only one colour is left on the board") -> str:
    """Place the pieces left on the board, score, and record the result; returns the announcement."""
    order = final_order(state)
    winner, why = decide_winner(order, state.settings)
    scores = seat_scores(order, state.settings)
    state.result = {
        "winner": winner,
        "draw": winner is None,
        "reason": why,
        "ended_because": reason,
        "scores": scores,
        "order": order,
        "placements": placements(order, state.settings),
    }
    places = ", ".join(f"{ordinal(i + 1)} {name(piece)}" for i, piece in enumerate(order))
    outcome = "The DMO wins: a draw" if winner is None else f"{seat_name(winner)} wins"
    return f"The race is over ({reason}). {places}. Blue {scores[0]}, Red {scores[1]}. {outcome}: {why}."


def points_so_far(state: State) -> list[int]:
    return seat_scores(list(state.finished), state.settings)
