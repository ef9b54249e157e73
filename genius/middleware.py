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
