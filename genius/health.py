"""Health checks: is the process up (/livez/), can the site serve (/readyz/), does the background keep up
(/healthz/deep/).

/livez/ touches nothing: a restart-on-failure probe must not restart a healthy web process because
Postgres is away.

/readyz/ is 200 when the site can serve pages and take saves, which is when Postgres answers; 503 when it
does not, so a load balancer stops sending traffic. Redis and the broker are asked too, with short timeouts:
either one down is "degraded", still 200, since every page is served and every save stored without them
(genius/cache.py, games/platform/enqueue.py); the body says which one is down.

/healthz/deep/ says whether the background keeps up (games/platform/heartbeats.py): the sweep ran within its
period and no due round waits, a worker of each queue answered lately, the outbox drains; `ok` is false
when one does not, for a monitor to page someone. It is no readiness check (pages are served meanwhile), and
answers 200 either way: the answer is the JSON, and a probe every few seconds while a worker is down must
not fill the log with server errors. It reads the heartbeats the sweep and the workers leave in the
database: a probe pings no worker.

None of them says anything a visitor may not know (no game, no user, no error text beyond its kind), and
each costs the same however many games there are.
/healthz/ (the benchmark's ceiling) stays the bare answer it was: the process is up.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpResponse, JsonResponse

from games.platform import heartbeats

from .clock import clock_skew_seconds


def livez(request):
    return HttpResponse("ok", content_type="text/plain")


def _database() -> str:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any failure means "not ready"; the class says which kind
        connection.close_if_unusable_or_obsolete()
        return f"down: {type(exc).__name__}"
    return "ok"


def _redis(url: str) -> str:
    seconds = settings.GENIUS_REDIS_TIMEOUT  # a hung Redis holds the probe no longer than it holds a page
    try:
        client = redis.Redis.from_url(url, socket_timeout=seconds, socket_connect_timeout=seconds)
        client.ping()
        client.close()
    except Exception as exc:
        return f"down: {type(exc).__name__}"
    return "ok"


def readyz(request):
    checks = {"database": _database()}
    if settings.REDIS_URL:
        checks["redis"] = _redis(settings.REDIS_URL)
    broker = settings.CELERY_BROKER_URL
    if broker.startswith(("redis://", "rediss://")) and broker != settings.REDIS_URL:
        checks["broker"] = _redis(broker)
    ready = checks["database"] == "ok"
    state = "ok" if all(found == "ok" for found in checks.values()) else "degraded" if ready else "down"
    said = {"ready": ready, "status": state, **checks}
    if ready:
        # How far this process's clock is from the database's, which decides every deadline (genius/clock.py):
        # a large figure names a machine to fix, though no deadline moves by it.
        said["clock_skew_seconds"] = round(clock_skew_seconds(), 3)
    return JsonResponse(said, status=200 if ready else 503)


def deep(request):
    try:
        said = heartbeats.status()
    except Exception as exc:  # the database away: nothing can be said about the background
        connections["default"].close_if_unusable_or_obsolete()
        said = {"ok": False, "database": f"down: {type(exc).__name__}"}
    return JsonResponse(said)
