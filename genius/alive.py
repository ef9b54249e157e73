"""A Celery worker's sign of life on its own machine, for its container's health check (docker-compose).

The worker touches a file of its own every SECONDS from its consumer's timer (genius/celery.py): a worker
that died, or whose loop is stuck, stops touching it. `python genius/alive.py worker@HOST` answers 0 while
the file is younger than STALE_SECONDS, 1 otherwise, saying how old it is. It asks no broker and no
database and broadcasts nothing; run as a file it imports neither Django nor Celery (the package's
__init__ would): the check is a stat, so a probe every few seconds costs next to nothing.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

SECONDS = 10
STALE_SECONDS = 60


def path(node: str) -> str:
    return os.path.join(tempfile.gettempdir(), f"genius-alive-{node}")


def touch(node: str) -> None:
    with open(path(node), "a"):
        pass
    os.utime(path(node))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python genius/alive.py NODE (a worker's name, as -n gave it: worker@host)")
        return 2
    node = argv[1]
    try:
        age = time.time() - os.stat(path(node)).st_mtime
    except FileNotFoundError:
        print(f"{node}: no sign of life yet")
        return 1
    print(f"{node}: last sign of life {age:.0f} s ago")
    return 0 if age < STALE_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
