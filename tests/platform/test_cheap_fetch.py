"""A seated player's game page and live fetch cost no more than they must (issue 32.6: notify-then-fetch makes
them the hot path), and show exactly what a page rendered afresh shows.

The cache's round trips are counted on the backend itself: the page cache's lookup reads the player's
"inbox seen" mark with the body, the viewer's own name and zone are read once per request, and the page's
shell (games/platform/shell.py) is kept per process, filled per request with its CSRF token, clock and nonce.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from unittest import mock

import pytest
from django.core.cache import caches
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.platform import shell
from games.platform.services import games as game_services
from games.platform.services.profiles import profile_save

pytestmark = pytest.mark.django_db

CALLS = ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "touch", "has_key", "incr")


@contextmanager
def cache_calls():
    """Every call made to the cache backend while inside, by name (one call is one round trip to Redis)."""
    backend = caches["default"]
    made: list[str] = []
    inside = []  # the memory cache's get_many calls its own get: only the outermost call is a round trip
    patches = []
    for name in CALLS:
        method = getattr(backend, name)

        def counted(*args, _name=name, _method=method, **kwargs):
            if not inside:
                made.append(_name)
            inside.append(_name)
            try:
                return _method(*args, **kwargs)
            finally:
                inside.pop()

        patches.append(mock.patch.object(backend, name, counted))
    for patch in patches:
        patch.start()
    try:
        yield made
    finally:
        for patch in patches:
            patch.stop()


@pytest.fixture
def game(make_user, season, hank):
    game = game_services.game_create(season=season, game_type="tally", name="Cheap", hosts=[hank], actor=hank)
    for name in ("ann", "bob", "cy"):
        game_services.game_seat(game=game, user=make_user(name), actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def player_client(game) -> tuple[Client, object]:
    user = game.seats.order_by("number").first().user
    client = Client()
    client.force_login(user)
    return client, user


def test_a_cached_player_page_is_two_queries_and_three_cache_round_trips(game):
    client, _ = player_client(game)
    client.get(f"/games/{game.id}/")  # the body rendered and kept, the shell kept, the inbox marked
    with CaptureQueriesContext(connection) as queries, cache_calls() as calls:
        assert client.get(f"/games/{game.id}/").status_code == 200
    # The session (the tests keep it in the database; Redis holds it on the site) and the user.
    assert len(queries.captured_queries) == 2, [q["sql"] for q in queries.captured_queries]
    # The game's version; the page cache's lookup (role, body, stamps and the inbox mark); the viewer's own
    # name and zone. Before: the inbox mark apart, and the name and zone three times (header, zone, times).
    assert sorted(calls) == ["get", "get", "get_many"], calls


def test_a_player_live_fetch_after_news_is_two_queries_and_three_cache_round_trips(game):
    client, _ = player_client(game)
    older = f"v={game.version - 1}"
    client.get(f"/games/{game.id}/live/?{older}")
    with CaptureQueriesContext(connection) as queries, cache_calls() as calls:
        response = client.get(f"/games/{game.id}/live/?{older}")
    assert response.status_code == 200 and b'id="live"' in response.content
    assert len(queries.captured_queries) == 2, [q["sql"] for q in queries.captured_queries]
    assert sorted(calls) == ["get", "get", "get_many"], calls


def normalized(html: str) -> str:
    """The page without what differs per request by design: each masked CSRF token and the clock."""
    html = re.sub(r'(value="|"x-csrftoken": ")[A-Za-z0-9]{64}"', r'\1T"', html)
    return re.sub(r'data-now="\d+"', 'data-now="N"', html)


def test_the_kept_shell_serves_the_page_a_fresh_render_gives(game):
    client, _ = player_client(game)
    shell._kept.clear()
    for _ in range(2):  # the shell rendered and kept, then served from what was kept
        with mock.patch.object(shell, "game_page", wraps=shell.game_page) as served:
            response = client.get(f"/games/{game.id}/")
        request, title, body = served.call_args.args
        # The same request rendered through the template as before: the same nonce, user and session.
        fresh = render_to_string(shell.TEMPLATE, {"title": title, "body": body}, request=request)
        page = response.content.decode()
        assert normalized(page) == normalized(fresh)
        assert "\x00" not in page
        nonce = re.search(r'<script [^>]*nonce="([^"]+)"', page).group(1)
        assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]  # this request's nonce
        token = re.search(r'"x-csrftoken": "([A-Za-z0-9]{64})"', page).group(1)
        assert token != re.search(r'"x-csrftoken": "([A-Za-z0-9]{64})"', fresh).group(1)  # masked afresh
    assert len(shell._kept) == 1


def test_a_name_or_host_flag_changed_shows_in_the_header_at_once(game):
    client, user = player_client(game)
    assert "Host admin" not in client.get(f"/games/{game.id}/").content.decode()
    profile_save(user=user, display_name="Zelda Quinn")
    assert ">Zelda Quinn</a>" in client.get(f"/games/{game.id}/").content.decode()
    user.is_staff = True
    user.save()
    assert "Host admin" in client.get(f"/games/{game.id}/").content.decode()


def test_a_page_with_a_message_shows_it(game):
    client, _ = player_client(game)
    client.get(f"/games/{game.id}/")  # the shell kept: a message must not be lost to it
    client.post(f"/games/{game.id}/", {"nothing": "1"})
    page = client.get(f"/games/{game.id}/").content.decode()
    assert "Nothing was asked of the page." in page
    assert "Nothing was asked" not in client.get(f"/games/{game.id}/").content.decode()  # shown once
