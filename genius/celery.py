"""The Celery app: beat queues the sweep; the `deadlines` workers run it and the resolutions it queues,
the other workers the notifications and webhooks."""

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

# The embedded broker (no Redis): kombu's file-system transport, safe on a full disk (genius/filebroker.py).
TRANSPORT_ALIASES["genius-files"] = "genius.filebroker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "genius.settings")

app = Celery("genius")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def schedule_the_sweep(sender, **kwargs):
    from django.conf import settings

    # The sweep is the one thing that must run: it finds every due round and clock by query. A sweep that
    # waited in the queue longer than a minute is dropped (a later one does its work): after an outage the
    # worker does not run every sweep beat queued meanwhile.
    every = settings.GENIUS_SWEEP_SECONDS
    sweep = sender.signature("games.platform.tasks.sweep").set(expires=max(60.0, 2 * every))
    sender.add_periodic_task(every, sweep)
    # What a commit queued while the broker was away (games/platform/enqueue.py) goes out once it is back.
    resend = sender.signature("games.platform.tasks.resend_pending").set(expires=60.0)
    sender.add_periodic_task(settings.GENIUS_RESEND_SECONDS, resend)
