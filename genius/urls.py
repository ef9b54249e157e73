"""Routes: pages, the host admin, the API, and each game app's own pages."""

from importlib.util import find_spec

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import health

urlpatterns = [
    path("livez/", health.livez, name="livez"),
    path("readyz/", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
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


def server_error(request):
    from django.http import JsonResponse
    from django.views.defaults import server_error as page

    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Something went wrong on our side; nothing was changed."}, status=500)
    return page(request)


handler404 = not_found
handler500 = server_error
