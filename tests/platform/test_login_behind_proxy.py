"""Behind the TLS proxy, a stranger's wrong passwords lock out only the stranger (issue 17.8).

Every request reaches the site from the proxy's address; the client's own is the last one the proxy
appended to X-Forwarded-For. django-axes counts failures per username and that address.
"""

from __future__ import annotations

import pytest
import time_machine
from django.test import Client
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


# -- issue 28, N1: a rival's wrong passwords from many addresses never keep the player out -----------------


def test_ten_wrong_passwords_from_ten_addresses_do_not_refuse_the_right_one(client, alice):
    for n in range(10):
        for _ in range(2):
            _form_login(client, "alice", "wrong", f"203.0.113.{n}")
    answer = _form_login(client, "alice", "pw-alice", PLAYER)
    assert answer.status_code == 302 and answer.url == reverse("home")
    assert _token(client, "alice", "pw-alice", PLAYER).status_code == 200


def test_a_guessers_wait_grows_with_each_wrong_password_and_the_right_one_ends_it(client, alice, settings):
    settings.GENIUS_LOGIN_DELAY_SECONDS = 60
    with time_machine.travel("2026-03-01 12:00:00Z", tick=False) as clock:
        for _ in range(4):
            assert _form_login(client, "alice", "wrong", STRANGER).status_code == 200, "free tries"
        fifth = _form_login(client, "alice", "wrong", STRANGER)
        # The failure that starts a wait says so.
        assert fifth.status_code == 429 and fifth["Retry-After"] == "60"
        page = " ".join(fifth.content.decode().split())
        assert "There were too many wrong passwords for alice from your address." in page
        assert "You can try again in 60 seconds." in page and "Reset it by email" in page
        # While waiting, even the right password is refused, and the refusal is not counted.
        clock.shift(30)
        assert _form_login(client, "alice", "pw-alice", STRANGER).status_code == 429
        refused = _token(client, "alice", "pw-alice", STRANGER)
        assert refused.status_code == 429 and refused["Retry-After"] == "30"
        assert refused.json()["detail"].endswith("Try again in 30 seconds.")
        clock.shift(31)
        sixth = _form_login(client, "alice", "wrong", STRANGER)
        assert sixth.status_code == 429 and sixth["Retry-After"] == "120", "each failure doubles the wait"
        clock.shift(121)
        assert _form_login(client, "alice", "pw-alice", STRANGER).status_code == 302
        assert _form_login(Client(), "alice", "wrong", STRANGER).status_code == 200, "the count is over"


def test_one_address_trying_many_usernames_waits_and_nobody_else_does(client, alice, settings):
    settings.GENIUS_LOGIN_ADDRESS_FREE_TRIES = 20
    for n in range(20):
        _form_login(client, f"someone{n}", "wrong", STRANGER)
    refused = _form_login(client, "alice", "pw-alice", STRANGER)
    assert refused.status_code == 429
    assert "There were too many wrong passwords from your address." in refused.content.decode()
    assert _form_login(client, "alice", "pw-alice", PLAYER).status_code == 302


def test_a_guesser_cannot_clear_the_count_by_logging_in_to_an_account_of_their_own(client, alice, bob):
    for _ in range(4):
        _form_login(client, "alice", "wrong", STRANGER)
    assert _form_login(Client(), "bob", "pw-bob", STRANGER).status_code == 302
    assert _form_login(client, "alice", "wrong", STRANGER).status_code == 429


# -- issue 28, N2: a client's own X-Forwarded-For never makes it the proxy ----------------------------------


def test_clients_that_send_their_own_forwarded_for_are_each_counted_as_themselves(client, alice):
    # Both sit behind proxies of their own (an office's, a school's) that write a header first; ours appends
    # the address each really came from.
    _stranger_tries_five_wrong_passwords(client, "alice", forwarded_for=f"192.168.1.5, {STRANGER}")
    answer = _form_login(Client(), "alice", "pw-alice", f"10.1.1.1, {PLAYER}")
    assert answer.status_code == 302, "the player is not the proxy, nor the stranger"
    assert _form_login(Client(), "alice", "pw-alice", f"8.8.8.8, {STRANGER}").status_code == 429


def test_the_client_is_the_nth_entry_from_the_right_behind_two_proxies(client, alice, settings):
    settings.GENIUS_PROXY_COUNT = 2
    edge = "10.0.0.9"  # the outer proxy, as the inner one saw it
    _stranger_tries_five_wrong_passwords(client, "alice", forwarded_for=f"{PLAYER}, {STRANGER}, {edge}")
    assert _form_login(Client(), "alice", "pw-alice", f"{PLAYER}, {edge}").status_code == 302
    assert _form_login(Client(), "alice", "pw-alice", f"{STRANGER}, {edge}").status_code == 429


def test_a_request_without_the_header_is_counted_as_the_machine_that_sent_it(client, alice):
    # Behind the proxy, a request with no X-Forwarded-For did not come through it (a health check, a
    # machine inside the network): its own address is REMOTE_ADDR, which no client behind the proxy shares.
    inside = {"REMOTE_ADDR": PROXY}
    for _ in range(5):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}, **inside)
    right = client.post(reverse("login"), {"username": "alice", "password": "pw-alice"}, **inside)
    assert right.status_code == 429
    assert _form_login(Client(), "alice", "pw-alice", PLAYER).status_code == 302
