"""No name can pass for another player's (issue 28, N3): display names and usernames are kept in NFKC form,
invisible and direction characters are refused, and so is a name whose confusables skeleton (Unicode TR39)
is another person's display name or username, each in a player's words next to the field. Names chosen
before stay as they are."""

from __future__ import annotations

import re

import pytest
import responses
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.platform.models import Profile
from games.platform.services.invitations import invitation_create
from tests.platform.discord_standin import AUTHORIZE, NELLY, Discord, configure

pytestmark = pytest.mark.django_db

LOOKS_LIKE = "That looks too much like another player&#x27;s name"
HIDES = "cannot hold invisible characters or ones that turn the text around"
NEW = "a-Fresh-Secret-7713"


@pytest.fixture
def player2(make_user):
    return make_user("player2")


def next_to(field: str, words: str, page: str) -> bool:
    return bool(re.search(rf'has-error">.*name="{field}".*{re.escape(words)}', page, re.S))


def rename(user, name: str):
    client = Client()
    client.force_login(user)
    return client.post(reverse("profile"), {"display_name": name, "time_zone": "UTC"})


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pla\u0443er2", LOOKS_LIKE),  # a Cyrillic у
        ("pIayer2", LOOKS_LIKE),  # a capital I for the l
        ("PLAYER2", "Another player already goes by that name."),
        (
            "\uff50\uff4c\uff41\uff59\uff45\uff52\uff12",
            "Another player already goes by that name.",
        ),  # fullwidth
        ("player2\u200b", HIDES + " (U+200B ZERO WIDTH SPACE)"),
        ("\u202eevil", HIDES + " (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("Ali\u3164", HIDES + " (U+3164 HANGUL FILLER)"),
    ],
)
def test_a_display_name_that_could_pass_for_another_players_is_refused_next_to_the_field(
    alice, player2, name, words
):
    answer = rename(alice, name)
    assert answer.status_code == 400
    assert next_to("display_name", words, answer.content.decode())
    assert Profile.objects.get(user=alice).display_name == ""


def test_a_display_name_that_looks_like_another_display_name_is_refused(alice, bob):
    assert rename(bob, "Bobby Tables").status_code == 302
    answer = rename(alice, "Bobby TabIes")
    assert answer.status_code == 400 and next_to("display_name", LOOKS_LIKE, answer.content.decode())


def test_a_display_name_is_kept_in_nfkc_form(alice):
    assert rename(alice, "\uff21li  the \u2160I").status_code == 302  # fullwidth A, a Roman numeral one
    assert Profile.objects.get(user=alice).display_name == "Ali the II"


def test_names_chosen_before_stay_as_they_are_and_new_ones_are_checked_against_them(alice, bob):
    Profile.objects.filter(user=bob).update(display_name="\u0391lice")  # a Greek Alpha, from before the rules
    kept = Client()
    kept.force_login(bob)
    saved = kept.post(reverse("profile"), {"display_name": "\u0391lice", "time_zone": "Asia/Tokyo"})
    assert saved.status_code == 302, "its owner saves the profile with the name unchanged"
    assert Profile.objects.get(user=bob).display_name == "\u0391lice"
    answer = rename(alice, "AIice")
    assert answer.status_code == 400 and next_to("display_name", LOOKS_LIKE, answer.content.decode())


@pytest.fixture
def invited(season, hank):
    client = Client()
    client.get(reverse("join", args=[invitation_create(season=season, actor=hank).token]))
    return client


@pytest.mark.parametrize(
    ("username", "words"),
    [
        ("\u0440layer2", LOOKS_LIKE),  # a Cyrillic р
        ("p1ayer2", LOOKS_LIKE),
        ("player2\u200d", HIDES + " (U+200D ZERO WIDTH JOINER)"),
    ],
)
def test_a_username_that_could_pass_for_another_players_is_refused_at_sign_up(
    invited, player2, username, words
):
    before = get_user_model().objects.count()
    answer = invited.post(
        reverse("account_signup"), {"username": username, "password1": NEW, "password2": NEW}
    )
    assert answer.status_code == 200
    assert next_to("username", words, answer.content.decode())
    assert get_user_model().objects.count() == before


def test_a_username_is_kept_in_nfkc_form(invited):
    answer = invited.post(
        reverse("account_signup"), {"username": "\uff4e\uff45\uff57", "password1": NEW, "password2": NEW}
    )
    assert answer.status_code == 302
    assert get_user_model().objects.filter(username="new").exists()


def test_a_discord_name_that_could_pass_for_another_players_is_not_taken(settings, season, hank, player2):
    configure(settings)
    stand_in = Discord(user={**NELLY, "global_name": "pla\u0443er2", "username": "p1ayer2"})
    client = Client()
    client.get(reverse("join", args=[invitation_create(season=season, actor=hank).token]))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        start = client.post(reverse("discord_login"))
        assert start.url.startswith(AUTHORIZE)
        assert client.get(stand_in.authorize(start.url)).status_code == 302
    newcomer = get_user_model().objects.get(socialaccount__uid=NELLY["id"])
    assert newcomer.profile.display_name == "", "Discord's name would pass for player2's"
    assert newcomer.username not in ("p1ayer2", "player2")
