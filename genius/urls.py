"""Routes: pages, the host admin, the API, and each game app's own pages."""

import sys
from importlib.util import find_spec

from allauth.account import views as account_views
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.urls import include, path, re_path

from games.platform.account_views import ConfirmEmail

from . import health

urlpatterns = [
    path("livez/", health.livez, name="livez"),
    path("readyz/", health.readyz, name="readyz"),
    path("healthz/deep/", health.deep, name="healthz-deep"),
    path("admin/", admin.site.urls),
    # The site's login is allauth's (it also takes the old form's `username`); the rest of allauth under
    # accounts/: sign-up, password reset and change, email addresses, Discord.
    path("login/", account_views.login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # allauth's confirmation page, but one that logs nobody out (account_views.ConfirmEmail).
    re_path(
        r"^accounts/confirm-email/(?P<key>[-:\w]+)/$", ConfirmEmail.as_view(), name="account_confirm_email"
    ),
    path("accounts/", include("allauth.urls")),
    path("api/", include("games.platform.api.urls")),
    path("", include("games.platform.urls")),
]
# A game app with pages of its own brings a urls module; the project does not name the games.
for app in settings.INSTALLED_APPS:
    if app.startswith("games.") and app != "games.platform" and find_spec(f"{app}.urls"):
        urlpatterns.insert(-1, path(f"{app.split('.')[-1].replace('_', '-')}/", include(f"{app}.urls")))


def not_found(request, exception=None):
    """An API client always gets JSON, even for a path no route matches; people get the page."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception)


DATABASE_AWAY = (OperationalError, InterfaceError)


def server_error(request):
    """A 500 page in the site's style (templates/500.html), or a 503 when the database is away.

    Django has logged the traceback already (the `django.request` logger, see LOGGING). A database that
    does not answer is no bug of the page: the visitor is told to come back (503, Retry-After), and an API
    client gets JSON either way. After a commit nothing raises (issue 18.1), so a 500 to a write most likely
    stored nothing; the answer says to check rather than promise.
    """
    from django.http import JsonResponse
    from django.template import loader

    away = isinstance(sys.exc_info()[1], DATABASE_AWAY)
    status = 503 if away else 500
    if request.path.startswith("/api/"):
        detail = (
            "The database is away; try again in a minute."
            if away
            else "Something went wrong on our side. Read the game back before you send this again."
        )
        response = JsonResponse({"detail": detail}, status=status)
    else:
        response = HttpResponse(loader.get_template(f"{status}.html").render(), status=status)
    if away:
        response["Retry-After"] = "30"
    return response


handler404 = not_found
handler500 = server_error
