"""Every server error is logged with its traceback, shown in the site's style, and a database that is away
is a 503 that says to come back (issue 18.5), through HTTP."""

from __future__ import annotations

import io
import logging

import pytest
from django.db import OperationalError, connections
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.services]


@pytest.fixture
def log_output():
    """What the site's one log handler writes (the container's log), for the length of a test."""
    handler = next(h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler)
    written = io.StringIO()
    old = handler.setStream(written)
    yield written
    handler.setStream(old)


@pytest.fixture
def failing(settings):
    settings.ROOT_URLCONF = "tests.platform.failing_urls"


def visitor() -> Client:
    return Client(raise_request_exception=False)


def test_a_500_is_logged_with_its_traceback(failing, log_output):
    response = visitor().get("/broken/")
    assert response.status_code == 500
    written = log_output.getvalue()
    assert "ERROR django.request" in written
    assert "Traceback (most recent call last)" in written
    assert "ZeroDivisionError: a bug in a page" in written


def test_a_500_page_is_in_the_sites_style_and_an_api_500_is_json(failing):
    page = visitor().get("/broken/")
    assert page.status_code == 500
    html = page.content.decode()
    assert "Something went wrong on our side" in html
    assert "css/site.css" in html
    api = visitor().get("/api/broken/")
    assert api.status_code == 500
    assert "nothing was changed" not in api.json()["detail"]


def test_a_database_away_is_a_friendly_503_that_is_logged(failing, log_output):
    page = visitor().get("/database-away/")
    assert page.status_code == 503
    assert page["Retry-After"]
    assert "Back in a moment" in page.content.decode()
    assert "OperationalError" in log_output.getvalue()
    api = visitor().get("/api/database-away/")
    assert api.status_code == 503
    assert "database" in api.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_a_game_page_is_a_503_while_the_database_refuses_connections(tally, monkeypatch, log_output):
    def refused(*args, **kwargs):
        raise OperationalError("connection refused (the test's database is away)")

    connection = connections["default"]
    connection.close()
    monkeypatch.setattr(type(connection), "get_new_connection", refused)
    # SQLite's in-memory test database is never closed (it would vanish with its connection): there the
    # connection stays and every cursor is refused instead, as a server that went away mid-connection does.
    monkeypatch.setattr(type(connection), "create_cursor", refused)
    for url in (f"/games/{tally.id}/", f"/api/games/{tally.id}/", "/"):
        response = visitor().get(url)
        assert response.status_code == 503, url
    assert "connection refused" in log_output.getvalue()
