"""The embedded broker (`make run` without Redis, genius/filebroker.py) on a full disk (issue 28.2): a message
it cannot write whole is refused at the enqueue and leaves no file behind, and a file in its queue that is
not a whole message (what kombu's own transport left on a full disk) is moved aside with a warning naming
it, while the messages after it are delivered."""

from __future__ import annotations

import logging
import os

import pytest
from django.db import transaction
from django.utils import timezone
from kombu import Connection, Consumer, Exchange, Queue
from kombu.exceptions import ChannelError, OperationalError
from kombu.transport.virtual import BrokerState

from games.platform import enqueue, outbox
from games.platform.models import OutboxTask
from genius import filebroker
from genius.celery import app
from tests.disk import small_disk

pytestmark = pytest.mark.django_db

URL = "genius-files://localhost/"
TASK = "games.platform.tasks.notify_round_resolved"


def folders(root) -> dict:
    for sub in ("queue", "processed", "control", "corrupt"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(root / "queue"),
        "data_folder_out": str(root / "queue"),
        "processed_folder": str(root / "processed"),
        "corrupt_folder": str(root / "corrupt"),
        "control_folder": str(root / "control"),
    }


@pytest.fixture(autouse=True)
def _own_broker_state(monkeypatch):
    # The transport keeps the bindings a process made for all its connections (kombu's global state): each
    # test's broker folders are new, so are its bindings.
    monkeypatch.setattr(filebroker.Transport, "global_state", BrokerState())


@pytest.fixture
def disk(tmp_path):
    with small_disk(tmp_path / "disk", allow_limit=False) as disk:
        if disk is None:
            pytest.skip("Mounting a small tmpfs needs root (tests/faults/test_full_disk.py needs no mount).")
        yield disk


@pytest.fixture
def broker_on(monkeypatch):
    """broker_on(root): this process's Celery app publishes to the embedded broker under `root`."""
    monkeypatch.setattr(outbox, "_broker_down_until", 0.0)

    def point(root) -> dict:
        options = folders(root)
        app.conf.update(
            broker_url=URL, broker_write_url=URL, broker_transport_options=options, task_always_eager=False
        )
        app._pool, app.amqp._producer_pool = None, None
        assert delivered(options) == []  # a worker started: its queue is bound, as under `make run`
        return options

    saved = {key: app.conf[key] for key in ("broker_url", "broker_write_url", "broker_transport_options")}
    yield point
    app.conf.update(saved)
    app._pool, app.amqp._producer_pool = None, None


def delivered(options, queue="celery", limit=10) -> list:
    """What a consumer of `queue` is given, in order, until the queue is empty."""
    got = []

    def take(body, message):
        got.append(message)
        message.ack()

    with Connection(URL, transport_options=options) as conn:
        # Declared as Celery declares its queues: an exchange of the queue's name.
        with Consumer(
            conn, [Queue(queue, Exchange(queue), routing_key=queue)], accept=["json"], callbacks=[take]
        ):
            for _ in range(limit):
                try:
                    conn.drain_events(timeout=0.5)
                except TimeoutError:
                    break
    return got


def files(folder) -> list[str]:
    return sorted(os.listdir(folder))


def test_a_message_the_full_disk_cannot_hold_is_refused_and_leaves_no_file_then_goes_whole(disk, broker_on):
    options = broker_on(disk.path / "broker")
    disk.fill()
    with pytest.raises(OperationalError) as refused:
        outbox._publish("notify_round_resolved", [7])
    assert files(options["data_folder_out"]) == []  # kombu's own left an empty message file here
    assert "No space left on device" in str(refused.value)
    disk.free()
    outbox._publish("notify_round_resolved", [7])
    (message,) = delivered(options)
    assert message.headers["task"] == TASK and message.headers["argsrepr"] == "[7]"
    assert files(options["data_folder_out"]) == []


def test_work_a_commit_queued_on_a_full_disk_is_kept_and_sent_once_there_is_room(
    disk, broker_on, django_capture_on_commit_callbacks, caplog
):
    options = broker_on(disk.path / "broker")
    disk.fill()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        enqueue.notify_round_resolved(7)
    kept = OutboxTask.objects.get()  # due at once: the relay publishes it at its next tick
    assert (kept.name, kept.args) == ("notify_round_resolved", [7])
    assert kept.due_at <= timezone.now()
    assert files(options["data_folder_out"]) == []
    assert "No space left on device" in caplog.text
    disk.free()
    assert outbox.relay() == 1
    (message,) = delivered(options)
    assert message.headers["task"] == TASK and message.headers["argsrepr"] == "[7]"


def test_a_file_in_the_queue_that_is_not_a_whole_message_is_moved_aside_and_the_next_is_delivered(
    tmp_path, caplog
):
    options = folders(tmp_path / "broker")
    queue = tmp_path / "broker" / "queue"
    # What a full disk left under kombu's own transport (an empty file, a cut one), and a file that decodes
    # but is no message: each would have stopped the worker at every start.
    (queue / "1_empty.celery.msg").write_bytes(b"")
    (queue / "2_cut.celery.msg").write_bytes(b'{"body": "eyJ0YXNr", "properties": {"deliv')
    (queue / "3_stranger.celery.msg").write_bytes(b'{"body": "hello"}')
    with Connection(URL, transport_options=options) as conn:
        celery = Queue("celery", Exchange("celery"), routing_key="celery")
        conn.Producer().publish({"n": 1}, exchange="celery", routing_key="celery", declare=[celery])
    with caplog.at_level(logging.WARNING, logger="genius.filebroker"):
        (message,) = delivered(options)
    assert message.payload == {"n": 1}
    assert files(queue) == []
    broken = ["1_empty.celery.msg", "2_cut.celery.msg", "3_stranger.celery.msg"]
    assert files(tmp_path / "broker" / "corrupt") == broken
    warned = [r.getMessage() for r in caplog.records if r.name == "genius.filebroker"]
    assert len(warned) == 3
    for name, line in zip(broken, warned, strict=True):
        assert line.startswith(
            f"A broken message file was moved to {tmp_path / 'broker' / 'corrupt' / name} ("
        )


def test_a_broken_table_of_bindings_refuses_publishing_until_a_worker_start_writes_it_again(tmp_path, caplog):
    options = folders(tmp_path / "broker")
    # kombu's own transport wrote the table in place: a full disk at a worker's first start left it empty.
    (tmp_path / "broker" / "control" / "celery.exchange").write_bytes(b"")
    with Connection(URL, transport_options=options) as conn:
        with pytest.raises(ChannelError, match="celery.exchange is broken"):
            conn.Producer().publish({"n": 1}, exchange="celery", routing_key="celery", retry=False)
    assert files(options["data_folder_out"]) == []  # refused, not routed nowhere
    with caplog.at_level(logging.WARNING, logger="genius.filebroker"):
        assert delivered(options) == []  # a worker starts: it binds its queue again
    assert "celery.exchange is broken" in caplog.text and "starting it afresh" in caplog.text
    with Connection(URL, transport_options=options) as conn:
        conn.Producer().publish({"n": 2}, exchange="celery", routing_key="celery", retry=False)
    (message,) = delivered(options)
    assert message.payload == {"n": 2}
