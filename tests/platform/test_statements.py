"""The precompiled statements of the hot paths (statements.py) give the rows and refusals the ORM gives."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models.signals import post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.platform import statements
from games.platform.models import Round, Seat, Submission

pytestmark = pytest.mark.django_db


def same_row(made, orm) -> None:
    assert type(made) is type(orm)
    for field in type(orm)._meta.concrete_fields:
        assert getattr(made, field.attname) == getattr(orm, field.attname), field.name
        assert type(getattr(made, field.attname)) is type(getattr(orm, field.attname)), field.name
    assert made._state.adding is False and made._state.db == "default"


def test_a_player_seat_is_the_orms_seat_with_its_game_and_season(tally, alice):
    tally.state = {"canary": [1, 2], "nested": {"x": "y"}}
    tally.save(update_fields=["state"])
    seat, hosts_it = statements.player_seat(tally.pk, alice.pk)
    same_row(seat, Seat.objects.get(game=tally, user=alice))
    same_row(seat.game, type(tally).objects.get(pk=tally.pk))
    same_row(seat.game.season, tally.season)
    assert seat.game.state == {"canary": [1, 2], "nested": {"x": "y"}}  # JSON decoded, as the ORM does
    assert hosts_it is False
    with CaptureQueriesContext(connection) as captured:
        assert seat.game.season.name == tally.season.name  # joined: no further query
    assert not captured.captured_queries


def test_a_seated_host_and_a_stranger_are_not_players_on_the_save_path(tally, alice, charlie):
    tally.hosts.add(alice)
    assert statements.player_seat(tally.pk, alice.pk)[1] is True
    assert statements.player_seat(tally.pk, charlie.pk) is None
    assert statements.player_seat(tally.pk + 1000, alice.pk) is None


def test_the_round_read_for_a_save_is_the_orms_round(tally):
    same_row(statements.round_shared(tally.pk, 0), Round.objects.get(game=tally, number=0))
    assert statements.round_shared(tally.pk, 7) is None
    for impossible in (-1, 10**9):  # beyond the column's range: no round, and no database error
        assert statements.round_shared(tally.pk, impossible) is None


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


def test_a_token_save_is_four_reads_and_writes(tally, alice, django_assert_num_queries):
    client = token_client(alice)
    url = reverse("api-submission", args=[tally.id])
    body = {"round": 0, "payload": {"number": 4}}
    # The token with its user, the seat with its game, the round's lock, the insert (and the savepoint
    # around the save, which in production is its transaction).
    with django_assert_num_queries(6):
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
    # The session names this site's backend, whose user read is the precompiled one.
    assert client.session["_auth_user_backend"] == "games.platform.auth.ModelBackend"
    assert client.get(reverse("api-submission", args=[tally.id])).status_code == 200


def test_a_submission_insert_stores_what_the_orm_stores(tally, alice):
    seat, rnd = Seat.objects.get(game=tally, user=alice), Round.objects.get(game=tally, number=0)
    at = timezone.now()
    payload = {"number": 4, "note": 'a "quoted" word', "nested": {"list": [1, None, True]}}
    made = statements.submission_insert(
        Submission(round=rnd, seat=seat, payload=payload, final=True, created_at=at)
    )
    assert made.pk is not None and made._state.adding is False and made._state.db == "default"
    by_orm = Submission.objects.create(round=rnd, seat=seat, payload=payload, final=True, created_at=at)
    stored, expected = Submission.objects.get(pk=made.pk), Submission.objects.get(pk=by_orm.pk)
    for field in Submission._meta.concrete_fields:
        if not field.primary_key:
            assert getattr(stored, field.attname) == getattr(expected, field.attname), field.name
    assert stored.payload == payload and stored.created_at == at


def test_a_model_with_save_listeners_is_inserted_by_the_orm(tally, alice):
    heard = []

    def listener(sender, instance, created, **kwargs):
        heard.append((instance.pk, created))

    post_save.connect(listener, sender=Submission)
    try:
        made = statements.submission_insert(
            Submission(
                round=Round.objects.get(game=tally, number=0), seat=Seat.objects.get(game=tally, user=alice)
            )
        )
    finally:
        post_save.disconnect(listener, sender=Submission)
    assert heard == [(made.pk, True)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are Postgres's")
def test_a_statement_run_again_on_a_connection_is_prepared_there(alice):
    for _ in range(3):
        assert statements.user_by_id(alice.pk) == alice
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(alice._meta.db_table in sql for sql in prepared), prepared
