"""The heat indicator: several secret ways to compute it, each true to every statement of the rules.

Every way looks only at the numbers of the eight cards around a card, with the board wrapping around its
edges. A side's "heat" is the sum of the three cards on that side (a corner card counts for both of its
sides). The shade of a triangle compares its side with the card's other sides, which is why one triangle
cannot be worked out alone; the background compares the sum of all eight with 16, the average over a
board (each card is counted in eight neighbourhoods: 8 x 50 / 25).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import SIZE, HeatIndicator, Shade

SIDES = ("top", "right", "bottom", "left")
AVERAGE_SURROUNDING = 16


def side_sums(numbers: Sequence[int], row: int, col: int) -> dict[str, int]:
    """The three cards on each side of the card at row, col (1-5), wrapping around the board's edges."""
    r, c = row - 1, col - 1

    def at(dr: int, dc: int) -> int:
        return numbers[((r + dr) % SIZE) * SIZE + (c + dc) % SIZE]

    return {
        "top": at(-1, -1) + at(-1, 0) + at(-1, 1),
        "right": at(-1, 1) + at(0, 1) + at(1, 1),
        "bottom": at(1, -1) + at(1, 0) + at(1, 1),
        "left": at(-1, -1) + at(0, -1) + at(1, -1),
    }


def surrounding_sum(numbers: Sequence[int], row: int, col: int) -> int:
    r, c = row - 1, col - 1
    return sum(
        numbers[((r + dr) % SIZE) * SIZE + (c + dc) % SIZE]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    )


def _extremes(sums: dict[str, int]) -> dict[str, Shade]:
    """Black for the hottest side(s), white for the coldest, grey between; all four equal are all grey."""
    high, low = max(sums.values()), min(sums.values())
    if high == low:
        return dict.fromkeys(SIDES, Shade.GREY)
    return {s: Shade.BLACK if v == high else Shade.WHITE if v == low else Shade.GREY for s, v in sums.items()}


def _mean(sums: dict[str, int]) -> dict[str, Shade]:
    """Black above the mean of the four sides, white below it, grey on it (compared as 4 x side vs total)."""
    total = sum(sums.values())
    return {
        s: Shade.BLACK if 4 * v > total else Shade.WHITE if 4 * v < total else Shade.GREY
        for s, v in sums.items()
    }


def _majority(sums: dict[str, int]) -> dict[str, Shade]:
    """Black when hotter than at least two other sides, white when colder than at least two, else grey."""
    shades = {}
    for s, v in sums.items():
        hotter = sum(v > o for k, o in sums.items() if k != s)
        colder = sum(v < o for k, o in sums.items() if k != s)
        shades[s] = Shade.BLACK if hotter >= 2 else Shade.WHITE if colder >= 2 else Shade.GREY
    return shades


def _background(low: int, high: int) -> Callable[[int], Shade]:
    """White when the eight cards sum below low, black above high, grey otherwise."""

    def shade(total: int) -> Shade:
        return Shade.WHITE if total < low else Shade.BLACK if total > high else Shade.GREY

    return shade


# name -> (triangle rule, background rule, a description for the host)
HEAT_RULES: dict[str, tuple[Callable, Callable[[int], Shade], str]] = {
    "extremes": (
        _extremes,
        _background(16, 16),
        "Each side sums its three cards. The hottest side(s) are black, the coldest white, others grey "
        "(all equal: all grey). Background: the eight cards sum above 16 black, below 16 white, 16 grey.",
    ),
    "mean": (
        _mean,
        _background(15, 17),
        "Each side sums its three cards. A side above the mean of the four sides is black, below it white, "
        "on it grey. Background: the eight cards sum 18 or more black, 14 or less white, else grey.",
    ),
    "majority": (
        _majority,
        _background(14, 18),
        "Each side sums its three cards. A side hotter than at least two other sides is black, colder than "
        "at least two white, otherwise grey. Background: 19 or more black, 13 or less white, else grey.",
    ),
}


def compute_heat(rule: str, numbers: Sequence[int], row: int, col: int) -> HeatIndicator:
    """The heat indicator of the card at row, col (1-5) on a board given by its 25 numbers, row by row."""
    triangles, background, _ = HEAT_RULES[rule]
    shades = triangles(side_sums(numbers, row, col))
    return HeatIndicator(
        top=shades["top"],
        right=shades["right"],
        bottom=shades["bottom"],
        left=shades["left"],
        background=background(surrounding_sum(numbers, row, col)),
    )
