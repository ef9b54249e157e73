"""The site's routes and two that fail on purpose, for tests of what a failure looks like from outside."""

from django.db import OperationalError
from django.urls import path

from genius.urls import handler404, handler500, urlpatterns  # noqa: F401 - the handlers are the site's


def broken(request):
    raise ZeroDivisionError("a bug in a page")


def database_away(request):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


urlpatterns = [
    path("broken/", broken),
    path("api/broken/", broken),
    path("database-away/", database_away),
    path("api/database-away/", database_away),
    *urlpatterns,
]
