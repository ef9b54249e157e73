"""Who the client is when the site stands behind TLS proxies (GENIUS_BEHIND_PROXY, GENIUS_PROXY_COUNT).

Without a proxy, the client is REMOTE_ADDR, and X-Forwarded-For and X-Forwarded-Proto are whatever the
client typed: never trusted. Behind GENIUS_PROXY_COUNT proxies that each append the address they were
reached from to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, Caddy, Traefik), the client is
that many entries from the right: anything further left was written by the client and may be forged.
Login rate limiting (django-axes) counts failures per username *and* this address, so a stranger's
wrong passwords lock out only the stranger, not the player whose name they typed.
"""

from __future__ import annotations

from django.conf import settings
from ipware.ip import get_client_ip


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    count = settings.GENIUS_PROXY_COUNT
    if not settings.GENIUS_BEHIND_PROXY or count < 1:
        return remote
    # ipware's proxy_count counts the proxies named inside the header; ours counts every proxy, the last
    # of which is only in REMOTE_ADDR.
    ip, _ = get_client_ip(
        request, proxy_order="left-most", proxy_count=count - 1, request_header_order=["HTTP_X_FORWARDED_FOR"]
    )
    return ip or remote
