"""The Celery app: beat queues the sweep; the `deadlines` workers run it and the resolutions it queues,
the other workers the notifications and webhooks."""

import os

from celery import Celery

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
    # The outbox's relay (games/platform/outbox.py): what a commit owes and nobody has done yet (never
    # published, lost by the broker or a killed worker, or due for a retry) is published again.
    relay = sender.signature("games.platform.tasks.relay").set(
        expires=max(60.0, 2 * settings.GENIUS_RESEND_SECONDS)
    )
    sender.add_periodic_task(settings.GENIUS_RESEND_SECONDS, relay)
