"""A live stack of the fault suite's own: a redis-server on a port of its own, gunicorn and a Celery worker
(with beat) against the tests' database, each started and stopped here, never the machine's shared ones.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, what: str, seconds: float = 30, why=None) -> None:
    """Wait for `check()` to be true; `why()`, if given, says what the stack was doing when it was not (a
    failure in CI is then read from its own message, since the stack's logs go with the runner)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s" + (f"\n{why()}" if why else ""))


@dataclass
class OwnRedis:
    """A redis-server of the suite's own, which it may stop, start, hang and wake."""

    workdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_until(self.answers, f"redis-server on port {self.port} answering")

    def answers(self) -> bool:
        import redis

        return redis.Redis(port=self.port, socket_connect_timeout=0.2, socket_timeout=0.2).ping()

    def stop(self) -> None:
        """Gone, with its keys (a restart of a Redis without persistence)."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def hang(self) -> None:
        """Still there, keys kept, answering nothing (a stopped process, a cut network)."""
        self.proc.send_signal(signal.SIGSTOP)

    def wake(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def keys(self, pattern: str) -> list[bytes]:
        import redis

        return redis.Redis(port=self.port).keys(pattern)


@dataclass
class Stack:
    """gunicorn and a Celery worker with beat, on the tests' database and the suite's Redis.

    The web runs tests/faults/wsgi.py (the site, and a crash it can inject on demand); `env` adds to or
    overrides both processes' environment, `web_env` and `worker_env` each one's (a setting); the worker's
    pool is `pool` with `concurrency` processes; `worker_clock_off` runs the worker on a wall clock that many
    seconds off (tests/faults/clock_off.py); without `with_worker`, gunicorn alone.
    """

    redis: OwnRedis
    database_url: str
    logdir: Path
    port: int = field(default_factory=free_port)
    procs: list = field(default_factory=list)
    extra_env: dict = field(default_factory=dict)
    pool: str = "solo"
    concurrency: int = 1
    web_env: dict = field(default_factory=dict)
    worker_env: dict = field(default_factory=dict)
    worker_clock_off: float = 0
    with_worker: bool = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.faults.settings",
            "DJANGO_DEBUG": "0",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis.url,
            "CELERY_BROKER_URL": self.redis.url,
            "GENIUS_PAGE_CACHE": "1",
            "GENIUS_SWEEP_SECONDS": "1",
            "GENIUS_RESEND_SECONDS": "1",
            "GENIUS_WORKER_HEARTBEAT_SECONDS": "1",
            "TMPDIR": str(self.logdir),  # the worker's sign of life (genius/alive.py) is this stack's own
            "GENIUS_GAME_MODULES": "tests.toy_game",
            "GENIUS_VAR_DIR": str(self.logdir),
            "GUNICORN_WORKERS": "2",
            "PYTHONUNBUFFERED": "1",
            "GENIUS_FAULT_CRASH_FILE": str(self.crash_file),
            **self.extra_env,
        }

    @property
    def crash_file(self) -> Path:
        """While this file exists, a web process dies the moment a commit's owed tasks would be published."""
        return self.logdir / "crash-after-commit"

    @property
    def worker(self) -> subprocess.Popen:
        return self.procs[1]

    def worker_processes(self) -> list[int]:
        """The worker and every process under it (its pool's and its beat's)."""
        found, todo = [], [self.worker.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as children:
                    todo.extend(int(child) for child in children.read().split())
            except FileNotFoundError:
                pass
        return found

    def pause_worker(self) -> None:
        """The worker and its beat frozen (SIGSTOP): what is published waits in the broker."""
        for pid in self.worker_processes():
            os.kill(pid, signal.SIGSTOP)

    def resume_worker(self) -> None:
        for pid in self.worker_processes():
            os.kill(pid, signal.SIGCONT)

    def start(self) -> None:
        web_log = open(self.logdir / "web.log", "w")  # noqa: SIM115 - closed with the process
        worker_log = open(self.logdir / "worker.log", "w")  # noqa: SIM115
        self.procs = [
            subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "tests.faults.wsgi", "-b", f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env={**self.env(), **self.web_env},
                stdout=web_log,
                stderr=subprocess.STDOUT,
            ),
        ]
        if self.with_worker:
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        *(
                            ["-m", "tests.faults.clock_off", str(self.worker_clock_off)]
                            if self.worker_clock_off
                            else []
                        ),
                        "-m",
                        "celery",
                        "-A",
                        "genius",
                        "worker",
                        "-B",
                        "-Q",
                        "celery,deadlines",
                        "--pool",
                        self.pool,
                        "--concurrency",
                        str(self.concurrency),
                        "--loglevel",
                        "INFO",
                        "-s",
                        str(self.logdir / "beat-schedule"),
                    ],
                    cwd=ROOT,
                    env={**self.env(), **self.worker_env},
                    stdout=worker_log,
                    stderr=subprocess.STDOUT,
                ),
            )
        wait_until(lambda: requests.get(f"{self.url}/livez/", timeout=2).ok, "gunicorn answering")

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def stop_worker(self) -> None:
        """The worker (with beat) gone: nothing sweeps, nothing takes a task; the web goes on."""
        worker = self.procs[1]
        worker.terminate()
        worker.wait(15)

    def log(self, name: str) -> str:
        return (self.logdir / f"{name}.log").read_text()


@dataclass
class Web:
    """One gunicorn of its own (a port and a log of its own) on the stack's database and Redis, as a second
    machine behind the same load balancer would run it: started, stopped and restarted alone."""

    stack: Stack
    name: str
    workers: int = 1
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.stack.logdir / f"{self.name}.log", "a")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "genius.wsgi", "-b", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env={**self.stack.env(), "GUNICORN_WORKERS": str(self.workers)},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_until(lambda: requests.get(f"{self.url}/livez/", timeout=2).ok, f"{self.name} answering")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        """A deploy or a crash: every worker process of it starts afresh, having read nothing."""
        self.stop()
        self.start()


@dataclass
class OwnPostgres:
    """A PostgreSQL cluster of the suite's own, which it may restart: initdb into a directory of its own, on
    a port of its own, with the server of /usr/lib/postgresql/*/bin/ (as the `postgres` user when the tests
    run as root, which initdb refuses). Never the machine's shared one."""

    workdir: Path
    port: int = field(default_factory=free_port)

    @staticmethod
    def available() -> bool:
        return bool(_postgres_bin("initdb"))

    @property
    def data(self) -> Path:
        return self.workdir / "data"

    def url(self, name: str = "genius") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _as_postgres(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        command = [*args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, **kwargs)
        if done.returncode:
            raise AssertionError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
        return done

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres", "postgres")
        initdb = _postgres_bin("initdb")
        self._as_postgres(initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self._ctl("start")

    def _ctl(self, what: str) -> None:
        options = (
            f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off"
        )
        self._as_postgres(
            _postgres_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.workdir / "log"),
            "-m",
            "fast",
            "-w",
            "-t",
            "60",
            what,
        )

    def restart(self) -> None:
        """Stopped (fast: every connection cut) and started again, as an upgrade or a crash recovery does."""
        self._ctl("restart")

    def stop(self) -> None:
        self._ctl("stop")

    def answers(self) -> bool:
        import psycopg

        with psycopg.connect(self.url(), connect_timeout=1) as conn:
            return conn.execute("SELECT 1").fetchone() == (1,)

    def copy_database(self, source_url: str, name: str = "genius") -> None:
        """A database here with the schema and rows of `source_url`'s (the tests' database, as it is now)."""
        self._as_postgres(_postgres_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), name)
        dump = subprocess.run(
            [_postgres_bin("pg_dump"), "--no-owner", "--no-privileges", source_url],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(
            [_postgres_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", self.url(name)],
            input=dump,
            check=True,
            capture_output=True,
        )


def _postgres_bin(name: str) -> str:
    """The newest PostgreSQL server's `name` program, or "" when no server is installed."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    return str(found[-1]) if found else ""


def on_the_tests_database(redis: OwnRedis, logdir: Path, **options) -> Stack:
    """A stack (not started) on the fault suite's own Redis and the tests' database; the test skips, saying
    why, when that database is not PostgreSQL (the stack's processes must share it)."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("The live stack is other processes: it needs the tests' PostgreSQL database.")
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return Stack(redis=redis, database_url=url, logdir=logdir, **options)
