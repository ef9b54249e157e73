"""Small helpers that put results into the plain words a player reads in the inbox."""

from __future__ import annotations


def listing(items: list[str], empty: str = "none") -> str:
    """ "A", "A and B", "A, B and C"."""
    items = [str(item) for item in items]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def cards(counts: dict[str, int]) -> str:
    """{"A": 2, "C": 1} -> "2 A cards and 1 C card"."""
    return listing([plural(n, f"{h} card") for h, n in counts.items()])


def seat_name(seat: int) -> str:
    return f"seat {seat}"


# Letters whose spoken name starts with a vowel sound take "an": "an A card", "an F card", "a B card".
_AN_LETTERS = set("AEFHILMNORSX")


def a_card(horse: str) -> str:
    """ "A" -> "an A card", "B" -> "a B card"."""
    return f"{'an' if str(horse)[:1].upper() in _AN_LETTERS else 'a'} {horse} card"
