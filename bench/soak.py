"""The memory soak: a steady mix of requests for many minutes, and each web worker's memory as it goes.

The mix is what a season's pages send: feed polls (nothing new, and news), players' and spectators' game
pages, and saves (each renews a player's stamp, so their next page is rendered again). It runs at a steady
open-loop rate, well inside the site's capacity, in slices; after each slice every gunicorn worker's
resident memory is read from /proc. The growth is reported per worker per 10,000 requests (the requests
are shared about evenly between workers), over the whole run and over its second half alone: a worker that
has only warmed up grows in the first half and is flat in the second.
"""

from __future__ import annotations

import time

from openloop import requests_for, run_requests
from wire import processes

SLICE_SECONDS = 20.0


def workers(server_pid: int) -> list[int]:
    """The gunicorn arbiter's children: its workers."""
    return [pid for pid in processes([server_pid]) if pid != server_pid]


def resident_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def slope_per_10k(points: list[tuple[float, float]]) -> float | None:
    """Least-squares MB per 10,000 requests through (requests, MB) points."""
    if len(points) < 3:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if not spread:
        return None
    return round(10_000 * sum((x - mean_x) * (y - mean_y) for x, y in points) / spread, 3)


def soak(port: int, server_pid: int, cases: list, *, minutes: float, rate: float) -> dict:
    mix = [request for case in cases for request in requests_for(case, variants=8)]
    # Interleave the cases, so that every slice sends all of them.
    mix = [mix[i] for j in range(8) for i in range(j, len(mix), 8)]
    pids = workers(server_pid)
    samples = {pid: [(0.0, resident_mb(pid))] for pid in pids}
    sent, errors, slices = 0, 0, []
    end = time.monotonic() + 60 * minutes
    while time.monotonic() < end:
        row = run_requests(port, mix, rate, SLICE_SECONDS)
        sent += row["requests"]
        errors += row["errors"]
        # The error sample says whether an error was the site's (a status) or the machine's (a timeout, the
        # driver far behind on a machine shared with other work).
        slices.append({k: row.get(k) for k in ("requests", "errors", "p50_ms", "p99_ms", "error_sample")})
        for pid in pids:
            mb = resident_mb(pid)
            if mb is not None:
                samples[pid].append((sent / len(pids), mb))
    restarted = sorted(set(workers(server_pid)) ^ set(pids))
    per_worker = {}
    for pid, points in samples.items():
        later = [p for p in points if p[0] >= points[-1][0] / 2]
        per_worker[str(pid)] = {
            "start_mb": round(points[0][1], 1),
            "after_first_slice_mb": round(points[1][1], 1) if len(points) > 1 else None,
            "end_mb": round(points[-1][1], 1),
            "mb_per_10k_requests": slope_per_10k(points[1:]),
            "second_half_mb_per_10k_requests": slope_per_10k(later),
        }
    return {
        "minutes": minutes,
        "rate": rate,
        "requests": sent,
        "requests_per_worker": round(sent / len(pids)),
        "errors": errors,
        "workers_restarted": restarted,
        "per_worker": per_worker,
        "slices": slices,
    }
