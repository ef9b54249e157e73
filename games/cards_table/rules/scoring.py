"""The seven ways to score, each a small function of plain facts so the rules' examples test it directly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence

from games.platform.kit import threshold_award

from .cards import Colour

NULLIFY_CAP = 3


def crowd_values(scoring: Mapping[int, tuple[Hashable, int]], crowd_size: int) -> dict[int, int]:
    """Each seat's scoring card value: its number, 1 less for every crowd_size players on that card (may go
    below 0). scoring maps seat -> (card, number)."""
    crowd = Counter(card for card, _ in scoring.values())
    return {seat: number - crowd[card] // crowd_size for seat, (card, number) in scoring.items()}


def scoring_card_points(
    scoring: Mapping[int, tuple[Hashable, int]], nullified: set, crowd_size: int
) -> dict[int, int]:
    """Points from the scoring card: the crowd value, or 0 if anyone nullified that card (applied last)."""
    values = crowd_values(scoring, crowd_size)
    return {seat: 0 if scoring[seat][0] in nullified else value for seat, value in values.items()}


def nullify_points(denied: Sequence[int]) -> int:
    """A nullifier's points: 1 per player denied, 1 per 3 points denied, at most 3.

    denied holds the points each denied player would have scored (one entry per player)."""
    return min(NULLIFY_CAP, len(denied) + sum(denied) // 3)


def board_guess_winners(right: Mapping[int, int], threshold: int) -> set[int]:
    """Who earns the point for most cards guessed right (numbers or colours): the Threshold award.

    Nobody earns it with nothing right."""
    return {seat for seat in threshold_award(right, threshold) if right[seat] > 0}


def capped(earned: int, already: int, cap: int) -> int:
    """Points still allowed under a cap over the game."""
    return max(0, min(earned, cap - already))


def colour_bonus(colours: Sequence[Colour]) -> int:
    """Three scoring cards all of different colours: 1 point; all the same colour: 2 points."""
    if len(colours) != 3:
        return 0
    kinds = len(set(colours))
    return 2 if kinds == 1 else 1 if kinds == 3 else 0


def top_seats(points: Sequence[int]) -> tuple[int, ...]:
    """The seats at the top of a primary list: everyone with the most points that round."""
    best = max(points)
    return tuple(seat for seat, p in enumerate(points) if p == best)


def unique_each_round(mine: Sequence[frozenset], others: Sequence[Sequence[frozenset]]) -> bool:
    """In every round, no other player chose any card among mine (mine[r]: my cards of round r).

    A round in which I chose nothing does not count as unique."""
    return all(bool(mine[r]) and not any(mine[r] & other[r] for other in others) for r in range(len(mine)))


def unmatched_over_all_rounds(mine: Sequence[frozenset], others: Sequence[Sequence[frozenset]]) -> bool:
    """No other player chose exactly my cards in every round (the looser reading of "for all 3 rounds")."""
    if not all(mine):
        return False
    return not any(all(other[r] == mine[r] for r in range(len(mine))) for other in others)
