"""Health checks: is the process up (/livez/), and can it serve (/readyz/: the database and Redis).

/livez/ touches nothing: a restart-on-failure probe must not restart a healthy web process because
Postgres is away. /readyz/ asks each dependency once, with short timeouts, and says which one is down
(503), so a load balancer stops sending traffic and a person reading it knows where to look.
/healthz/ (the benchmark's ceiling) stays the bare answer it was: the process is up.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpResponse, JsonResponse

REDIS_SECONDS = 2


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
    try:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_SECONDS, socket_connect_timeout=REDIS_SECONDS)
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
    ready = all(state == "ok" for state in checks.values())
    return JsonResponse({"ready": ready, **checks}, status=200 if ready else 503)
