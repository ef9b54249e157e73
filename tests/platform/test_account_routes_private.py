"""Nothing of one account shows through another's account routes (issue 23; the project's rule that hidden
information never leaks): the account page, its zone, the email and Discord pages, the notification
settings and the token endpoint each show and change only the logged-in user's own; a visitor is sent to log
in. Every route is asked as alice's neighbour bob, a host of another season and a visitor."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games.platform.models import NotificationPreference, Profile
from games.platform.services.profiles import profile_save
from tests.api_support import page_client as logged_in
from tests.platform.discord_standin import configure

pytestmark = pytest.mark.django_db

ROUTES = [
    "profile",
    "notification-settings",
    "account_email",
    "account_change_password",
    "socialaccount_connections",
]


@pytest.fixture
def alices(alice, settings):
    """alice's own things, each with a canary another account must never read."""
    configure(settings)
    profile_save(user=alice, display_name="Canary Alice", time_zone="Asia/Kathmandu", chat_message=True)
    EmailAddress.objects.update_or_create(  # filed as alice was made; now confirmed too
        user=alice, email="alice@example.com", defaults={"primary": True, "verified": True}
    )
    discord = SocialAccount.objects.create(
        user=alice, provider="discord", uid="4242", extra_data={"username": "canary_discord"}
    )
    token = Token.objects.create(user=alice)
    return discord, token


@pytest.fixture
def others(bob, make_user):
    host = make_user("otherhost", is_staff=True)
    return {"bob": bob, "another season's host": host}


CANARIES = ("Canary Alice", '"Asia/Kathmandu" selected', "alice@example.com", "canary_discord", "4242")


def test_each_account_route_shows_only_ones_own(alice, alices, others):
    _, token = alices
    for who, user in others.items():
        client = logged_in(user)
        for route in ROUTES:
            answer = client.get(reverse(route))
            assert answer.status_code == 200, (who, route)
            text = answer.content.decode()
            leaked = [c for c in CANARIES if c in text] + ([token.key] if token.key in text else [])
            assert not leaked, f"{route} as {who} shows {leaked}"
    # alice reads her own there.
    own = logged_in(alice)
    page = own.get(reverse("profile")).content.decode()
    assert "Canary Alice" in page and '"Asia/Kathmandu" selected' in page
    assert "alice@example.com" in own.get(reverse("account_email")).content.decode()


def test_a_visitor_is_sent_to_log_in_from_every_account_route(alices):
    for route in ROUTES:
        answer = Client().get(reverse(route))
        assert answer.status_code == 302 and "login" in answer.url, route
    assert Client().post(reverse("zone-detected"), {"time_zone": "UTC"}).status_code == 403
    tested = Client().post(reverse("notification-test"), {"test": "email"})
    assert tested.status_code == 302 and "login" in tested.url


def test_no_account_route_changes_anothers(alice, alices, bob):
    discord, token = alices
    client = logged_in(bob)
    # Removing alice's address, or making it bob's primary, through bob's email page.
    client.post(reverse("account_email"), {"action_remove": "", "email": "alice@example.com"})
    client.post(reverse("account_email"), {"action_primary": "", "email": "alice@example.com"})
    assert EmailAddress.objects.filter(user=alice, email="alice@example.com", primary=True).exists()
    assert not EmailAddress.objects.filter(user=bob, email="alice@example.com").exists()
    # Disconnecting alice's Discord through bob's connections page.
    client.post(reverse("socialaccount_connections"), {"account": discord.pk})
    assert SocialAccount.objects.filter(pk=discord.pk, user=alice).exists()
    # The profile, the zone and the notification settings are bob's own, whatever is posted.
    client.post(reverse("profile"), {"display_name": "Bobby", "time_zone": "UTC", "user": alice.pk})
    client.post(reverse("zone-detected"), {"time_zone": "Europe/Paris", "user": alice.pk})
    client.post(reverse("notification-settings"), {"user": alice.pk})
    mail.outbox.clear()
    tested = client.post(reverse("notification-test"), {"test": "email", "user": alice.pk}).content.decode()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]] and "alice@example.com" not in tested
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.time_zone) == ("Canary Alice", "Asia/Kathmandu")
    assert NotificationPreference.objects.get(user=alice).chat_message is True
    # A token is handed only for one's own password, and alice's stays hers.
    asked = Client().post(
        reverse("api-token"), {"username": "alice", "password": "pw-bob"}, content_type="application/json"
    )
    assert asked.status_code == 400 and token.key not in asked.content.decode()
    assert Token.objects.filter(pk=token.pk, user=alice).exists()
