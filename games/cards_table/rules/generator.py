"""A random valid set of three boards from a seed: backtracking search, numbers first, then colours."""

from __future__ import annotations

import random
from itertools import product

from .boards import (
    COLOUR_BOARD_SUMS,
    LOCATION_SUMS,
    MAX_GROUP,
    MIN_COLOUR_COUNT,
    NUMBER_COUNTS,
    validate_boards,
)
from .cards import CELLS, COLOURS, NUMBERS, ROUNDS, SIZE, Boards, Card

# Every (round 1, round 2, round 3) triple of numbers whose location sum is allowed. Choosing the three
# rounds of a location together keeps the location sums true at every step; the counts 8/9/8 of each
# board then force as many 5s as 7s (each board sums to 50, so the 25 locations sum to 150 = 25 x 6).
TRIPLES = tuple(t for t in product(NUMBERS, repeat=ROUNDS) if sum(t) in LOCATION_SUMS)
# A search that wanders this long restarts from a fresh shuffle: dead ends found late are cheaper to leave.
NUMBER_NODES = 4000
COLOUR_NODES = 4000
COLOUR_TRIES = 20


class _Restart(Exception):
    """The search ran past its node budget: start again with new random choices."""


def _neighbours_before(i: int, diagonal: bool) -> tuple[int, ...]:
    """Cells adjacent to i that row-by-row order has already filled."""
    r, c = divmod(i, SIZE)
    found = []
    if r > 0:
        found.append(i - SIZE)
        if diagonal and c > 0:
            found.append(i - SIZE - 1)
        if diagonal and c < SIZE - 1:
            found.append(i - SIZE + 1)
    if c > 0:
        found.append(i - 1)
    return tuple(found)


def _group_too_big(values: list, i: int) -> bool:
    """Would the orthogonally connected group of values[i] grow past two cells?"""
    seen, todo = {i}, [i]
    while todo:
        j = todo.pop()
        r, c = divmod(j, SIZE)
        for k in (
            j - SIZE if r > 0 else -1,
            j + SIZE if r < SIZE - 1 else -1,
            j - 1 if c > 0 else -1,
            j + 1 if c < SIZE - 1 else -1,
        ):
            if k >= 0 and k not in seen and values[k] is not None and values[k] == values[i]:
                seen.add(k)
                if len(seen) > MAX_GROUP:
                    return True
                todo.append(k)
    return False


def _lines_can_finish(values: list, i: int) -> bool:
    """Can the row and the column through cell i still hold all three values in their empty cells?"""
    r, c = divmod(i, SIZE)
    row = [values[r * SIZE + k] for k in range(SIZE)]
    col = [values[k * SIZE + c] for k in range(SIZE)]
    for line in (row, col):
        missing = 3 - len({v for v in line if v is not None})
        if missing > line.count(None):
            return False
    return True


class _Search:
    def __init__(self, rng: random.Random, diagonal: bool, old: Boards | None = None, keep=frozenset()):
        self.rng = rng
        self.diagonal = diagonal
        self.nodes = 0
        # A redraw (redraw_boards): the cards at `keep` (board, cell) stay as in `old`, the others change.
        self.old = old
        self.keep = keep

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Restart

    # --- numbers: one location at a time, all three rounds at once -------------------------------------
    def numbers(self) -> list[list[int]]:
        self.nodes, self.limit = 0, NUMBER_NODES
        self.nums: list[list] = [[None] * CELLS for _ in range(ROUNDS)]
        self.counts = [dict.fromkeys(NUMBERS, 0) for _ in range(ROUNDS)]
        if not self._place_numbers(0):
            raise _Restart
        return self.nums

    def _place_numbers(self, i: int) -> bool:
        if i == CELLS:
            return True
        options = list(TRIPLES)
        self.rng.shuffle(options)
        if self.old is not None:
            was = tuple(self.old[b][i].number for b in range(ROUNDS))
            options = [
                t for t in options if all(t[b] == was[b] for b in range(ROUNDS) if (b, i) in self.keep)
            ]
            # Changed numbers first: a card keeps its old number only where the search finds no other way.
            options.sort(key=lambda t: sum(n == m for n, m in zip(t, was, strict=True)))
        for triple in options:
            self.tick()
            if self._numbers_fit(i, triple):
                if self._place_numbers(i + 1):
                    return True
            self._unset_numbers(i, triple)
        return False

    def _numbers_fit(self, i: int, triple: tuple[int, ...]) -> bool:
        ok = True
        for b, n in enumerate(triple):
            self.nums[b][i] = n
            self.counts[b][n] += 1
        for b, n in enumerate(triple):
            if self.counts[b][n] > NUMBER_COUNTS[n] or _group_too_big(self.nums[b], i):
                ok = False
            elif not _lines_can_finish(self.nums[b], i):
                ok = False
        return ok

    def _unset_numbers(self, i: int, triple: tuple[int, ...]) -> None:
        for b, n in enumerate(triple):
            if self.nums[b][i] is not None:
                self.counts[b][n] -= 1
                self.nums[b][i] = None

    # --- colours: cell by cell, round by round ------------------------------------------------------------
    def colours(self, nums: list[list[int]]) -> list[list]:
        self.nodes, self.limit = 0, COLOUR_NODES
        self.nums = nums
        # Each board's numbers sum to 50 = 16 + 17 + 17, and each colour must make 50 over the game, so
        # each colour is the 16 of exactly one round.
        low = list(COLOURS)
        self.rng.shuffle(low)
        self.target = [
            {c: COLOUR_BOARD_SUMS[0] if c == low[b] else COLOUR_BOARD_SUMS[1] for c in COLOURS}
            for b in range(ROUNDS)
        ]
        # rest[b][i]: the numbers of board b after cell i, smallest first.
        self.rest = [[sorted(nums[b][i + 1 :]) for i in range(CELLS)] for b in range(ROUNDS)]
        self.cols: list[list] = [[None] * CELLS for _ in range(ROUNDS)]
        self.ccount = [dict.fromkeys(COLOURS, 0) for _ in range(ROUNDS)]
        self.csum = [dict.fromkeys(COLOURS, 0) for _ in range(ROUNDS)]
        if not self._place_colour(0):
            raise _Restart
        return self.cols

    def _place_colour(self, step: int) -> bool:
        if step == CELLS * ROUNDS:
            return True
        i, b = divmod(step, ROUNDS)
        options = list(COLOURS)
        self.rng.shuffle(options)
        if self.old is not None:
            was = self.old[b][i].colour
            options = [was] if (b, i) in self.keep else sorted(options, key=lambda c: c == was)
        n = self.nums[b][i]
        for colour in options:
            self.tick()
            self.cols[b][i] = colour
            self.ccount[b][colour] += 1
            self.csum[b][colour] += n
            if self._colour_fits(b, i, colour) and self._place_colour(step + 1):
                return True
            self.cols[b][i] = None
            self.ccount[b][colour] -= 1
            self.csum[b][colour] -= n
        return False

    def _colour_fits(self, b: int, i: int, colour) -> bool:
        nums, cols = self.nums[b], self.cols[b]
        for j in _neighbours_before(i, self.diagonal):
            if cols[j] == colour and nums[j] == nums[i]:
                return False
        if b > 0 and self.cols[b - 1][i] == colour and self.nums[b - 1][i] == nums[i]:
            return False
        if _group_too_big(cols, i) or not _lines_can_finish(cols, i):
            return False
        left = CELLS - 1 - i
        count, total, target = self.ccount[b], self.csum[b], self.target[b]
        if sum(max(0, MIN_COLOUR_COUNT - count[c]) for c in COLOURS) > left:
            return False
        # The numbers still to be coloured are known: each colour must make up its sum from them, taking at
        # least the cards it still lacks and at most as many as keep the others at eight.
        rest = self.rest[b][i]
        for c in COLOURS:
            need = target[c] - total[c]
            fewest = max(0, MIN_COLOUR_COUNT - count[c])
            most = min(left, left - sum(max(0, MIN_COLOUR_COUNT - count[o]) for o in COLOURS if o != c))
            if need < sum(rest[:fewest]) or need > sum(rest[len(rest) - most :]) if most > 0 else need != 0:
                return False
        return True


def generate_boards(rng: random.Random, diagonal_adjacency: bool = False) -> Boards:
    """Three boards obeying every Rule of the Boards, drawn from rng alone (one seed, one set)."""
    search = _Search(rng, diagonal_adjacency)
    while True:
        boards = _draw(search)
        if boards is not None:
            return boards


def redraw_boards(
    rng: random.Random, old: Boards, keep: set[tuple[int, int]], diagonal_adjacency: bool = False, tries=100
) -> Boards | None:
    """Another valid set: the cards at `keep` (board index, cell index) as in `old`, the others of another
    number and colour wherever the search finds a way (most of them); None when `tries` searches find no set
    (too many cards kept). For the leak test: what a seat saw stays, the rest changes."""
    search = _Search(rng, diagonal_adjacency, old, frozenset(keep))
    for _ in range(tries):
        boards = _draw(search)
        if boards is not None:
            return boards
    return None


def _draw(search: _Search) -> Boards | None:
    """One search: numbers, then a few colourings of them; None when it ran past its budget (start again)."""
    try:
        nums = search.numbers()
    except _Restart:
        return None
    for _attempt in range(COLOUR_TRIES):
        try:
            cols = search.colours(nums)
        except _Restart:
            continue
        boards = tuple(tuple(Card(nums[b][i], cols[b][i]) for i in range(CELLS)) for b in range(ROUNDS))
        # The search checks every rule as it goes; the validator is the final word all the same.
        return None if validate_boards(boards, search.diagonal) else boards
    return None
