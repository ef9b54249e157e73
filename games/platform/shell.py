"""The page around a game's body (the site's header and footer), rendered once per process for what it shows.

A player reloading a game's page is served the body from the page cache (pagecache.py); what was left to
render was this shell, which cost about as much as the rest of the request. It shows little: the page's
title and, for a logged-in user, their name, whether they host (the admin link) and their zone. So it is
kept per process under exactly those, with the CSRF token, the server's clock (`data-now`), the CSP nonce of
the htmx script and the body left as marks filled for each request: a name or a zone saved shows at once
(another key), and nothing is invalidated. A page with messages to show, and a visitor's (the sign-up link
follows the settings and the invitation in the session), are rendered as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import UTC, datetime

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import dateformat
from django.utils.safestring import mark_safe

from .pagecache import CSRF_PLACEHOLDER
from .people import own_prefs

TEMPLATE = "platform/game_page.html"
BODY = "\x00body\x00"
NOW = "\x00now\x00"
NONCE = "\x00csp-nonce\x00"
KEPT = 256  # shells kept per process, the least recently served dropped first (a few KB each)

_kept: OrderedDict[tuple, tuple[str, str]] = OrderedDict()
# Under ASGI each request's sync code runs in a thread of its own: two pages may reach the dict at once.
_keeping = threading.Lock()


def game_page(request, title: str, body: str) -> HttpResponse:
    """The game's page: `body` (rendered for this viewer, or from the page cache) inside the site's shell."""
    user = request.user
    if not user.is_authenticated or len(messages.get_messages(request)):
        return HttpResponse(render_to_string(TEMPLATE, {"title": title, "body": body}, request=request))
    key = (title, user.pk, user.username, user.is_staff, own_prefs(user))
    with _keeping:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
    if kept is None:
        kept = _render(request, title)  # outside the lock: two first requests may both render; one is kept
        with _keeping:
            _kept[key] = kept
            if len(_kept) > KEPT:
                _kept.popitem(last=False)
    marks = {
        CSRF_PLACEHOLDER: get_token(request),
        NOW: dateformat.format(datetime.now(tz=UTC), "U"),
        NONCE: str(get_nonce(request)),  # read: the CSP header names it (ContentSecurityPolicyMiddleware)
    }
    head, tail = (_filled(part, marks) for part in kept)
    return HttpResponse("".join((head, body, tail)))


def _filled(text: str, marks: dict[str, str]) -> str:
    for mark, value in marks.items():
        text = text.replace(mark, value)
    return text


def _render(request, title: str) -> tuple[str, str]:
    """The shell with marks for what each request fills: (before the body, after it)."""
    context = {
        "title": title,
        "body": mark_safe(BODY),
        "csrf_token": CSRF_PLACEHOLDER,
        "now_mark": NOW,
        "csp_nonce": NONCE,
    }
    head, tail = render_to_string(TEMPLATE, context, request=request).split(BODY)
    return head, tail
