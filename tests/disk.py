"""A disk the tests can fill to the last byte and free again, for the full disk under `make run`.

A tmpfs of a few megabytes, mounted for the test, when the tests may mount one (root, as CI runs): the real
thing, every process that writes there gets ENOSPC. Where they may not, a file-size limit on the processes
that should meet the full disk (RLIMIT_FSIZE set through prlimit, inherited by what they start): Python
ignores SIGXFSZ, so a write that would grow a file fails with EFBIG, as it would with ENOSPC on a full disk.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import subprocess
import threading
from pathlib import Path


class SmallDisk:
    """A tmpfs of its own at `path`: `fill` takes every byte left and keeps taking what the processes give
    back (a journal deleted, a file removed), as other writers keep a real full disk full; `free` stops and
    gives every byte back."""

    kind = "tmpfs"

    def __init__(self, path: Path):
        self.path = path
        self.ballast = path / "ballast"
        self.filling: threading.Event | None = None

    @classmethod
    def mount(cls, path: Path, size: str = "64m") -> SmallDisk | None:
        path.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
        )
        return cls(path) if done.returncode == 0 else None

    def fill(self, pids=()) -> None:
        self._top_up()
        self.filling = threading.Event()
        self.keeping = threading.Thread(target=self._keep_full, args=(self.filling,), daemon=True)
        self.keeping.start()

    def _keep_full(self, filling: threading.Event) -> None:
        while not filling.wait(0.05):
            self._top_up()

    def _top_up(self) -> None:
        chunk = b"\0" * (1 << 20)
        with open(self.ballast, "ab", buffering=0) as f:
            for size in (1 << 20, 4096, 1):
                try:
                    while True:
                        f.write(chunk[:size])
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise

    def free(self, pids=()) -> None:
        if self.filling is not None:
            self.filling.set()
            self.keeping.join()
            self.filling = None
        self.ballast.unlink(missing_ok=True)

    def full(self) -> bool:
        return os.statvfs(self.path).f_bavail == 0

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


class FileSizeLimit:
    """Where no tmpfs may be mounted: the processes `fill` is given may grow no file until `free`."""

    kind = "file-size limit"

    def __init__(self, path: Path):
        self.path = path
        self.path.mkdir(parents=True, exist_ok=True)

    def fill(self, pids=()) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, hard))

    def free(self, pids=()) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))

    def unmount(self) -> None:
        pass


@contextlib.contextmanager
def small_disk(path: Path, allow_limit: bool = True):
    """A SmallDisk if one can be mounted (GENIUS_FULL_DISK=limit forces the fallback), else a
    FileSizeLimit, or None when `allow_limit` is off (a test of this process itself)."""
    disk = None if os.environ.get("GENIUS_FULL_DISK") == "limit" else SmallDisk.mount(path)
    if disk is None and allow_limit:
        disk = FileSizeLimit(path)
    try:
        yield disk
    finally:
        if disk is not None:
            disk.unmount()
