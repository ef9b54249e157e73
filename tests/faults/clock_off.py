"""Run a Python module on a wall clock that is off: `python -m tests.faults.clock_off SECONDS -m MODULE ...`.

The fault suite's machine whose clock is wrong (a worker 30 s ahead): time-machine moves the process's wall
clock (time.time, datetime.now, and all that reads them: Django, Celery, beat) by SECONDS and lets it tick,
and leaves the monotonic clock alone, so sleeps and timeouts run true. Debian's libfaketime does the same
from outside, but under it Python 3.13's time.sleep fails (EINVAL from clock_nanosleep) unless the monotonic
clock is faked too, and then every lock's timeout waits the offset longer: Celery's beat died of the one,
its worker hung on the other.
"""

from __future__ import annotations

import runpy
import sys
from datetime import UTC, datetime, timedelta

import time_machine


def main() -> None:
    seconds, flag, module, *args = sys.argv[1:]
    if flag != "-m":
        raise SystemExit("usage: python -m tests.faults.clock_off SECONDS -m MODULE [ARGS...]")
    time_machine.travel(datetime.now(UTC) + timedelta(seconds=float(seconds)), tick=True).start()
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
