"""Accounts against a second red team (issue 28, O1-O4), through HTTP with a local stand-in for Discord:
a session held for a moment cannot add a way in, a confirmation link logs nobody out, an address belongs to
one account only, and the sign-up forms answer the same for a taken address and a free one."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.platform.services.invitations import invitation_create

pytestmark = pytest.mark.django_db

NEW = "a-New-Secret-4417"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.GENIUS_SITE_URL = "http://localhost:8000"


def logged_in(username: str) -> Client:
    client = Client()
    answer = client.post(reverse("login"), {"login": username, "password": f"pw-{username}"})
    assert answer.status_code == 302
    return client


def invited(season, hank) -> Client:
    client = Client()
    client.get(reverse("join", args=[invitation_create(season=season, actor=hank).token]))
    return client


def link_in(message, path: str) -> str:
    return re.search(rf"http://localhost:8000({re.escape(path)}\S+/)", message.body).group(1)


# -- O2: opening a confirmation link logs nobody out ----------------------------------------------------------


def test_a_confirmation_link_opened_by_someone_else_logs_nobody_out(season, hank, bob):
    newcomer = invited(season, hank)
    mail.outbox.clear()
    newcomer.post(
        reverse("account_signup"),
        {"username": "newcomer", "email": "new@example.com", "password1": NEW, "password2": NEW},
    )
    link = link_in(mail.outbox[0], "/accounts/confirm-email/")
    # Posted in a chat, the link is opened by bob, logged in as himself.
    reader = logged_in("bob")
    page = reader.get(link)
    assert page.status_code == 200 and 'method="post"' in page.content.decode()
    assert reader.get(reverse("profile")).status_code == 200, "a GET logs nobody out"
    assert not EmailAddress.objects.get(email="new@example.com").verified, "nor confirms anything"
    reader.post(link)
    assert EmailAddress.objects.get(email="new@example.com").verified
    assert reader.get(reverse("profile")).status_code == 200, "pressing the button logs nobody out either"
