"""With Redis away, pages render and stored writes say so (issue 18.1 and 18.2), through HTTP.

The cache here points at a port where nothing listens: each call is refused at once, as a stopped Redis
refuses it. The fault suite (tests/faults/) does the same with a real Redis stopped and started again.
"""

from __future__ import annotations

import os
import time

import pytest
from django.core.cache import cache
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from games.platform.models import Event, Submission
from games.platform.services import games as game_services
from genius.cache import RedisCache
from tests.api_support import page_client
from tests.conftest import seat_of
from tests.sitting import all_here

pytestmark = [pytest.mark.django_db, pytest.mark.services]

AWAY = "redis://127.0.0.1:1/0"


@pytest.fixture(autouse=True)
def redis_away(settings):
    settings.CACHES = {"default": {"BACKEND": "genius.cache.RedisCache", "LOCATION": AWAY}}
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.GENIUS_PAGE_CACHE = True
    settings.GENIUS_CACHE_RETRY_SECONDS = 0  # every call asks the port again: each must fail softly


def logged_in(user) -> Client:
    return page_client(user, raise_request_exception=False)


@pytest.fixture
def duel(season, hank, alice, bob):
    game = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def test_the_cache_is_empty_and_says_so_when_redis_does_not_answer():
    assert cache.get("anything", "missed") == "missed"
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set("a", 1) is False
    assert cache.add("a", 1) is True, "an empty cache takes every add (a lock through add is granted)"
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert cache.delete("a") is False


def test_every_game_page_renders_for_everyone_with_redis_away(tally, duel, alice, hank, charlie):
    clients = {
        "anonymous": Client(raise_request_exception=False),
        "spectator": logged_in(charlie),
        "player": logged_in(alice),
        "host": logged_in(hank),
    }
    for who, client in clients.items():
        for game in (tally, duel):
            for url in (f"/games/{game.id}/", f"/games/{game.id}/live/", f"/api/games/{game.id}/"):
                response = client.get(url)
                assert response.status_code == 200, f"{who} {url}: {response.status_code}"
            assert game.name in client.get(f"/games/{game.id}/").content.decode()
        assert client.get(f"/seasons/{tally.season_id}/").status_code == 200
        assert client.get("/").status_code == 200


def test_a_login_works_with_redis_away(alice):
    client = Client(raise_request_exception=False)
    response = client.post("/login/", {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get("/account/notifications/").status_code == 200  # logged in: not sent to the login


def test_a_save_through_the_page_is_stored_and_answered_as_saved(
    tally, alice, django_capture_on_commit_callbacks
):
    client = logged_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/games/{tally.id}/", {"round_number": 0, "number": 6, "save": "1"})
    assert response.status_code == 302
    assert Submission.objects.filter(seat=seat_of(tally, alice), payload__number=6).exists()
    assert 'value="6"' in client.get(response["Location"]).content.decode()


def test_a_save_through_the_api_is_stored_and_answered_201(tally, alice, django_capture_on_commit_callbacks):
    client = logged_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/games/{tally.id}/submission/",
            {"round": 0, "payload": {"number": 4}},
            content_type="application/json",
        )
    assert response.status_code == 201, response.content
    assert Submission.objects.filter(seat=seat_of(tally, alice), payload__number=4).exists()


def test_nothing_cached_before_an_outage_is_read_after_it(monkeypatch):
    # A Redis that hung (or was out of reach) comes back with its old keys; the writes dropped meanwhile (a
    # logout's delete, a save's new stamp) must not leave the old copies current.
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs a Redis (REDIS_URL)")
    shared = RedisCache(os.environ["REDIS_URL"], {})
    other = RedisCache(os.environ["REDIS_URL"], {})  # another process's cache: it saw no failure
    assert shared.set("session", "logged in") is True
    assert other.get("session") == "logged in"
    client = shared._cache.get_client

    def away(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(shared._cache, "get_client", away)
    assert shared.delete("session") is False  # the logout's delete is dropped
    monkeypatch.setattr(shared._cache, "get_client", client)
    shared._backoff.down_until = 0  # the back-off is over
    assert shared.get("session") is None
    other._generation_read = float("-inf")  # a second later: it reads the generation again
    assert other.get("session") is None


def test_a_move_and_an_announcement_are_stored_and_answered_200(
    duel, alice, hank, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        moved = logged_in(alice).post(
            f"/api/games/{duel.id}/action/", {"payload": {"say": 2}}, content_type="application/json"
        )
        told = logged_in(hank).post(
            f"/api/games/{duel.id}/host/announce/", {"text": "Redis is away"}, content_type="application/json"
        )
    assert moved.status_code == 200, moved.content
    assert told.status_code in (200, 201), told.content
    assert Event.objects.filter(game=duel, text__contains="says 2").exists()
    assert Event.objects.filter(game=duel, text="Redis is away").exists()


def test_a_key_written_right_after_a_clear_is_still_read_a_second_later():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs a Redis (REDIS_URL)")
    shared = RedisCache(os.environ["REDIS_URL"], {})
    shared.get("warm")  # the generation is read
    shared.clear()  # ... and deleted with everything else (a test's clean start, a Redis started empty)
    assert shared.set("body", "kept") is True
    shared._generation_read -= 10  # a second later, the generation is read again
    assert shared.get("body") == "kept"


def test_the_generation_moves_when_redis_answers_again_without_waiting_for_a_request(monkeypatch, settings):
    # The worker that saw the outage may get no request for a while: a worker that saw none must still stop
    # reading the copies from before it, within a retry or two of Redis answering again.
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs a Redis (REDIS_URL)")
    settings.GENIUS_CACHE_RETRY_SECONDS = 0.2
    shared = RedisCache(os.environ["REDIS_URL"], {})
    other = RedisCache(os.environ["REDIS_URL"], {})  # another process's cache: it saw no failure
    assert shared.set("session", "logged in") is True
    client = shared._cache.get_client

    def away(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(shared._cache, "get_client", away)
    assert shared.delete("session") is False  # the logout's delete is dropped; shared gets no more requests
    monkeypatch.setattr(shared._cache, "get_client", client)
    deadline = time.monotonic() + 5
    while shared._failed and time.monotonic() < deadline:
        time.sleep(0.05)
    other._generation_read = float("-inf")  # other reads the generation again, as it does every retry
    assert other.get("session") is None
