"""Notifications survive a database error and a killed worker, and none is sent twice (18.10, 28.1)."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import pytest
from django.core import mail
from django.db import OperationalError

from games.platform import outbox
from games.platform.models import Delivery, OutboxTask
from games.platform.reach import dispatch
from games.platform.services.rounds import round_resolve
from games.platform.tasks import notify_round_resolved
from tests import workers

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def subjects():
    return sorted((m.to[0], m.subject) for m in mail.outbox)


def test_a_notification_task_run_twice_sends_each_email_once(tally):
    rnd = tally.rounds.get(number=0)
    round_resolve(round_id=rnd.pk, early=True)  # its emails wait for a commit the test never makes
    notify_round_resolved.apply(args=[rnd.pk])
    notify_round_resolved.apply(args=[rnd.pk])  # delivered again, as after a killed worker
    assert len(mail.outbox) == 4
    assert {k.split(":")[0] for k in Delivery.objects.values_list("key", flat=True)} == {
        "results",
        "round_opened",
    }


def test_a_notification_that_meets_a_database_error_is_tried_again_and_sends_each_email_once(
    tally, monkeypatch, settings
):
    settings.GENIUS_NOTIFY_RETRY_SECONDS = 0  # the retry is due at once
    rnd = tally.rounds.get(number=0)
    round_resolve(round_id=rnd.pk, early=True)  # its owed task is a row; its commit never comes in this test
    (owed,) = OutboxTask.objects.filter(name="notify_round_resolved")
    real, calls = dispatch.users, []

    def down_once(user_ids):
        calls.append(user_ids)
        if len(calls) == 2:  # the first emails went out; then the database goes away
            raise OperationalError("the database is away")
        return real(user_ids)

    monkeypatch.setattr(dispatch, "users", down_once)
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    owed.refresh_from_db()
    assert owed.attempts == 1 and "the database is away" in owed.last_error  # kept, due again
    assert outbox.relay() == 1  # the retry, published by the relay, not held by a worker as a countdown
    assert not OutboxTask.objects.exists()
    assert subjects() == sorted(
        [
            ("alice@example.com", "Tally: Round 0 is resolved"),
            ("bob@example.com", "Tally: Round 0 is resolved"),
            ("alice@example.com", "Tally: Round 1 is open"),
            ("bob@example.com", "Tally: Round 1 is open"),
        ]
    )


class SlowMailServer:
    """Just enough SMTP to take emails; the first connection is never greeted (the worker hangs there)."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.received: list[str] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                peer, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            if self.connections > 1:
                threading.Thread(target=self._talk, args=(peer,), daemon=True).start()

    def _talk(self, peer):
        reader = peer.makefile("rb")
        peer.sendall(b"220 test\r\n")
        data = None
        for raw in reader:
            line = raw.decode(errors="replace").rstrip("\r\n")
            if data is not None:
                if line == ".":
                    self.received.append("\n".join(data))
                    data = None
                    peer.sendall(b"250 ok\r\n")
                else:
                    data.append(line)
            elif line.upper().startswith("DATA"):
                data = []
                peer.sendall(b"354 go on\r\n")
            elif line.upper().startswith("QUIT"):
                peer.sendall(b"221 bye\r\n")
                break
            else:
                peer.sendall(b"250 ok\r\n")
        peer.close()

    def close(self):
        self.server.close()


def children_of(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as found:
        return [int(child) for child in found.read().split()]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_process_killed_while_sending_loses_no_email_and_sends_none_twice(
    tally, tmp_path, monkeypatch
):
    """The process sending alice's first email dies mid-send, its claim held: the task, given back at once,
    sends the rest and comes back (through beat's relay) for alice's when the dead claim runs out, with the
    same Message-ID."""
    workers.needs_broker()
    rnd = tally.rounds.get(number=0)
    # The owed task is published to the worker below, not run by this test's process.
    monkeypatch.setattr(outbox, "_publish_owed", lambda *args: None)
    round_resolve(round_id=rnd.pk, early=True)
    (owed,) = OutboxTask.objects.filter(name="notify_round_resolved")
    mail_server = SlowMailServer()
    environ = workers.env(
        tmp_path,
        DJANGO_EMAIL_HOST="127.0.0.1",
        DJANGO_EMAIL_PORT=str(mail_server.port),
        GENIUS_DELIVERY_LEASE_SECONDS="2",
        GENIUS_RESEND_SECONDS="0.5",
        GENIUS_REMINDER_HOURS="0",  # the sweep sends no reminder: only the round's emails are counted
    )
    worker = workers.celery(
        "worker", "-Q", "celery,deadlines", "--pool", "prefork", "-c", "1", "-l", "WARNING", environ=environ
    )
    beat = workers.celery("beat", "-s", str(tmp_path / "beat"), "-l", "WARNING", environ=environ)
    with workers.running(worker, beat):
        workers.send("games.platform.tasks.notify_round_resolved", rnd.pk, task_id=f"outbox-{owed.pk}")
        deadline = time.monotonic() + 60
        while mail_server.connections < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert mail_server.connections == 1, "the worker never reached the mail server"
        for child in children_of(worker.pid):  # the pool's process sending, hung on the mail server
            os.kill(child, signal.SIGKILL)
        while (len(mail_server.received) < 4 or OutboxTask.objects.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # nothing more comes
    mail_server.close()
    lines = [line for body in mail_server.received for line in body.splitlines()]
    to = sorted(line.removeprefix("To: ") for line in lines if line.startswith("To: "))
    assert to == ["alice@example.com", "alice@example.com", "bob@example.com", "bob@example.com"]
    assert Delivery.objects.filter(sent_at__isnull=False).count() == 4
    assert not OutboxTask.objects.exists()
