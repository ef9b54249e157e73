"""The hot paths (a save, a logged-in page) through the ORM and Django's and DRF's own authentication."""

from __future__ import annotations

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.platform.models import Seat
from games.platform.observation import player_seat, seat_of_player

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def test_a_player_seat_comes_with_its_game_and_season_in_one_query(tally, alice):
    season = tally.season.name
    with CaptureQueriesContext(connection) as captured:
        seat = player_seat(tally.pk, alice)
        assert seat.game.season.name == season  # joined: no further query
    assert len(captured.captured_queries) == 1
    assert seat == Seat.objects.get(game=tally, user=alice) and seat.hosts_it is False


def test_a_seated_host_and_a_stranger_are_not_players_on_the_save_path(tally, alice, charlie):
    tally.hosts.add(alice)
    assert player_seat(tally.pk, alice).hosts_it is True
    assert seat_of_player(tally.pk, alice) is None
    assert seat_of_player(tally.pk, charlie) is None
    assert seat_of_player(tally.pk + 1000, alice) is None


def test_a_round_number_no_round_can_have_is_refused_in_words(tally, alice):
    client = token_client(alice)
    url = reverse("api-submission", args=[tally.id])
    for impossible in (-1, 7, 10**12):  # beyond the column's range too: no database error
        response = client.post(url, {"round": impossible, "payload": {"number": 4}}, format="json")
        assert response.status_code in (400, 409), (impossible, response.content)


def test_the_session_user_is_read_fresh_so_a_deactivated_player_is_out_at_once(tally, alice):
    client = Client()
    client.force_login(alice)
    url = reverse("api-submission", args=[tally.id])
    assert client.get(url).status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get(url).status_code == 403


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_a_token_save_is_five_reads_and_writes(tally, alice, django_assert_num_queries):
    client = token_client(alice)
    url = reverse("api-submission", args=[tally.id])
    body = {"round": 0, "payload": {"number": 4}}
    # The token with its user, the seat with its game and season, the round's lock, the insert, and the
    # savepoint pair around the save (in production, its transaction's BEGIN and COMMIT); on Postgres, the
    # limit on the lock's wait too (services/locks.py: a held round answers Busy instead of holding the
    # web worker).
    with django_assert_num_queries(7 if connection.vendor == "postgresql" else 6):
        response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert Seat.objects.get(game=tally, user=alice).submissions.get().payload["number"] == 4


def test_a_wrong_or_deactivated_token_is_refused_in_words(tally, alice):
    url = reverse("api-submission", args=[tally.id])
    body = {"round": 0, "payload": {"number": 4}}
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = stranger.post(url, body, format="json")
    # 403, not 401: the API's first way in is the session, whose refusal names no WWW-Authenticate scheme.
    assert refused.status_code == 403 and refused.json()["detail"] == "Invalid token."
    client = token_client(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    refused = client.post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["detail"] == "User inactive or deleted."


def test_a_player_who_logs_in_with_the_form_stays_logged_in(tally, alice):
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("api-submission", args=[tally.id])).status_code == 200


def test_a_session_that_names_the_removed_backend_is_logged_out_cleanly(tally, alice):
    # Sessions made while the site had its own backend (games.platform.auth) name it; Django then treats
    # them as logged out: the player sees the login page, not an error, and logging in again works.
    client = Client()
    client.force_login(alice)
    session = client.session
    session[BACKEND_SESSION_KEY] = "games.platform.auth.ModelBackend"
    session.save()
    assert client.get(reverse("api-submission", args=[tally.id])).status_code == 403
    page = client.get(reverse("home"))
    assert page.status_code == 200 and b"Log in" in page.content
    assert client.post(reverse("login"), {"username": "alice", "password": "pw-alice"}).status_code == 302
    assert client.get(reverse("api-submission", args=[tally.id])).status_code == 200


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are Postgres's")
def test_a_query_run_again_on_a_connection_is_prepared_there(tally, alice):
    for _ in range(3):
        assert player_seat(tally.pk, alice) is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(Seat._meta.db_table in sql for sql in prepared), prepared
