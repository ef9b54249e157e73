"""The Celery app: beat queues the sweep; the `deadlines` workers run it and the resolutions it queues,
the other workers the notifications and webhooks. Every worker leaves signs of life (`Alive`)."""

import logging
import os

from celery import Celery, bootsteps
from kombu.transport import TRANSPORT_ALIASES

from . import alive

# The embedded broker (no Redis): kombu's file-system transport, safe on a full disk (genius/filebroker.py).
TRANSPORT_ALIASES["genius-files"] = "genius.filebroker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "genius.settings")

app = Celery("genius")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger(__name__)


@app.on_after_finalize.connect
def schedule_the_sweep(sender, **kwargs):
    from django.conf import settings

    # The sweep is the one thing that must run: it finds every due round and clock by query. A sweep that
    # waited in the queue longer than a minute is dropped (a later one does its work): after an outage the
    # worker does not run every sweep beat queued meanwhile.
    every = settings.GENIUS_SWEEP_SECONDS
    sweep = sender.signature("games.platform.tasks.sweep").set(expires=max(60.0, 2 * every))
    sender.add_periodic_task(every, sweep)
    # The outbox's relay (games/platform/outbox.py): what a commit owes and nobody has done yet (never
    # published, lost by the broker or a killed worker, or due for a retry) is published again.
    relay = sender.signature("games.platform.tasks.relay").set(
        expires=max(60.0, 2 * settings.GENIUS_RESEND_SECONDS)
    )
    sender.add_periodic_task(settings.GENIUS_RESEND_SECONDS, relay)
    # The daily digests whose hour came (games/platform/services/digest.py), once per player and day.
    check = settings.GENIUS_DIGEST_CHECK_SECONDS
    digests = sender.signature("games.platform.tasks.digests").set(expires=check)
    sender.add_periodic_task(check, digests)


class Alive(bootsteps.StartStopStep):
    """A worker's signs of life, left from its consumer's own timer (so a stuck loop leaves none):

    - every `alive.SECONDS`, a file touched on its machine, which its container's health check reads
      (genius/alive.py): the worker itself is up, whatever the broker or the database do;
    - every GENIUS_WORKER_HEARTBEAT_SECONDS, a `heartbeat` task sent to each queue it takes: a worker of that
      queue runs it and leaves a row in the database, which the deep status reads (/healthz/deep/). It says
      that tasks are taken and run, and no probe broadcasts a ping to every worker.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent, **kwargs):
        super().__init__(parent, **kwargs)
        self.timers = []

    def start(self, consumer):
        from django.conf import settings

        self.touch(consumer)
        self.send(consumer)
        self.timers = [
            consumer.timer.call_repeatedly(alive.SECONDS, self.touch, (consumer,)),
            consumer.timer.call_repeatedly(settings.GENIUS_WORKER_HEARTBEAT_SECONDS, self.send, (consumer,)),
        ]

    def stop(self, consumer):
        for timer in self.timers:
            timer.cancel()
        self.timers = []

    def touch(self, consumer):
        try:
            alive.touch(consumer.hostname)
        except OSError:
            log.warning("Could not leave the worker's sign of life at %s", alive.path(consumer.hostname))

    def send(self, consumer):
        from django.conf import settings

        every = settings.GENIUS_WORKER_HEARTBEAT_SECONDS
        for queue in consumer.app.amqp.queues.consume_from:
            try:
                consumer.app.send_task(
                    "games.platform.tasks.heartbeat", args=[queue], queue=queue, expires=every, retry=False
                )
            except Exception as exc:  # the broker away: the heartbeat is missed, which is what it tells
                log.warning("The heartbeat of queue %s was not sent (%s)", queue, exc)


app.steps["consumer"].add(Alive)
