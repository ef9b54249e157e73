"""Who the client is when the site stands behind TLS proxies (GENIUS_BEHIND_PROXY, GENIUS_PROXY_COUNT).

Without a proxy, the client is REMOTE_ADDR, and X-Forwarded-For and X-Forwarded-Proto are whatever the
client typed: never trusted. Behind GENIUS_PROXY_COUNT proxies that each append the address they were
reached from to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, Caddy, Traefik), the client is
that many entries from the right: anything further left was written by the client and may be forged, so
it is never read, and a client that sends a header of its own is still counted as itself.

REMOTE_ADDR is then the last proxy's address, shared by everybody: it is never the client while the header
is there. A request without the header did not come through the proxies (their health checks, a machine
inside the network): it is counted as the address that sent it, REMOTE_ADDR. A header with fewer entries
than proxies came in past the outer ones: its leftmost entry, written by a proxy of ours, is the client.

Login rate limiting (django-axes, allauth) counts failures per address and per username *and* address
(genius/login_delays.py), so a stranger's wrong passwords delay only the stranger.
"""

from __future__ import annotations

import ipaddress
import logging

from django.conf import settings

log = logging.getLogger(__name__)


def _address(entry: str) -> str | None:
    """The address in one X-Forwarded-For entry ("203.0.113.7", "[2001:db8::1]:443", "203.0.113.7:5100")."""
    entry = entry.strip()
    if entry.startswith("["):
        entry = entry[1:].partition("]")[0]
    elif entry.count(":") == 1:
        entry = entry.partition(":")[0]  # an IPv4 address with a port
    try:
        return str(ipaddress.ip_address(entry))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    count = settings.GENIUS_PROXY_COUNT
    entries = [e for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if e.strip()]
    if not settings.GENIUS_BEHIND_PROXY or count < 1 or not entries:
        return remote
    entry = entries[-count] if len(entries) >= count else entries[0]
    address = _address(entry)
    if address is None:
        # Our proxies write addresses only: GENIUS_PROXY_COUNT is higher than the proxies really in front.
        log.warning("X-Forwarded-For entry %r is not an address; is GENIUS_PROXY_COUNT right?", entry[:60])
        return remote
    return address
