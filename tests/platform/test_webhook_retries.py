"""A webhook delivery that fails is retried by a real worker on a real broker, waiting longer each time, with
jitter and a cap: the schedule itself is run here, not a task called inline. The waits are kept on the
task's outbox row and beat's relay publishes the retry when it is due (issue 28): no worker holds a task
through its wait."""

from __future__ import annotations

import re
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.utils import timezone

from games.platform.kit import Announce
from games.platform.models import OutboxTask, Webhook
from games.platform.outbox import backoff
from games.platform.services.events import events_write
from tests import workers

pytestmark = pytest.mark.services

FIRST, CAP = 0.4, 1.6  # seconds, for the test: doubling 0.4, 0.8, 1.6, then held at 1.6


class FailingReceiver(BaseHTTPRequestHandler):
    """Answers 503 to the first `failures` posts, then 204; notes when each arrived."""

    arrivals: list[float] = []
    failures = 4

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).arrivals.append(time.monotonic())
        self.send_response(503 if len(self.arrivals) <= self.failures else 204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_each_wait_is_between_half_and_all_of_its_doubling_ceiling():
    for retries, ceiling in [(0, 10), (1, 20), (4, 160), (5, 300), (9, 300)]:
        waits = [backoff(retries, 10, 300) for _ in range(200)]
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(set(waits)) > 1  # jittered


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_failing_webhook_is_retried_by_a_real_worker_with_growing_capped_jittered_waits(tally, tmp_path):
    workers.needs_broker()
    FailingReceiver.arrivals = []
    server = HTTPServer(("127.0.0.1", 0), FailingReceiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    (event,) = events_write(game=tally, events=[Announce("The hosts say hello.")])
    hook = Webhook.objects.create(game=tally, url=f"http://127.0.0.1:{server.server_port}/hook")
    owed = OutboxTask.objects.create(name="deliver_webhook", args=[hook.pk, event.pk], due_at=timezone.now())
    environ = workers.env(
        tmp_path,
        GENIUS_WEBHOOKS_HTTP="1",
        GENIUS_WEBHOOKS_TO_LOOPBACK="1",
        GENIUS_WEBHOOK_RETRY_SECONDS=str(FIRST),
        GENIUS_WEBHOOK_RETRY_MAX_SECONDS=str(CAP),
        GENIUS_RESEND_SECONDS="0.1",
    )
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log:
        worker = workers.celery(
            "worker", "-Q", "celery,deadlines", "--pool", "solo", "-l", "INFO", log=log, environ=environ
        )
        beat = workers.celery("beat", "-s", str(tmp_path / "beat"), "-l", "WARNING", environ=environ)
        with workers.running(worker, beat):
            workers.send(
                "games.platform.tasks.deliver_webhook", hook.pk, event.pk, task_id=f"outbox-{owed.pk}"
            )
            deadline = time.monotonic() + 90
            while OutboxTask.objects.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.5)  # nothing more comes
    server.shutdown()
    arrivals = FailingReceiver.arrivals
    assert len(arrivals) == 5, f"four failures and one success expected, {len(arrivals)} arrived"
    # The waits the task asked for, from the worker's log: each within half and all of its ceiling.
    asked = [float(s) for s in re.findall(r"again in ([0-9.]+) s", log_path.read_text())]
    ceilings = [min(CAP, FIRST * 2**n) for n in range(4)]
    assert len(asked) == 4
    for wait, ceiling in zip(asked, ceilings, strict=True):
        assert ceiling / 2 <= wait <= ceiling
    # And the relay kept them: no retry came before the wait it asked for.
    gaps = [later - earlier for earlier, later in zip(arrivals, arrivals[1:], strict=False)]
    for gap, wait in zip(gaps, asked, strict=True):
        assert gap >= wait - 0.05
