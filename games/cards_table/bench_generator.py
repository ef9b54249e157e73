"""Times the board generator over 20 seeds: python -m games.cards_table.bench_generator [--diagonal]."""

import random
import statistics
import sys
import time

from games.cards_table.rules import generate_boards, validate_boards


def main() -> None:
    diagonal = "--diagonal" in sys.argv
    times = []
    for seed in range(20):
        start = time.perf_counter()
        boards = generate_boards(random.Random(seed), diagonal_adjacency=diagonal)
        times.append(time.perf_counter() - start)
        assert not validate_boards(boards, diagonal_adjacency=diagonal)
    print(f"seeds 0-19, diagonal adjacency {diagonal}")
    print(f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s, best {min(times):.2f} s")


if __name__ == "__main__":
    main()
