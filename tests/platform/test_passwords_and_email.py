"""Passwords and email (issue 23.3 and 23.5): a reset by email, email verification where an email is given,
a password change that ends the other sessions and revokes the API tokens, and rate limits on the new
forms counted per client address as the proxy saw it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games.platform.services.invitations import invitation_create

pytestmark = pytest.mark.django_db

NEW = "a-New-Secret-4417"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.GENIUS_SITE_URL = "http://localhost:8000"


def reset_link() -> str:
    (message,) = mail.outbox
    return re.search(r"http://localhost:8000(/accounts/password/reset/key/\S+/)", message.body).group(1)


def test_a_forgotten_password_is_reset_from_the_emailed_link_and_old_tokens_die(alice):
    token = Token.objects.create(user=alice)
    mail.outbox.clear()
    client = Client()
    asked = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert asked.status_code == 302
    link = reset_link()
    body = mail.outbox[0].body
    assert body.startswith("Hello from genius!") and "Thank you for using genius!" in body
    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'name="password1"' in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW, "password2": NEW})
    assert done.status_code == 302
    assert Client().post(reverse("login"), {"login": "alice", "password": NEW}).status_code == 302
    assert Client().post(reverse("login"), {"login": "alice", "password": "pw-alice"}).status_code == 200
    assert not Token.objects.filter(pk=token.pk).exists()
    again = Client().get(link, follow=True).content.decode()
    assert "Bad Token" in again, "a used link cannot set a password again"


def test_a_reset_asked_for_an_unknown_address_sends_nothing_that_helps_a_stranger(db):
    mail.outbox.clear()
    answer = Client().post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert answer.status_code == 302, "the same answer as for a known address"
    assert all("reset/key" not in m.body for m in mail.outbox)


def test_a_password_change_ends_the_other_sessions_and_revokes_the_api_tokens(alice):
    here, elsewhere = Client(), Client()
    for client in (here, elsewhere):
        assert client.post(reverse("login"), {"login": "alice", "password": "pw-alice"}).status_code == 302
    token = Token.objects.create(user=alice)
    changed = here.post(
        reverse("account_change_password"), {"oldpassword": "pw-alice", "password1": NEW, "password2": NEW}
    )
    assert changed.status_code == 302
    assert here.get(reverse("profile")).status_code == 200, "this session stays"
    assert elsewhere.get(reverse("profile")).status_code == 302, "the other one is logged out"
    assert not Token.objects.filter(pk=token.pk).exists()


def test_an_email_given_at_sign_up_is_sent_a_verification_link(season, hank):
    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    client.get(reverse("join", args=[invitation.token]))
    mail.outbox.clear()
    client.post(
        reverse("account_signup"),
        {"username": "newcomer", "email": "new@example.com", "password1": NEW, "password2": NEW},
    )
    (message,) = mail.outbox
    assert message.to == ["new@example.com"]
    link = re.search(r"http://localhost:8000(/accounts/confirm-email/\S+/)", message.body).group(1)
    client.post(link)
    from allauth.account.models import EmailAddress

    assert EmailAddress.objects.get(email="new@example.com").verified


def test_a_sign_up_without_an_email_sends_nothing_and_works(season, hank):
    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    client.get(reverse("join", args=[invitation.token]))
    mail.outbox.clear()
    answer = client.post(
        reverse("account_signup"), {"username": "quiet", "email": "", "password1": NEW, "password2": NEW}
    )
    assert answer.status_code == 302 and mail.outbox == []
    assert get_user_model().objects.get(username="quiet").email == ""


# -- rate limits behind the proxy ---------------------------------------------------------------------------

PROXY, STRANGER, PLAYER = "10.0.0.2", "203.0.113.66", "198.51.100.7"


def via(address: str) -> dict:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": address}


def test_the_reset_form_is_rate_limited_per_client_address_behind_the_proxy(settings, alice, make_user):
    settings.GENIUS_BEHIND_PROXY = True
    settings.ACCOUNT_RATE_LIMITS = {"reset_password": "3/m/ip"}
    client = Client()
    for n in range(3):
        assert (
            client.post(
                reverse("account_reset_password"), {"email": f"x{n}@example.com"}, **via(STRANGER)
            ).status_code
            == 302
        )
    assert (
        client.post(
            reverse("account_reset_password"), {"email": "y@example.com"}, **via(STRANGER)
        ).status_code
        == 429
    )
    # Everybody reaches the site from the proxy's address: the player's own is still free.
    mail.outbox.clear()
    assert (
        client.post(
            reverse("account_reset_password"), {"email": "alice@example.com"}, **via(PLAYER)
        ).status_code
        == 302
    )
    assert len(mail.outbox) == 1


def test_the_new_login_form_still_locks_out_a_guesser_and_only_the_guesser(settings, alice):
    settings.GENIUS_BEHIND_PROXY = True
    settings.AXES_FAILURE_LIMIT = 3
    guesser, player = Client(), Client()
    for _ in range(3):
        guesser.post(reverse("login"), {"login": "alice", "password": "wrong"}, **via(STRANGER))
    assert (
        guesser.post(
            reverse("login"), {"login": "alice", "password": "pw-alice"}, **via(STRANGER)
        ).status_code
        == 429
    )
    assert (
        player.post(reverse("login"), {"login": "alice", "password": "pw-alice"}, **via(PLAYER)).status_code
        == 302
    )


# -- issue 28, N5: every link in an email is built from GENIUS_SITE_URL -------------------------------------


def test_every_link_in_an_email_is_on_the_site_whatever_host_the_request_named(settings, alice, season, hank):
    settings.ALLOWED_HOSTS = ["genius.example.org", "evil.example"]
    settings.GENIUS_SITE_URL = "https://genius.example.org"
    evil = Client(headers={"host": "evil.example"})
    invitation = invitation_create(season=season, actor=hank)
    mail.outbox.clear()
    evil.post(reverse("account_reset_password"), {"email": "alice@example.com"})  # a reset link
    evil.post(reverse("account_reset_password"), {"email": "nobody@example.com"})  # the sign-up page
    evil.get(reverse("join", args=[invitation.token]))
    evil.post(  # an address to confirm
        reverse("account_signup"),
        {"username": "newcomer", "email": "new@example.com", "password1": NEW, "password2": NEW},
    )
    assert len(mail.outbox) == 3
    for message in mail.outbox:
        links = re.findall(r"https?://\S+", message.body)
        assert links and all(link.startswith("https://genius.example.org/") for link in links), links
        assert "evil.example" not in message.body
