"""Logging in with Discord (issue 23.2), the whole OAuth2 exchange against a local stand-in (no network):
configured from the environment, hidden when unset, a newcomer from an invitation gets Discord's name, an
existing account connects its Discord identity from the account page and logs in with it afterwards."""

from __future__ import annotations

import pytest
import responses
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.platform.models import Profile, SeasonPlayer
from games.platform.services.invitations import invitation_create
from games.platform.services.profiles import profile_save
from tests.platform.discord_standin import AUTHORIZE, NELLY, Discord, configure

pytestmark = pytest.mark.django_db


@pytest.fixture
def discord(settings):
    configure(settings)
    stand_in = Discord(user=dict(NELLY))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        yield stand_in


def through_discord(client: Client, discord: Discord, **form):
    """Press the Discord button, accept on (the stand-in) Discord, come back: the site's last answer."""
    start = client.post(reverse("discord_login"), form)
    assert start.status_code == 302 and start.url.startswith(AUTHORIZE), start
    return client.get(discord.authorize(start.url))


def test_without_a_client_id_the_button_is_hidden_and_its_routes_are_not_there(settings, season, hank):
    settings.SOCIALACCOUNT_PROVIDERS = {"discord": {"APPS": []}}
    assert "Discord" not in Client().get(reverse("login")).content.decode()
    invitation = invitation_create(season=season, actor=hank)
    assert "Discord" not in Client().get(reverse("join", args=[invitation.token])).content.decode()
    assert Client().post(reverse("discord_login")).status_code == 404


def test_the_settings_read_the_client_id_and_secret_from_the_environment():
    import os
    import subprocess
    import sys

    read = "import genius.settings as s; print(s.SOCIALACCOUNT_PROVIDERS['discord']['APPS'])"
    env = {**os.environ, "DISCORD_CLIENT_ID": "id-from-env", "DISCORD_CLIENT_SECRET": "secret-from-env"}
    given = subprocess.run([sys.executable, "-c", read], env=env, capture_output=True, text=True, check=True)
    assert given.stdout.strip() == "[{'client_id': 'id-from-env', 'secret': 'secret-from-env'}]"
    env.pop("DISCORD_CLIENT_SECRET")
    unset = subprocess.run([sys.executable, "-c", read], env=env, capture_output=True, text=True, check=True)
    assert unset.stdout.strip() == "[]", "half a configuration is none"


def test_a_newcomer_joins_a_season_with_discord_and_starts_with_discords_name(discord, season, hank):
    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    assert "Join with Discord" in client.get(reverse("join", args=[invitation.token])).content.decode()
    back = through_discord(client, discord)
    assert back.status_code == 302
    account = SocialAccount.objects.get(provider="discord", uid=NELLY["id"])
    assert SeasonPlayer.objects.filter(season=season, user=account.user).exists()
    assert Profile.objects.get(user=account.user).display_name == "Nelly the Great"
    (asked,) = discord.token_requests
    assert asked["client_id"] == ["stand-in-client"] and asked["grant_type"] == ["authorization_code"]


def test_a_stranger_from_discord_without_an_invitation_gets_no_account(discord):
    back = through_discord(Client(), discord)
    assert back.status_code == 200 and "Sign-up is by invitation" in back.content.decode()
    assert not get_user_model().objects.filter(email="nelly@example.com").exists()


def test_a_forged_state_logs_nobody_in(discord, settings):
    client = Client()
    start = client.post(reverse("discord_login"))
    forged = discord.authorize(start.url).replace("state=", "state=forged")
    answer = client.get(forged)
    assert "_auth_user_id" not in client.session
    assert answer.status_code == 401 and not SocialAccount.objects.exists()


def test_an_existing_account_connects_discord_from_its_page_and_logs_in_with_it(discord, alice):
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Connect Discord" in page
    back = through_discord(client, discord, process="connect", next=reverse("profile"))
    assert back.status_code == 302 and back.url == reverse("account_reauthenticate"), "the password first"
    assert not SocialAccount.objects.exists()
    assert client.post(reverse("account_reauthenticate"), {"password": "pw-alice"}).status_code == 302
    assert SocialAccount.objects.get(provider="discord").user == alice
    assert "Connected to Discord as" in client.get(reverse("profile")).content.decode()
    # alice had no display name: Discord's becomes hers.
    assert Profile.objects.get(user=alice).display_name == "Nelly the Great"
    fresh = Client()
    assert through_discord(fresh, discord).status_code == 302
    assert fresh.session["_auth_user_id"] == str(alice.pk)


def test_connecting_keeps_a_display_name_already_chosen(discord, alice):
    profile_save(user=alice, display_name="Ali")
    client = Client()
    client.force_login(alice)
    through_discord(client, discord, process="connect")
    client.post(reverse("account_reauthenticate"), {"password": "pw-alice"})
    assert SocialAccount.objects.get(provider="discord").user == alice
    assert Profile.objects.get(user=alice).display_name == "Ali"
