"""Deeply nested JSON and an overlong username are a 400 with a message, never a 500 (issue 17.10)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api_support import api

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("debug", [False, True])
def test_deeply_nested_json_to_the_token_endpoint_is_a_400_not_a_debug_page(client, settings, debug):
    settings.DEBUG = debug
    answer = client.post(reverse("api-token"), DEEP, content_type="application/json")
    assert answer.status_code == 400
    assert "nested" in answer.json()["detail"]


def test_json_nested_past_the_limit_to_a_players_route_is_a_400(tally, alice):
    # Parseable by Python, but deeper than anything the site takes.
    payload = "[" * 40 + "]" * 40
    answer = api(alice).post(
        reverse("api-submission", args=[tally.id]),
        f'{{"round": 0, "payload": {payload}}}',
        content_type="application/json",
    )
    assert answer.status_code == 400 and "nested" in answer.json()["detail"]


def test_a_move_nested_thousands_deep_on_the_game_page_is_refused_with_a_message(client, tally, alice):
    client.force_login(alice)
    answer = client.post(reverse("game", args=[tally.id]), {"action": DEEP}, follow=True)
    assert answer.status_code == 200
    assert "not understood" in answer.content.decode()


def test_a_username_longer_than_any_user_s_is_a_400_at_the_token_endpoint(client):
    answer = client.post(
        reverse("api-token"), {"username": "u" * 300, "password": "x"}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert "username" in answer.json()["errors"]
