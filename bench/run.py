"""The load benchmark: the site under gunicorn on Postgres; closed-loop, open-loop capacity, a live move.

`make bench` (or `python bench/run.py`) creates a database `genius_bench` next to DATABASE_URL's, migrates
it, seeds a season with games in progress (bench/seed.py), starts gunicorn on 127.0.0.1 with Django's
connection pool, and drives it from this machine in three parts (`--parts`):

- closed: five cases with threads over http.client, N clients back to back: the bare view (/healthz/, the
  ceiling), the feed poll with nothing new (204), a player's game page, saving a round's form through the
  API, and a spectator's game page; requests/s, p50 and p99, and the ratio to the ceiling at the same
  concurrency.
- openloop (bench/openloop.py): the ceiling, the feed poll, a player's page and the save at Poisson arrival
  rates stepped up until p99 exceeds 100 ms or an error appears; each case's capacity and its ratio to the
  ceiling's capacity in the same run (what users feel: the queue behind a busy site).
- live (bench/live.py): the time from a Middle Marathon move's POST until the opponent's page, polling at
  the game's own interval, first shows it; p50 and p95.
- stream (bench/live.py, issue 32): uvicorn (genius.asgi, as docker-compose's `stream` service) beside
  gunicorn on the same database and Redis; N viewers of one live Middle Marathon (its players, logged-in
  spectators, visitors) hold event streams and fetch their live part on an event, then the same N poll it
  every second as before: a move's time to every screen (players and spectators apart), the site's CPU and
  the requests per idle viewer per minute, and the stream server's resident memory per open stream.

`--soak MINUTES` adds the memory soak (bench/soak.py): each web worker's growth per 10,000 requests.
`--source PATH` measures the site of another checkout (migrated, seeded and served from there) with this
checkout's driver, so two commits compare in the same run conditions. Before the load, bench/resolution.py
times one round's resolution (or one live move) of every game type at its size, and Tally at 10 and 30
players. `--smoke` runs a second or two per case and a few live moves.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import live  # noqa: E402 - this folder is on the path when run as a script
import openloop  # noqa: E402
import soak  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
# The issue's targets on a two-core machine: each case's open-loop capacity as a ratio to the ceiling's.
TARGETS = {"feed_poll_204": 0.60, "player_game_page": 0.25, "api_submission_save": 0.15}
OPEN_LOOP_CASES = ("ceiling_healthz", "feed_poll_204", "player_game_page", "api_submission_save")
LOAD_PROCESSES = 4  # the load driver's processes (each with a share of the clients as threads)
RESOLUTION_MS = 100.0  # one round's resolution (or one live move) of each game type, on Postgres


def bench_database_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def bench_redis_url(url: str, db: int) -> str:
    """A Redis database of the benchmark's own (the page cache and sessions), emptied before each run: ids and
    versions start again with the recreated database, and nothing cached by an earlier run may answer."""
    import redis

    own = urlunsplit(urlsplit(url)._replace(path=f"/{db}"))
    redis.Redis.from_url(own).flushdb()
    return own


def recreate_database(url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def commit_of(source: Path) -> str | None:
    done = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or None


def wait_up(port: int, seconds: float = 90) -> None:  # a loaded shared machine starts gunicorn slowly
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer on {HOST}:{port} within {seconds} s")


class Case:
    def __init__(self, name, method, path, expect, headers=None, body=None, per_client=None):
        self.name, self.method, self.path, self.expect = name, method, path, expect
        self.headers, self.body = headers or {}, body
        self.per_client = per_client  # client index -> extra headers (each client is a different player)


def drive(port: int, case: Case, clients: int, seconds: float, max_requests: int) -> dict:
    """`clients` clients send the case back to back for `seconds` (or until `max_requests` in all).

    The clients are spread over a few processes: one Python process reading responses of a few kilobytes
    from many threads is held by its own lock and would measure itself, not the site.
    """
    processes = min(clients, LOAD_PROCESSES)
    spread = [list(range(p, clients, processes)) for p in range(processes)]
    stop_at = time.monotonic() + seconds
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    began = time.monotonic()
    workers = [
        context.Process(
            target=_drive_part, args=(port, case, part, stop_at, max_requests // processes + 1, queue)
        )
        for part in spread
    ]
    for worker in workers:
        worker.start()
    latencies: list[list[float]] = []
    errors: list[str] = []
    for _ in workers:
        part_latencies, part_errors = queue.get()
        latencies.append(part_latencies)
        errors += part_errors
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - began
    flat = sorted(x for per in latencies for x in per)
    if not flat:
        return {"requests": 0, "errors": len(errors), "error_sample": errors[:3]}
    return {
        "requests": len(flat),
        "seconds": round(elapsed, 3),
        "rps": round(len(flat) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(flat), 2),
        "p99_ms": round(1000 * flat[min(len(flat) - 1, int(0.99 * len(flat)))], 2),
        "errors": len(errors),
        "error_sample": sorted(set(errors))[:3],
    }


def _drive_part(port, case, indexes, stop_at, max_requests, queue) -> None:
    """One load process: a thread per client index, each on its own connection, back to back."""
    latencies: list[float] = []
    errors: list[str] = []
    sent = [0]
    lock = threading.Lock()

    def client(index: int) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        headers = {**case.headers, **(case.per_client(index) if case.per_client else {})}
        body = json.dumps(case.body) if case.body is not None else None
        mine = []
        while time.monotonic() < stop_at:
            with lock:
                if sent[0] >= max_requests:
                    break
                sent[0] += 1
            start = time.perf_counter()
            try:
                conn.request(case.method, case.path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            mine.append(time.perf_counter() - start)
            if status != case.expect:
                errors.append(f"status {status}")
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in indexes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put((latencies, errors))


class LoadAverage:
    """The machine's one-minute load average, read every few seconds while a part runs: a shared machine's
    other work is part of the conditions a figure was measured in."""

    def __init__(self, every: float = 5.0):
        self.every, self.samples = every, {}
        self.part = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(self.every):
            if self.part is not None:
                self.samples.setdefault(self.part, []).append(os.getloadavg()[0])

    def during(self, part: str) -> None:
        self.part = part
        self.samples.setdefault(part, []).append(os.getloadavg()[0])

    def summary(self) -> dict:
        self.done.set()
        return {
            part: {"min": min(xs), "mean": round(statistics.mean(xs), 2), "max": max(xs)}
            for part, xs in self.samples.items()
        }


def cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by each part of the machine under load, read from /proc (Linux).

    The site (gunicorn's arbiter and workers), Postgres, Redis, the load driver (this process's finished
    children: the driving processes are joined before the reading after a case) and the machine as a whole,
    so each case can say where its two cores went.
    """
    tick = os.sysconf("SC_CLK_TCK")
    used = {"site": 0.0, "postgres": 0.0, "redis": 0.0}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                raw = f.read()
        except OSError:  # the process ended between the listing and the reading
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        ppid, seconds = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
        if int(entry.name) == server_pid or ppid == server_pid:
            used["site"] += seconds
        elif comm == "postgres":
            used["postgres"] += seconds
        elif comm.startswith("redis-server"):
            used["redis"] += seconds
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    used["driver"] = children.ru_utime + children.ru_stime
    with open("/proc/stat") as f:
        total = [int(x) for x in f.readline().split()[1:]]
    used["machine_busy"] = (sum(total) - total[3] - total[4]) / tick  # all but idle and iowait
    return used


def cpu_per_request(before: dict, after: dict, row: dict) -> dict:
    """Each part's CPU milliseconds per request during one case (and the machine's, idle time left out)."""
    if not row.get("requests"):
        return {}
    return {part: round(1000 * (after[part] - before[part]) / row["requests"], 3) for part in before}


def cases_for(world: dict) -> list[Case]:
    game, cookie = world["game_id"], world["cookie_name"]
    players = len(world["player_cookies"])

    def as_player(index: int) -> dict:
        return {"Cookie": f"{cookie}={world['player_cookies'][index % players]}"}

    def with_token(index: int) -> dict:
        return {"Authorization": f"Token {world['player_tokens'][index % players]}"}

    save = {"round": world["round"], "payload": {"number": 3, "secret_note": "bench"}, "final": False}
    return [
        Case("ceiling_healthz", "GET", "/healthz/", 200),
        Case("feed_poll_204", "GET", f"/games/{game}/live/?v={world['version']}", 204),
        Case("player_game_page", "GET", f"/games/{game}/", 200, per_client=as_player),
        Case(
            "api_submission_save",
            "POST",
            f"/api/games/{game}/submission/",
            201,
            headers={"Content-Type": "application/json"},
            body=save,
            per_client=with_token,
        ),
        Case("spectator_game_page", "GET", f"/games/{game}/", 200),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a second or two per case; only proves it runs")
    parser.add_argument(
        "--parts",
        default="closed,openloop,live,stream",
        help="closed, openloop, live, stream (default all; none: only what --soak adds)",
    )
    parser.add_argument("--concurrency", default=None, help="comma-separated client counts (1,8,32)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per case and concurrency")
    parser.add_argument("--step-seconds", type=float, default=None, help="seconds per open-loop rate step")
    parser.add_argument("--live-moves", type=int, default=None, help="timed live moves (default 200)")
    parser.add_argument("--viewers", default=None, help="stream: viewers of one match (100,1000,2000)")
    parser.add_argument("--pollers", default=None, help="stream: polling viewers (default as --viewers)")
    parser.add_argument("--stream-workers", default=None, help="stream: uvicorn workers to try (1,2)")
    parser.add_argument("--stream-moves", type=int, default=None, help="stream: timed moves per count (30)")
    parser.add_argument(
        "--stream-spectators",
        choices=("mixed", "visitors"),
        default="mixed",
        help="stream: spectators half logged in, half visitors (default), or visitors only",
    )
    parser.add_argument("--idle-seconds", type=float, default=None, help="stream: the idle window (50)")
    parser.add_argument("--soak", type=float, default=0, metavar="MINUTES", help="add the memory soak")
    parser.add_argument("--soak-rate", type=float, default=100, help="the soak's requests/s (default 100)")
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn workers (default: 2 per core + 1)"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (gthread when above 1)")
    parser.add_argument(
        "--resolution-repeats", type=int, default=None, help="timed resolutions per game type (default 20)"
    )
    parser.add_argument("--cases", default=None, help="comma-separated case names to run (default: all)")
    parser.add_argument("--source", default=None, help="the checkout whose site is measured (default: this)")
    parser.add_argument("--database", default="genius_bench", help="the database made for the run")
    parser.add_argument("--redis-db", type=int, default=14, help="the Redis database used (and emptied)")
    parser.add_argument("--keep-database", action="store_true", help="leave the run's database behind")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--stream-port", type=int, default=None, help="uvicorn's port (default --port + 1)")
    parser.add_argument("--output", default=None, help="JSON results (default bench-results/latest.json)")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    concurrency = [int(c) for c in (args.concurrency or ("1,4" if args.smoke else "1,8,32")).split(",")]
    seconds = args.seconds or (1.5 if args.smoke else 10.0)
    step_seconds = args.step_seconds or (0.5 if args.smoke else 6.0)
    live_moves = args.live_moves or (4 if args.smoke else 200)
    max_requests = 2000 if args.smoke else 200_000
    viewers = [int(n) for n in (args.viewers or ("4" if args.smoke else "100,1000,2000")).split(",")]
    pollers = [int(n) for n in args.pollers.split(",")] if args.pollers else viewers
    stream_workers = [int(n) for n in (args.stream_workers or ("1" if args.smoke else "1,2")).split(",")]
    stream_moves = args.stream_moves or (3 if args.smoke else 30)
    idle_seconds = args.idle_seconds or (1.0 if args.smoke else 50.0)
    stream_port = args.stream_port or args.port + 1
    # Thousands of open streams: each is a socket in the driver and in the server (both inherit this limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    output = Path(args.output or ROOT / "bench-results" / ("smoke.json" if args.smoke else "latest.json"))
    source = Path(args.source).resolve() if args.source else ROOT

    base_url = os.environ.get("DATABASE_URL", "")
    if not base_url.startswith(("postgres://", "postgresql://")):
        print("The benchmark runs on Postgres: set DATABASE_URL=postgres://user@host/db", file=sys.stderr)
        return 2
    url = bench_database_url(base_url, args.database)
    recreate_database(base_url, args.database)
    var_dir = Path(tempfile.mkdtemp(prefix="genius-bench-"))
    redis_url = bench_redis_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), args.redis_db)
    workers = args.workers or os.cpu_count() * 2 + 1
    env = {
        **os.environ,
        "GUNICORN_WORKERS": str(workers),
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "GENIUS_DB_POOL": "1",
        "GENIUS_GAME_MODULES": "tests.toy_game",
        "GENIUS_VAR_DIR": str(var_dir),
        "DJANGO_DEBUG": "0",
        "GENIUS_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(source),
        "GENIUS_BENCH_SOURCE": str(source),
        # The channels' prefix: pub/sub ignores database numbers, so runs side by side must not share it.
        "GENIUS_PUSH_PREFIX": os.environ.get("GENIUS_PUSH_PREFIX") or f"{args.database}:",
    }
    python = sys.executable
    results: dict = {}
    report: dict = {}
    server = None
    load = LoadAverage()
    try:
        subprocess.run(
            [python, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=source, env=env, check=True
        )
        seeded = subprocess.run(
            [python, str(ROOT / "bench" / "seed.py")],
            cwd=source,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        world = json.loads(seeded.stdout.strip().splitlines()[-1])
        # Each game type's resolution (or live move), timed in a process of its own before the load starts.
        repeats = args.resolution_repeats or (2 if args.smoke else 20)
        timed = subprocess.run(
            [python, "bench/resolution.py", "--repeats", str(repeats)],
            cwd=source,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        resolution = json.loads(timed.stdout.strip().splitlines()[-1])
        gunicorn = shutil.which("gunicorn", path=str(Path(python).parent)) or "gunicorn"
        server = subprocess.Popen(
            [gunicorn, "genius.wsgi:application", "--config", "gunicorn.conf.py", "-b", f"{HOST}:{args.port}"]
            + ["--threads", str(args.threads), "--log-level", "warning"],
            cwd=source,
            env=env,
        )
        wait_up(args.port)
        wanted = set(args.cases.split(",")) | {"ceiling_healthz"} if args.cases else None
        cases = [c for c in cases_for(world) if wanted is None or c.name in wanted]
        for case in cases:
            # Warm every worker (imports, templates, pool) before measuring.
            drive(args.port, case, max(concurrency), 0.5, 200)
        if "closed" in parts:
            load.during("closed")
            for case in cases:
                results[case.name] = {}
                for clients in concurrency:
                    before = cpu_seconds(server.pid)
                    row = drive(args.port, case, clients, seconds, max_requests)
                    row["cpu_ms_per_request"] = cpu_per_request(before, cpu_seconds(server.pid), row)
                    results[case.name][str(clients)] = row
        if "openloop" in parts:
            load.during("openloop")
            search = {"start": 20.0, "factor": 2.0, "refine": 0, "most": 40.0} if args.smoke else {}
            driven = [case for case in cases if case.name in OPEN_LOOP_CASES]
            report["capacity"] = openloop.capacities(args.port, driven, seconds=step_seconds, **search)
        if "live" in parts:
            load.during("live")
            report["live_move"] = live.measure(
                args.port, world, moves=live_moves, matches=2 if args.smoke else 4
            )
        if "stream" in parts:
            report["stream"] = streams_against_polls(
                python,
                source,
                env,
                args.port,
                stream_port,
                world,
                server.pid,
                load,
                viewers=viewers,
                pollers=pollers,
                workers=stream_workers,
                moves=stream_moves,
                idle_seconds=idle_seconds,
                logged_in=args.stream_spectators == "mixed",
            )
        if args.soak:
            load.during("soak")
            soaked = [c for c in cases_for(world) if c.name != "ceiling_healthz"]
            soaked.append(news_poll(world))
            report["soak"] = soak.soak(args.port, server.pid, soaked, minutes=args.soak, rate=args.soak_rate)
    finally:
        load.part = None
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(var_dir, ignore_errors=True)
        if not args.keep_database:
            drop_database(base_url, args.database)

    for by_clients in results.values():
        for clients, row in by_clients.items():
            ceiling = results["ceiling_healthz"][clients].get("rps") or 0
            row["ratio_to_ceiling"] = round(row.get("rps", 0) / ceiling, 3) if ceiling else None
    ceiling = report.get("capacity", {}).get("ceiling_healthz", {}).get("capacity_rps")
    for row in report.get("capacity", {}).values():
        row["ratio_to_ceiling"] = round(row["capacity_rps"] / ceiling, 3) if ceiling else None
    report = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "smoke": args.smoke,
        "source": {"path": str(source), "commit": commit_of(source)},
        "driver": {"commit": commit_of(ROOT)},  # the checkout whose bench/ drove the load
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.platform(),
            "load_average_at_end": os.getloadavg(),
            # The one-minute load average while each part ran (min, mean, max): 2 means both cores busy.
            "load_average_during": load.summary(),
        },
        "server": {
            "gunicorn_workers": workers,
            "threads_per_worker": args.threads,
            "db_pool": True,
            "debug": False,
            "cache": "redis (page cache, sessions)",
        },
        "seconds_per_case": seconds,
        "open_loop_step_seconds": step_seconds,
        "concurrency": concurrency,
        "games": world["games"],
        "not_started": world["not_started"],
        "results": results,
        **report,
        "resolution": resolution,
    }
    report["targets"] = targets(report)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=1) + "\n")
    if not args.smoke and args.output is None and args.source is None:
        docs = ROOT / "docs" / "benchmarks" / "latest.json"
        docs.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(output, docs)
    print_table(report)
    print(f"written to {output}")
    return 0


def streams_against_polls(
    python,
    source,
    env,
    port,
    stream_port,
    world,
    gunicorn_pid,
    load,
    *,
    viewers,
    pollers,
    workers,
    moves,
    idle_seconds,
    logged_in=True,
) -> dict:
    """The stream part: polling viewers on gunicorn alone, then pushed viewers with uvicorn beside it, once
    per uvicorn worker count (each started afresh, so each memory figure starts from a new server)."""
    safety = float(env.get("GENIUS_STREAM_SAFETY_POLL_SECONDS", "45"))
    # Every viewer comes from this one address and ten users: the per-user cap on open streams (8, 64 per
    # address for visitors) is not what is measured here.
    stream_env = {**env, "GENIUS_STREAMS_PER_USER": "1000000"}
    out: dict = {"idle_seconds": idle_seconds, "moves_per_count": moves, "safety_poll_seconds": safety}
    out["spectators"] = "half logged in, half visitors" if logged_in else "visitors only"
    before = live.cpu_of([gunicorn_pid])
    time.sleep(idle_seconds)
    out["site_idle_cpu_ms_per_minute_no_viewers"] = round(
        1000 * (live.cpu_of([gunicorn_pid]) - before) * 60 / idle_seconds, 2
    )
    load.during("stream: polling")
    out["poll"] = live.compare(
        port,
        world,
        mode="poll",
        counts=pollers,
        site=[gunicorn_pid],
        moves=moves,
        idle_seconds=idle_seconds,
        logged_in=logged_in,
    )
    out["push"] = {}
    for number, count in enumerate(workers):
        stream = subprocess.Popen(
            [python, "-m", "uvicorn", "genius.asgi:application", "--host", HOST, "--port", str(stream_port)]
            + ["--workers", str(count), "--no-access-log", "--log-level", "warning"]
            + ["--timeout-graceful-shutdown", "2"],
            cwd=source,
            env=stream_env,
        )
        try:
            wait_up(stream_port)
            # Warm the stream server (imports, the hub's Redis connection, the pool) before measuring it.
            live.compare(
                port,
                world,
                mode="push",
                counts=[2 * count],
                stream_port=stream_port,
                site=[gunicorn_pid, stream.pid],
                moves=1,
                idle_seconds=0.5,
                first_number=100 * (number + 1),
            )
            load.during(f"stream: push, {count} uvicorn workers")
            out["push"][str(count)] = live.compare(
                port,
                world,
                mode="push",
                counts=viewers,
                stream_port=stream_port,
                site=[gunicorn_pid, stream.pid],
                streams=[stream.pid],
                moves=moves,
                idle_seconds=idle_seconds,
                safety=safety,
                first_number=100 * (number + 1) + 10,
                logged_in=logged_in,
            )
        finally:
            stream.terminate()
            try:
                stream.wait(timeout=20)
            except subprocess.TimeoutExpired:
                stream.kill()
    load.during("stream: done")
    return out


def news_poll(world: dict) -> Case:
    """A feed poll from a page one version behind: the live partial comes back (the soak's mix only)."""
    game, cookie = world["game_id"], world["cookie_name"]
    players = len(world["player_cookies"])

    def as_player(index: int) -> dict:
        return {"Cookie": f"{cookie}={world['player_cookies'][index % players]}"}

    return Case(
        "feed_poll_news", "GET", f"/games/{game}/live/?v={world['version'] - 1}", 200, per_client=as_player
    )


def targets(report: dict) -> dict:
    out = {}
    capacity = report.get("capacity", {})
    for name, ratio in TARGETS.items():
        if name in capacity:
            got = capacity[name].get("ratio_to_ceiling") or 0
            out[f"{name}_capacity"] = {"want_ratio": ratio, "ratio": got, "met": got >= ratio}
    if report.get("live_move", {}).get("moves"):
        move = report["live_move"]
        out["live_move_p95"] = {
            "want_ms": move["target_p95_ms"],
            "p95_ms": move["seen_p95_ms"],
            "met": move["met"],
        }
    if report.get("stream"):
        out.update(stream_targets(report["stream"]))
    resolution = report["resolution"]
    slowest = max(resolution.values(), key=lambda row: row["median_ms"])
    out["resolution_under_100_ms"] = {
        "want_ms": RESOLUTION_MS,
        "slowest_median_ms": slowest["median_ms"],
        "met": all(row["median_ms"] < RESOLUTION_MS for row in resolution.values()),
    }
    errors = sum(row.get("errors", 0) for by in report["results"].values() for row in by.values())
    out["no_errors_closed_loop"] = {"errors": errors, "met": errors == 0}
    return out


STREAM_P95_MS = 200.0  # issue 32: a move on every screen within this, at 1,000 viewers
STREAM_VIEWERS = 1000
STREAM_RATIO = 5  # at least this many times the viewers polling holds at the same p95


def stream_targets(stream: dict) -> dict:
    out = {}
    for workers, rows in stream["push"].items():
        at = [r for r in rows if r["viewers"] == STREAM_VIEWERS]
        if at:
            row = at[0]
            p95 = row["all"].get("p95_ms")
            out[f"stream_p95_at_{STREAM_VIEWERS}_{workers}_workers"] = {
                "want_ms": STREAM_P95_MS,
                "p95_ms": p95,
                "lost": row["screens_lost"],
                "met": p95 is not None and p95 <= STREAM_P95_MS and not row["screens_lost"],
            }
        asked = [r["idle"]["requests_per_viewer_per_minute"] for r in rows]
        out[f"stream_idle_viewer_no_request_{workers}_workers"] = {
            "requests_per_viewer_per_minute": asked,
            "met": not any(asked),
        }
        # At the p95 polling is held to (its interval + 250 ms), the most viewers each served.
        interval = max((r["poll_interval_s"] for r in stream["poll"]), default=1.0)
        limit = 1000 * interval + 250
        pushed, polled = live.held(rows, limit), live.held(stream["poll"], limit)
        tested = max(r["viewers"] for r in rows)
        out[f"stream_viewers_vs_polling_{workers}_workers"] = {
            "at_p95_ms": limit,
            "push_held": pushed,
            "poll_held": polled,
            "ratio": round(pushed / polled, 2) if polled else None,
            # Both served every count tried: the ratio is only a floor of push's, not a measured one.
            "push_held_every_count_tried": pushed == tested,
            "met": bool(polled) and pushed >= STREAM_RATIO * polled,
        }
    return out


def print_stream(stream: dict) -> None:
    print(f"stream part: idle window {stream['idle_seconds']} s, {stream['moves_per_count']} moves per count")
    heads = "mode  workers viewers  players p50/p95/max ms  spectators p50/p95/max ms  lost  errors"
    print(heads + "  idle CPU ms/viewer/min  req/viewer/min  kB/stream")
    runs = [("poll", "-", stream["poll"])] + [("push", w, rows) for w, rows in stream["push"].items()]
    for mode, workers, rows in runs:
        for r in rows:
            pl, sp = (
                "/".join(str(r[who].get(k)) for k in ("p50_ms", "p95_ms", "max_ms"))
                for who in ("players", "spectators")
            )
            print(
                f"{mode:5} {workers:>7} {r['viewers']:>7}  {pl:>22}  {sp:>25}  {r['screens_lost']:>4}"
                f"  {r['errors']:>6}  {r['idle']['site_cpu_ms_per_viewer_per_minute']:>10}"
                f"  {r['idle']['requests_per_viewer_per_minute']:>10}  {r.get('rss_kb_per_stream', '-')}"
            )


def print_table(report: dict) -> None:
    print(f"site measured: {report['source']['path']} at {report['source']['commit']}")
    for part, seen in report["machine"]["load_average_during"].items():
        print(f"load average during {part}: {seen}")
    if report["results"]:
        print(
            f"{'case':22} {'clients':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6} {'errors':>6}"
        )
    for name, by_clients in report["results"].items():
        for clients, row in by_clients.items():
            ratio = row.get("ratio_to_ceiling") or 0
            print(
                f"{name:22} {clients:>7} {row.get('rps', 0):>9} {row.get('p50_ms', '-'):>8}"
                f" {row.get('p99_ms', '-'):>8} {ratio:>6} {row.get('errors', 0):>6}"
            )
    parts = ("site", "postgres", "redis", "driver", "machine_busy")
    heads = "".join(f" {h:>7}" for h in ("site", "pg", "redis", "driver", "all"))
    if report["results"]:
        print(f"{'CPU ms per request':22} {'clients':>7}{heads}")
    for name, by_clients in report["results"].items():
        for clients, row in by_clients.items():
            cpu = row.get("cpu_ms_per_request") or {}
            print(f"{name:22} {clients:>7}" + "".join(f" {cpu.get(p, '-'):>7}" for p in parts))
    if report.get("capacity"):
        print(f"{'open-loop capacity':22} {'req/s':>9} {'ratio':>6} {'p99 there':>9} {'failed at':>9} steps")
        for name, row in report["capacity"].items():
            there = [s for s in row["steps"] if s["held"] and s["rate"] == row["capacity_rps"]]
            p99 = there[-1]["p99_ms"] if there else "-"
            print(
                f"{name:22} {row['capacity_rps']:>9} {row['ratio_to_ceiling'] or 0:>6} {p99:>9}"
                f" {row['first_failed_rps'] or '-':>9} {len(row['steps'])}"
            )
    if report.get("live_move"):
        move = report["live_move"]
        print(
            f"live move seen by the opponent: {move['moves']} moves, p50 {move.get('seen_p50_ms')} ms,"
            f" p95 {move.get('seen_p95_ms')} ms (poll every {move['poll_interval_ms']} ms),"
            f" the POST itself p50 {move.get('post_p50_ms')} ms;"
            f" errors {move['errors']} {move['error_sample']}"
        )
    if report.get("stream"):
        print_stream(report["stream"])
    if report.get("soak"):
        soaked = report["soak"]
        print(f"soak: {soaked['requests']} requests in {soaked['minutes']} min, errors {soaked['errors']}")
        for pid, row in soaked["per_worker"].items():
            print(f"  worker {pid}: {row}")
    print(f"{'resolution of':22} {'players':>7} {'median ms':>9} {'max ms':>8} {'queries':>8}")
    for slug, row in report["resolution"].items():
        print(f"{slug:22} {row['players']:>7} {row['median_ms']:>9} {row['max_ms']:>8} {row['queries']:>8}")
    for name, verdict in report["targets"].items():
        print(f"target {name}: {'met' if verdict['met'] else 'NOT met'} {verdict}")
    if report["not_started"]:
        print(f"game types that did not start: {report['not_started']}")


if __name__ == "__main__":
    sys.exit(main())
