"""Times Cards on the Table's board generator over 20 seeds; not part of the site, its figures are in
docs/benchmarks/cards_table_generator.md. Run: python bench/cards_table_generator.py [--diagonal]
"""

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from games.cards_table.rules import generate_boards, validate_boards

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
