"""Where the server may send a webhook: out to the internet, never back inside its own network.

A host types a webhook's URL, and the server posts to it: without these checks a host could aim the
server at its own Redis, Postgres, the cloud's metadata address or anything else behind the firewall.
Two doors, both here:

- when the URL is saved (`url_problem`): https only (http too in DEBUG, or with GENIUS_WEBHOOKS_HTTP), a
  host name, and no address literal or `localhost` naming an inside address;
- at every delivery (`post`): the name is resolved then, the connection goes to the very address that was
  checked (a name that changes its answer between the check and the connection gains nothing), and
  loopback, private, link-local, reserved, multicast and unspecified addresses are refused. Redirects are
  never followed, so no second hop goes unchecked. The resolution and the pinning are requests-hardened's.

GENIUS_WEBHOOKS_TO_LOOPBACK lets the tests post to a receiver on 127.0.0.1; nothing else should set it.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests_hardened import Config, Manager
from requests_hardened.ip_filter import InvalidIPAddress


class DeliveryFailed(Exception):
    """The receiver did not take the post (a network error or a non-2xx answer): retried with backoff. Here,
    beside WebhookRefused, so each kind of webhook (signed, Discord's) raises the same without importing the
    other."""


class WebhookRefused(Exception):
    """The destination is not one the server posts to (inside the network, a scheme it does not use, a
    redirect). Not retried: the same URL would be refused again."""


def _http_allowed() -> bool:
    return settings.DEBUG or settings.GENIUS_WEBHOOKS_HTTP


def _loopback_allowed() -> bool:
    return settings.GENIUS_WEBHOOKS_TO_LOOPBACK


def inside_address(host: str) -> bool:
    """True for an address literal (or `localhost`) that names the server's own network, not the internet."""
    if host.lower().rstrip(".") == "localhost" or host.lower().endswith(".localhost"):
        return not _loopback_allowed()
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return not _loopback_allowed()
    return not ip.is_global or ip.is_multicast


def url_problem(url: str) -> str | None:
    """What is wrong with a webhook URL, in words for the host; None when the server may post there."""
    parts = urlsplit(url)
    schemes = ("https", "http") if _http_allowed() else ("https",)
    if parts.scheme not in schemes:
        return "A webhook URL must start with https://." + (" (or http://)" if _http_allowed() else "")
    try:
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        return "This URL has no valid host and port."
    if not host:
        return "This URL has no host."
    if parts.username or parts.password:
        return "A webhook URL carries no user name or password; use the signing secret instead."
    if inside_address(host):
        return "This address is inside the server's network; webhooks only go out to the internet."
    return None


_manager: Manager | None = None


def _session_manager() -> Manager:
    global _manager
    loopback = _loopback_allowed()
    if _manager is None or _manager.config.ip_filter_allow_loopback_ips != loopback:
        _manager = Manager(
            Config(
                ip_filter_enable=True,
                ip_filter_allow_loopback_ips=loopback,
                never_redirect=True,
                default_timeout=(3, 10),
            )
        )
    return _manager


def post(url: str, *, body: bytes, headers: dict, timeout: float) -> requests.Response:
    """POST to a checked destination; raises WebhookRefused, or requests' own errors when unreachable."""
    problem = url_problem(url)
    if problem:
        raise WebhookRefused(f"{url}: {problem}")
    try:
        response = _session_manager().send_request(
            "POST", url, data=body, headers=headers, timeout=timeout, allow_redirects=False
        )
    except InvalidIPAddress as exc:
        raise WebhookRefused(f"{url} resolves to {exc}, inside the server's network") from exc
    if response.is_redirect:
        code = response.status_code
        raise WebhookRefused(f"{url} answered a redirect ({code}); redirects are not followed")
    return response
