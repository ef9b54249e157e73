"""Capacity under open-loop arrivals: requests arrive at a fixed rate whatever the answers take.

A closed loop (N clients, each waiting for its answer before sending again) slows its own arrivals down when
the site slows, so it cannot show the queue that builds behind a busy site. Here arrivals are Poisson at a
chosen rate and each request is sent on its schedule; its latency counts from the moment it was due, so a
driver that falls behind is counted against the result, never hidden (its lag is reported too).

`capacities` steps each case's rate up (by `factor` each time) until a step's p99 exceeds the limit or an
error appears (in two tries: one may fail to a pause of a shared machine), then halves the gap between the
last rate that held and the first that did not, `refine` times; the cases take turns, a step each. A case's
capacity is the highest rate that held: p99 within the limit and no errors.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import statistics
import time

from wire import request_bytes, send

P99_LIMIT_MS = 100.0
DRIVER_PROCESSES = 2  # Poisson arrivals split over processes stay Poisson; one Python process tops out first
MOST_IN_FLIGHT = 400  # per process: past this the site is far beyond its capacity, and the step has failed


def requests_for(case, variants: int = 16) -> list[tuple[bytes, int]]:
    """(the request as sent, the status expected) for `variants` clients (each a different player where the
    case says)."""
    body = json.dumps(case.body).encode() if case.body is not None else None
    return [
        (
            request_bytes(
                case.method,
                case.path,
                {**case.headers, **(case.per_client(i) if case.per_client else {})},
                body,
            ),
            case.expect,
        )
        for i in range(variants)
    ]


def run_rate(port: int, case, rate: float, seconds: float, processes: int = DRIVER_PROCESSES) -> dict:
    """Drive `case` at `rate` requests/s for `seconds`: the step's latencies, errors and the driver's lag."""
    raws = requests_for(case)
    asyncio.run(_warm(port, raws))
    return run_requests(port, raws, rate, seconds, processes)


async def _warm(port: int, raws: list) -> None:
    """Each variant once, one after another, before the clock starts (not counted).

    The cases take turns, and a save step renews every saving player's stamps: without this, the next step
    of a player's page would count ten first renders (one per player) among its few dozen requests, and
    measure the save's aftermath instead of the page a player reloads.
    """
    for raw, _ in raws:
        try:
            await send(port, raw)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            pass  # the step itself counts what fails


def run_requests(
    port: int, raws: list, rate: float, seconds: float, processes: int = DRIVER_PROCESSES
) -> dict:
    """Send `raws` ((request, expected status) in turn) at `rate` requests/s, Poisson, for `seconds`."""
    processes = max(1, min(processes, int(rate) or 1))
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    start_at = time.monotonic() + 0.05 * processes  # every part starts its schedule at the same moment
    parts = [
        context.Process(target=_part, args=(port, raws, rate / processes, seconds, start_at, seed, queue))
        for seed in range(processes)
    ]
    for part in parts:
        part.start()
    latencies, errors, lags = [], [], []
    for _ in parts:
        got = queue.get()
        latencies += got["latencies"]
        errors += got["errors"]
        lags.append(got["lag_ms"])
    for part in parts:
        part.join()
    latencies.sort()
    row = {
        "rate": round(rate, 1),
        "requests": len(latencies) + len(errors),
        "errors": len(errors),
        "error_sample": sorted(set(errors))[:3],
        "driver_lag_p99_ms": max(lags),
    }
    if latencies:
        row["p50_ms"] = round(1000 * statistics.median(latencies), 2)
        row["p99_ms"] = round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 2)
    return row


def _part(port, raws, rate, seconds, start_at, seed, queue) -> None:
    queue.put(asyncio.run(_arrivals(port, raws, rate, seconds, start_at, seed)))


async def _arrivals(port, raws, rate, seconds, start_at, seed) -> dict:
    rng = random.Random(f"{seed}:{rate}")
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    errors: list[str] = []
    lags: list[float] = []
    in_flight: set[asyncio.Task] = set()

    async def one(due: float, raw: bytes, expect: int) -> None:
        try:
            status, _, _ = await send(port, raw)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            errors.append(f"{type(exc).__name__}: {exc}"[:120])
            return
        if status != expect:
            errors.append(f"status {status}")
        else:
            latencies.append(loop.time() - due)

    # The loop's clock is time.monotonic on Linux: the parts share `start_at`.
    due = start_at + rng.expovariate(rate)
    end = start_at + seconds
    index = seed
    while due < end:
        wait = due - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        lags.append(loop.time() - due)
        if len(in_flight) >= MOST_IN_FLIGHT:
            errors.append("driver: too many requests in flight (the site is far behind)")
        else:
            task = asyncio.ensure_future(one(due, *raws[index % len(raws)]))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        index += 1
        due += rng.expovariate(rate)
    if in_flight:
        await asyncio.wait(in_flight)
    lags.sort()
    lag = lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0
    return {"latencies": latencies, "errors": errors, "lag_ms": round(1000 * lag, 2)}


def held(row: dict, limit_ms: float = P99_LIMIT_MS) -> bool:
    return row["errors"] == 0 and row.get("p99_ms") is not None and row["p99_ms"] <= limit_ms


class Search:
    """One case's search for its capacity: up by `factor` until a rate fails, then `refine` halvings of the
    gap (on a log scale) between the last rate that held and the first that did not."""

    def __init__(self, start: float, factor: float, refine: int, most: float):
        self.rate, self.factor, self.refine, self.most = start, factor, refine, most
        self.good, self.bad = 0.0, None
        self.phase = "up"

    def next_rate(self) -> float | None:
        """The next rate to try, or None when the search is over."""
        if self.phase == "refine":
            return (self.good * self.bad) ** 0.5 if self.refine > 0 else None
        return self.rate if self.phase in ("up", "down") else None

    def record(self, rate: float, held_: bool) -> None:
        if self.phase == "up":
            if held_:
                self.good, self.rate = rate, rate * self.factor
                if self.rate > self.most:
                    self.phase = "done"  # never failed below `most`: the capacity is at least this
            elif self.good == 0.0:  # even the first rate failed: come down until one holds
                self.bad, self.rate, self.phase = rate, rate / 2, "down"
            else:
                self.bad, self.phase = rate, "refine"
        elif self.phase == "down":
            if held_:
                self.good, self.phase = rate, "refine"
            else:
                self.bad, self.rate = rate, rate / 2
                if self.rate < 1:
                    self.phase = "done"
        else:
            if held_:
                self.good = rate
            else:
                self.bad = rate
            self.refine -= 1

    def result(self) -> dict:
        return {
            "capacity_rps": round(self.good, 1),
            "first_failed_rps": round(self.bad, 1) if self.bad is not None else None,
            "capped": self.bad is None,
        }


def capacities(
    port: int,
    cases: list,
    *,
    seconds: float,
    start: float = 25.0,
    factor: float = 1.5,
    refine: int = 3,
    most: float = 20_000.0,
    limit_ms: float = P99_LIMIT_MS,
) -> dict:
    """Each case's highest arrival rate with p99 ≤ `limit_ms` and no error, and every step taken.

    The cases' searches take turns, one step each, so that a machine whose speed drifts (one shared with
    other work) moves every case's steps alike, and the ratios to the ceiling stay fair.
    """
    searches = {case.name: Search(start, factor, refine, most) for case in cases}
    steps: dict[str, list] = {case.name: [] for case in cases}

    def step(case, rate: float) -> bool:
        # A rate that fails is tried once more: on a machine shared with other work, a pause of the whole
        # machine can fail one step at any rate. Both tries are in `steps`.
        for _ in range(2):
            row = run_rate(port, case, rate, seconds)
            row["held"] = held(row, limit_ms)
            steps[case.name].append(row)
            time.sleep(0.5)  # the backlog of a failed step drains before the next one
            if row["held"]:
                return True
        return False

    while True:
        going = [(case, searches[case.name].next_rate()) for case in cases]
        going = [(case, rate) for case, rate in going if rate is not None]
        if not going:
            break
        for case, rate in going:
            searches[case.name].record(rate, step(case, rate))
    return {name: {**search.result(), "steps": steps[name]} for name, search in searches.items()}
