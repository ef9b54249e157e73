"""The embedded broker (`make run` with no Redis): kombu's file-system transport, made safe for a full disk.

kombu's own transport opens a message's file in the queue and then writes it. When the write fails (a full
disk), an empty or cut `.msg` file stays in the queue; every worker that reads it dies decoding it, and
dies again at each restart until someone deletes it by hand (issue 28). Here:

- every file the broker writes (a message, an exchange's table of bindings) is written under a name no
  reader takes (`.<name>.part`, beside it so on the same disk), flushed to the disk, then renamed over its
  name: a reader sees the whole file or the one before, never a part. A write that fails raises kombu's
  `ChannelError` and leaves nothing behind: the publish is refused, and the work a commit queued is kept in
  the database to be sent again (games/platform/enqueue.py);
- a reader claims a message by renaming it into the `processed` folder (same disk: a rename, where kombu
  copies it to /tmp, a copy that can itself fail half way), and a file that is not a whole message is moved
  to the `corrupt` folder with a warning naming it. It never reaches the worker, which goes on with the next
  message. A table of bindings that does not decode refuses publishing (rather than routing the message
  nowhere) until the next worker start writes it afresh.

Registered as the `genius-files://` transport (genius/celery.py, kombu's TRANSPORT_ALIASES).

Why files rather than the database as the embedded broker (kombu's SQLAlchemy transport on the SQLite
file): a full disk refuses a message either way, so the database buys nothing there, and it costs a new
dependency (SQLAlchemy) and, worse, SQLite's one write lock: kombu's transport takes `BEGIN IMMEDIATE` at
every poll of every queue, found or not, so idle workers polling each second contend with every player's
save for SQLite's single writer; it also keeps every delivered message as a row for ever. A directory
listing costs the database nothing. The README's Reliability section gives the measurements.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.transport.filesystem import LOCK_EX, exchange_queue_t, lock, unlock
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

log = logging.getLogger(__name__)


def write_whole(path: str, data: bytes) -> None:
    """`data` at `path` by one rename, or OSError and nothing written (the part beside it is removed)."""
    part = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.part")
    try:
        with open(part, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # on the disk before it is visible: no empty file after a power cut
        os.rename(part, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Write the message whole, then make it visible; or raise, leaving no file."""
        # kombu's name, so its readers (and `_size`, `_purge`) find it: time first, for the order, in digits
        # of one width (kombu's sort 999 after 1000).
        name = f"{int(monotonic() * 1000):015d}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_whole(os.path.join(self.data_folder_out, name), str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(
                f"The broker could not write a message to {self.data_folder_out}: {exc}"
            ) from exc

    def _get(self, queue):
        """The oldest whole message of `queue`; a file that is not one is set aside on the way."""
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(self.processed_folder, name)
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except FileNotFoundError:
                continue  # another worker took it first
            except OSError as exc:
                if exc.errno == errno.EXDEV:
                    folders = f"{self.data_folder_in}, {self.processed_folder}"
                    raise ChannelError(f"The broker's folders must be on one disk: {folders}") from exc
                log.warning("The broker could not take %s (%s): left in the queue", name, exc)
                continue
            try:
                with open(claimed, "rb") as f:
                    payload = loads(bytes_to_str(f.read()))
                self.Message(payload, channel=self)  # what the worker will make of it, checked here
            except Exception as exc:
                self._set_aside(claimed, exc)
                continue
            if not self.store_processed:
                with contextlib.suppress(OSError):
                    os.unlink(claimed)
            return payload
        raise Empty()

    def _set_aside(self, claimed: str, error: Exception) -> None:
        aside = os.path.join(self.corrupt_folder, os.path.basename(claimed))
        try:
            os.makedirs(self.corrupt_folder, exist_ok=True)
            os.rename(claimed, aside)
        except OSError as exc:
            log.warning("A broken message file %s could not be moved aside (%s): deleted", claimed, exc)
            with contextlib.suppress(OSError):
                os.unlink(claimed)
            return
        log.warning("A broken message file was moved to %s (%s: %s)", aside, type(error).__name__, error)

    def get_table(self, exchange):
        file = self._exchange_file(exchange)
        try:
            raw = file.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc
        try:
            return [exchange_queue_t(*binding) for binding in loads(bytes_to_str(raw))]
        except Exception as exc:
            raise ChannelError(
                f"The broker's table {file} is broken ({exc}): a worker's start writes it again"
            ) from exc

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        binding = exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._edit_table(exchange, lambda table: None if binding in table else [binding, *table])

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        virtual.Channel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        binding = exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._edit_table(
            exchange, lambda table: [b for b in table if b != binding] if binding in table else None
        )

    def _edit_table(self, exchange, change) -> None:
        """Change an exchange's table of bindings under a lock of its own, written whole. `change` returns the
        new table, or None to leave it. A table that does not decode is started afresh, with a warning."""
        file = self._exchange_file(exchange)
        try:
            self.control_folder.mkdir(exist_ok=True)
            with open(f"{file}.lock", "ab") as guard:
                lock(guard, LOCK_EX)
                try:
                    try:
                        table = self.get_table(exchange)
                    except ChannelError as exc:
                        log.warning("%s: starting it afresh", exc)
                        table = []
                    changed = change(table)
                    if changed is not None:
                        write_whole(str(file), str_to_bytes(dumps(changed)))
                finally:
                    unlock(guard)
        except OSError as exc:
            raise ChannelError(f"The broker could not write {file}: {exc}") from exc

    @cached_property
    def processed_folder(self):
        return self.transport_options.get("processed_folder") or str(
            Path(self.data_folder_in).parent / "processed"
        )

    @cached_property
    def corrupt_folder(self):
        return self.transport_options.get("corrupt_folder") or str(
            Path(self.data_folder_in).parent / "corrupt"
        )


class Transport(filesystem.Transport):
    Channel = Channel
