"""The Celery app: the worker runs the sweep and the notifications; beat queues the sweep."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "genius.settings")

app = Celery("genius")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def schedule_the_sweep(sender, **kwargs):
    from django.conf import settings

    # The sweep is the one thing that must run: it finds every due round and clock by query.
    sender.add_periodic_task(settings.GENIUS_SWEEP_SECONDS, sender.signature("games.platform.tasks.sweep"))
