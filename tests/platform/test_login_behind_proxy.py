"""Behind the TLS proxy, a stranger's wrong passwords lock out only the stranger (issue 17.8).

Every request reaches the site from the proxy's address; the client's own is the last one the proxy
appended to X-Forwarded-For. django-axes counts failures per username and that address.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"
STRANGER = "203.0.113.66"
PLAYER = "198.51.100.7"


@pytest.fixture(autouse=True)
def behind_proxy(settings):
    settings.GENIUS_BEHIND_PROXY = True
    settings.GENIUS_PROXY_COUNT = 1


def _via_proxy(forwarded_for: str) -> dict:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded_for}


def _form_login(client, username, password, forwarded_for):
    return client.post(
        reverse("login"), {"username": username, "password": password}, **_via_proxy(forwarded_for)
    )


def _token(client, username, password, forwarded_for):
    return client.post(
        reverse("api-token"),
        {"username": username, "password": password},
        content_type="application/json",
        **_via_proxy(forwarded_for),
    )


def _stranger_tries_five_wrong_passwords(client, username, forwarded_for=STRANGER):
    for _ in range(3):
        _form_login(client, username, "wrong", forwarded_for)
    for _ in range(2):
        _token(client, username, "wrong", forwarded_for)


def test_five_wrong_passwords_from_one_address_do_not_lock_the_player_out_of_the_form(client, alice):
    _stranger_tries_five_wrong_passwords(client, "alice")
    answer = _form_login(client, "alice", "pw-alice", PLAYER)
    assert answer.status_code == 302 and answer.url == reverse("home")
    # The stranger stays locked out, even with the right password.
    assert _form_login(client, "alice", "pw-alice", STRANGER).status_code == 429


def test_five_wrong_passwords_from_one_address_do_not_lock_the_player_out_of_the_token(client, alice):
    _stranger_tries_five_wrong_passwords(client, "alice")
    answer = _token(client, "alice", "pw-alice", PLAYER)
    assert answer.status_code == 200 and answer.json()["token"]
    assert _token(client, "alice", "pw-alice", STRANGER).status_code != 200


def test_forwarded_for_is_believed_only_as_the_proxy_wrote_it(client, alice, bob, settings):
    # The stranger writes the player's address first; the proxy appends the stranger's real one.
    _stranger_tries_five_wrong_passwords(client, "alice", forwarded_for=f"{PLAYER}, {STRANGER}")
    assert _form_login(client, "alice", "pw-alice", PLAYER).status_code == 302
    # Straight to gunicorn (no proxy), the header is the client's own words: a new address per try would
    # never be counted, so it is not read at all.
    settings.GENIUS_BEHIND_PROXY = False
    for n in range(5):
        _form_login(client, "bob", "wrong", f"203.0.113.{n}")
    assert _form_login(client, "bob", "pw-bob", "203.0.113.99").status_code == 429
