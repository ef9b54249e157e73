"""The movement table and everything derived from it: spaces, exits, placements and standings."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from games.platform.kit import RulesError

from .settings import HORSES, ROUNDS

START_SPACE = 1
Table = dict[str, list[int]]


def generate_movement_table(rng: random.Random) -> Table:
    """A movement table drawn from the game's seeded random generator: every cell 1, 2 or 3."""
    return {horse: [rng.randint(1, 3) for _ in range(ROUNDS)] for horse in HORSES}


def movement_table_problems(table: object) -> list[str]:
    """Every wrong or missing cell of a movement table, each named by horse and round."""
    if not isinstance(table, Mapping):
        return ["The movement table must map each horse A-I to its movement values for Rounds 1-10."]
    problems = [f"Row {key!r} is not a horse (A-I)." for key in table if key not in HORSES]
    for horse in HORSES:
        row = table.get(horse)
        if row is None:
            problems.append(f"Horse {horse} has no row.")
            continue
        if isinstance(row, str | bytes) or not isinstance(row, Sequence):
            problems.append(f"Horse {horse}'s row must be a list of {ROUNDS} values.")
            continue
        for index in range(ROUNDS):
            if index >= len(row):
                problems.append(f"Horse {horse}, Round {index + 1}: missing (must be 1, 2 or 3).")
            elif type(row[index]) is not int or row[index] not in (1, 2, 3):
                problems.append(f"Horse {horse}, Round {index + 1}: {row[index]!r} is not 1, 2 or 3.")
        if len(row) > ROUNDS:
            problems.append(f"Horse {horse} has {len(row)} values; there are only {ROUNDS} rounds.")
    return problems


def validate_movement_table(table: object) -> Table:
    """A clean copy of a movement table, or RulesError(field="movement") naming every bad cell."""
    problems = movement_table_problems(table)
    if problems:
        raise RulesError(" ".join(problems), field="movement")
    return {horse: list(table[horse]) for horse in HORSES}


def move(table: Table, horse: str, round_number: int) -> int:
    """The horse's movement value for a round (1-10)."""
    return table[horse][round_number - 1]


def exit_round(table: Table, horse: str, track_length: int = 15) -> int | None:
    """The round in which the horse moves past the last space, or None if it never does."""
    space = START_SPACE
    for round_number in range(1, ROUNDS + 1):
        space += move(table, horse, round_number)
        if space > track_length:
            return round_number
    return None


def space_after(table: Table, horse: str, round_number: int, track_length: int = 15) -> int:
    """The horse's space at the end of a round; a finished horse stays on the first space past the line
    it landed on (the rules' clarification), so it is counted as on that space from then on."""
    space = START_SPACE
    for number in range(1, round_number + 1):
        if space > track_length:
            break
        space += move(table, horse, number)
    return space


def spaces_after(table: Table, round_number: int, track_length: int = 15) -> dict[str, int]:
    return {horse: space_after(table, horse, round_number, track_length) for horse in HORSES}


def finished_by(table: Table, horse: str, round_number: int, track_length: int = 15) -> bool:
    done = exit_round(table, horse, track_length)
    return done is not None and done <= round_number


def _order_key(table: Table, horse: str, round_number: int, track_length: int) -> tuple:
    """Finished horses first, by exit round, then furthest past the line, then letter; the rest by
    closeness to the line, then letter (the addendum's rule for horses left on the track)."""
    space = space_after(table, horse, round_number, track_length)
    if finished_by(table, horse, round_number, track_length):
        return (0, exit_round(table, horse, track_length), -space, horse)
    return (1, 0, -space, horse)


def race_order(table: Table, round_number: int = ROUNDS, track_length: int = 15) -> list[str]:
    """All nine horses from 1st to 9th as things stand at the end of a round; at Round 10 the final result."""
    return sorted(HORSES, key=lambda horse: _order_key(table, horse, round_number, track_length))


def final_placements(table: Table, track_length: int = 15) -> dict[str, int]:
    """Each horse's final placement, 1-9."""
    return {horse: rank for rank, horse in enumerate(race_order(table, ROUNDS, track_length), start=1)}


def standings(table: Table, round_number: int, track_length: int = 15, keep_finish_order: bool = True):
    """Placements at the end of a round for Round 5's Clue: tied horses share the highest rank of the tie.

    With keep_finish_order, finished horses keep their (untied) race placements and horses on the track
    rank below them by space; otherwise every horse ranks by its space alone.
    """
    spaces = spaces_after(table, round_number, track_length)
    ranks: dict[str, int] = {}
    if keep_finish_order:
        done = [h for h in race_order(table, round_number, track_length) if spaces[h] > track_length]
        for rank, horse in enumerate(done, start=1):
            ranks[horse] = rank
        racing = [h for h in HORSES if h not in ranks]
        for horse in racing:
            ranks[horse] = len(done) + 1 + sum(1 for other in racing if spaces[other] > spaces[horse])
        return ranks
    return {horse: 1 + sum(1 for other in HORSES if spaces[other] > spaces[horse]) for horse in HORSES}


def horses_ahead(table: Table, horse: str, round_number: int, track_length: int = 15) -> int:
    """How many horses are on a strictly greater space at the end of a round (Round 5's Utility)."""
    spaces = spaces_after(table, round_number, track_length)
    return sum(1 for other in HORSES if spaces[other] > spaces[horse])


def horses_on(table: Table, space: int, round_number: int, track_length: int = 15) -> list[str]:
    """The horses on a track space at the end of a round (Round 0 counts as the start: all on space 1)."""
    return [h for h in HORSES if space_after(table, h, round_number, track_length) == space]
