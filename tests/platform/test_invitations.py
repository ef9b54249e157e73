"""Invitations (issue 23.1): a season's host makes a link in the admin or the API; a newcomer signs up, or
logs in, and joins the season as a player in one step; an expired or used-up link says so plainly; sign-up
without one is off unless GENIUS_OPEN_SIGNUP says otherwise."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.platform.errors import StateChanged
from games.platform.models import Invitation, Season, SeasonPlayer
from games.platform.services.invitations import invitation_accept, invitation_create
from tests.api_support import api

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation(season, hank):
    return invitation_create(season=season, actor=hank, hours=48, max_uses=3)


def join_url(invitation) -> str:
    return reverse("join", args=[invitation.token])


def sign_up(client, username, *, email="", next_url=""):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": "a-Long-secret-77",
            "password2": "a-Long-secret-77",
            "next": next_url,
        },
    )


def test_a_newcomer_signs_up_from_the_link_and_is_a_player_of_the_season(invitation, season):
    client = Client()
    page = client.get(join_url(invitation))
    assert page.status_code == 200 and "Join Season 1" in page.content.decode()
    form = client.get(reverse("account_signup")).content.decode()
    assert "You join <strong>Season 1</strong> as a player as your account is made." in form
    assert ">Log in</a> and join." in form and "sign in" not in form
    done = sign_up(client, "newcomer", next_url=join_url(invitation))
    assert done.status_code == 302
    newcomer = get_user_model().objects.get(username="newcomer")
    assert SeasonPlayer.objects.filter(season=season, user=newcomer).exists()
    invitation.refresh_from_db()
    assert invitation.uses == 1
    # The link now takes the new player to the season's page, using no other place.
    landing = client.get(done.url, follow=True)
    assert landing.redirect_chain[-1][0] == reverse("season", args=[season.id])
    assert "You are a player of Season 1." in landing.content.decode()
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_someone_with_an_account_logs_in_from_the_link_and_joins(invitation, season, alice):
    client = Client()
    client.get(join_url(invitation))
    answer = client.post(
        reverse("login"), {"login": "alice", "password": "pw-alice", "next": join_url(invitation)}
    )
    assert answer.status_code == 302
    assert SeasonPlayer.objects.filter(season=season, user=alice).exists()


def test_a_logged_in_user_joins_with_one_button(invitation, season, bob):
    client = Client()
    client.force_login(bob)
    assert "Join Season 1 as bob" in client.get(join_url(invitation)).content.decode()
    assert not SeasonPlayer.objects.filter(season=season, user=bob).exists(), "opening it changes nothing"
    answer = client.post(join_url(invitation))
    assert answer.status_code == 302 and answer.url == reverse("season", args=[season.id])
    assert SeasonPlayer.objects.filter(season=season, user=bob).exists()


def test_an_expired_link_says_so_plainly(invitation):
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    page = Client().get(join_url(invitation))
    assert page.status_code == 410
    assert "This invitation to Season 1 expired on" in page.content.decode()
    assert "Ask the season" in page.content.decode()
    # The time is the instant, which the page's script shows in the visitor's own zone.
    expired = Invitation.objects.get(pk=invitation.pk).expires_at.isoformat()
    assert f'expired on <time class="local" datetime="{expired}">' in page.content.decode()


def test_a_used_up_link_says_so_plainly_and_the_last_place_goes_to_one_person(season, hank, make_user):
    invitation = invitation_create(season=season, actor=hank, max_uses=1)
    first, second = make_user("first"), make_user("second")
    invitation_accept(token=invitation.token, user=first)
    with pytest.raises(StateChanged, match="has been used up"):
        invitation_accept(token=invitation.token, user=second)
    page = Client().get(join_url(invitation))
    assert page.status_code == 410 and "has been used up (1 of 1 places taken)" in page.content.decode()
    assert not SeasonPlayer.objects.filter(season=season, user=second).exists()


def test_an_unknown_link_says_so(db):
    page = Client().get(reverse("join", args=["not-a-real-token"]))
    assert page.status_code == 404 and "This invitation link is not valid" in page.content.decode()


def test_the_token_is_long_and_random(season, hank):
    tokens = {invitation_create(season=season, actor=hank).token for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 43 for t in tokens)


def test_sign_up_without_an_invitation_is_closed_by_default_and_opened_by_the_setting(settings):
    closed = sign_up(Client(), "walkin")
    assert closed.status_code == 200 and "Sign-up is by invitation" in closed.content.decode()
    assert not get_user_model().objects.filter(username="walkin").exists()
    assert "Sign up" not in Client().get(reverse("home")).content.decode()
    settings.GENIUS_OPEN_SIGNUP = True
    form = Client().get(reverse("account_signup")).content.decode()
    assert "Create your account" in form and "You join" not in form, "no season without an invitation"
    assert sign_up(Client(), "walkin").status_code == 302
    assert get_user_model().objects.filter(username="walkin").exists()


def test_an_expired_link_opens_no_sign_up(invitation):
    client = Client()
    client.get(join_url(invitation))
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert "Sign-up is by invitation" in sign_up(client, "late").content.decode()
    assert not get_user_model().objects.filter(username="late").exists()


# -- the API and the admin, for every role -----------------------------------------------------------------


def test_a_host_makes_and_lists_invitations_through_the_api(season, hank):
    made = api(hank).post(
        reverse("api-invitations", args=[season.id]), {"hours": 24, "max_uses": 2}, format="json"
    )
    assert made.status_code == 201
    body = made.json()
    assert body["url"].startswith("http://testserver/join/") and body["max_uses"] == 2 and body["uses"] == 0
    listed = api(hank).get(reverse("api-invitations", args=[season.id])).json()
    assert [i["url"] for i in listed] == [body["url"]]
    bad = api(hank).post(reverse("api-invitations", args=[season.id]), {"max_uses": 0}, format="json")
    assert bad.status_code == 400 and "max_uses" in bad.json()["errors"]


def test_nobody_but_the_seasons_hosts_sees_or_makes_its_invitations(
    season, invitation, tally, alice, make_user
):
    other_host = make_user("olga", is_staff=True)
    Season.objects.create(name="Season 2").hosts.add(other_host)
    url = reverse("api-invitations", args=[season.id])
    for who in (None, alice, make_user("charlie"), other_host):
        assert api(who).get(url).status_code in (401, 403), who
        assert api(who).post(url, {}, format="json").status_code in (401, 403), who
    assert Invitation.objects.count() == 1


def test_a_host_makes_an_invitation_in_the_admin_and_another_seasons_host_does_not_see_it(
    season, hank, make_user
):
    client = Client()
    client.force_login(hank)
    form = client.get(reverse("admin:platform_invitation_add")).content.decode()
    assert f'<option value="{season.id}" selected>Season 1</option>' in form, "hank's one season is picked"
    added = client.post(
        reverse("admin:platform_invitation_add"),
        {"season": season.id, "hours": 72, "max_uses": "", "note": "Discord #general"},
    )
    assert added.status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.created_by == hank and invitation.max_uses is None
    assert timedelta(hours=71) < invitation.expires_at - timezone.now() <= timedelta(hours=72)
    listing = client.get(reverse("admin:platform_invitation_changelist")).content.decode()
    assert f">http://localhost:8000{join_url(invitation)}</a>" in listing, "the whole address, to send"
    other = make_user("olga", is_staff=True)
    Season.objects.create(name="Season 2").hosts.add(other)
    client.force_login(other)
    assert (
        join_url(invitation)
        not in client.get(reverse("admin:platform_invitation_changelist")).content.decode()
    )
    assert client.get(reverse("admin:platform_invitation_change", args=[invitation.pk])).status_code == 302
    add_form = client.get(reverse("admin:platform_invitation_add")).content.decode()
    assert "Season 1" not in add_form, "another season's host cannot invite to it"


def test_the_demo_prints_an_open_invitation_that_works(db):
    import io
    import re

    from django.core.management import call_command

    out = io.StringIO()
    call_command("load_demo", "--base-url", "http://127.0.0.1:8123", stdout=out)
    link = re.search(r"http://127\.0\.0\.1:8123(/join/[\w-]+/)", out.getvalue()).group(1)
    page = Client().get(link)
    assert page.status_code == 200 and "Join Demo Season" in page.content.decode()
    again = io.StringIO()
    call_command("load_demo", stdout=again)
    assert link in again.getvalue(), "loading the demo again prints the same link"
