"""The site's own middleware: answers written for one user are kept by no cache on the way."""

from __future__ import annotations

from django.conf import settings
from django.utils.cache import patch_cache_control


class PrivateAnswers:
    """`Cache-Control: private, no-store` on every answer to a request that says who it comes from.

    A page or an API answer for a logged-in user may hold their hand, their balances or their inbox; a
    shared cache (a proxy, a CDN) must not keep it for the next visitor, nor a browser on disk after the
    logout. Who asks is told by the request's session cookie or Authorization header, not by loading the
    user: the feed poll that answers "nothing new" never reads the session, and needn't start to.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META:
            patch_cache_control(response, private=True, no_store=True)
        return response


class SiteNotFound:
    """With DEBUG on (the demo), a path no route matches still gets the site's own 404 page.

    Django answers a 404 under DEBUG with its technical page (the URL patterns, the settings' hint) and never
    calls `handler404`; a newcomer trying the demo should see the page players see. Only that technical page
    is replaced: a 404 a view wrote itself passes through, and without DEBUG the middleware steps aside.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.DEBUG and response.status_code == 404 and _technical(response):
            from .urls import not_found  # the same answer as handler404 (JSON under /api/)

            return not_found(request)
        return response


def _technical(response) -> bool:
    kind = response.get("Content-Type", "")
    return kind.startswith("text/html") and b"DEBUG = True" in getattr(response, "content", b"")
