"""A new password revokes the user's API tokens (issue 17.14): a token taken with the old one dies with it."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _token(client, username, password):
    answer = client.post(
        reverse("api-token"), {"username": username, "password": password}, content_type="application/json"
    )
    assert answer.status_code == 200
    return answer.json()["token"]


def _balances(client, token):
    return client.get(reverse("api-balances"), headers={"authorization": f"Token {token}"}).status_code


def test_a_password_changed_in_the_admin_revokes_the_players_api_tokens(client, alice, make_user):
    token = _token(client, "alice", "pw-alice")
    assert _balances(client, token) == 200
    # Logging in again, which saves the user (last_login), keeps the token.
    assert client.post(reverse("login"), {"username": "alice", "password": "pw-alice"}).status_code == 302
    assert _balances(client, token) == 200
    client.logout()
    root = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(root)
    changed = client.post(
        f"/admin/auth/user/{alice.pk}/password/",
        {"password1": "a-new-Secret-91", "password2": "a-new-Secret-91", "usable_password": "true"},
    )
    assert changed.status_code == 302
    client.logout()
    assert _balances(client, token) in (401, 403), "the old token is refused"
    assert _token(client, "alice", "a-new-Secret-91") != token
