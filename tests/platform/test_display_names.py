"""A display name is "shown on every page in place of the username" (issue 23.4): in the chat and pick APIs
beside the username a client posts, on the season's transfer form, in the chat email; in the hosts' admin
(console, seats, audit log, chats) as "Ali the Bold (alice)", since hosts find accounts by username."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.platform.models import AuditLog, Season
from games.platform.services.chat import chat_post
from games.platform.services.profiles import profile_save
from games.platform.services.season import pick_open
from tests.api_support import api

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(alice, bob):
    profile_save(user=alice, display_name="Ali the Bold")
    profile_save(user=bob, display_name="Bobby Tables")


def test_the_chat_api_names_the_author_as_they_go_by(tally, alice, bob, named):
    url = reverse("api-chat", args=[tally.id, 0, 1])
    written = api(alice).post(url, {"text": "hello"}, format="json")
    assert written.status_code == 201
    assert (written.json()["author"], written.json()["author_username"]) == ("Ali the Bold", "alice")
    (read,) = api(bob).get(url).json()
    assert (read["author"], read["author_username"]) == ("Ali the Bold", "alice")


def test_the_chat_email_names_the_writer_as_they_go_by(
    tally, alice, bob, named, django_capture_on_commit_callbacks
):
    from games.platform.models import NotificationPreference

    NotificationPreference.objects.create(user=bob, chat_message=True)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        chat_post(
            game=tally,
            author_seat=tally.seats.get(user=alice),
            other_seat=tally.seats.get(user=bob),
            text="hi",
        )
    chat_post(
        game=tally, author_seat=tally.seats.get(user=alice), other_seat=tally.seats.get(user=bob), text="hi"
    )
    (email,) = mail.outbox
    assert email.subject == "Tally: Ali the Bold wrote to you"
    assert "alice" not in email.subject + email.body


def test_the_pick_api_names_the_candidate_and_opponent_as_they_go_by(tally, alice, bob, named):
    pick_open(game=tally, candidate=alice, now=timezone.now())
    seen = api(alice).get(reverse("api-pick", args=[tally.id])).json()
    assert (seen["candidate"], seen["candidate_name"], seen["opponent_name"]) == (
        "alice",
        "Ali the Bold",
        None,
    )
    picked = api(alice).post(reverse("api-pick", args=[tally.id]), {"opponent": "bob"}, format="json").json()
    assert (picked["opponent"], picked["opponent_name"]) == ("bob", "Bobby Tables")


def test_the_transfer_form_lists_players_by_the_names_they_go_by(tally, alice, bob, named):
    Season.objects.filter(pk=tally.season_id).update(settings={"transfers_allowed": True})
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("season", args=[tally.season_id])).content.decode()
    form = page.split('action="/seasons/', 1)[1].split("</form>", 1)[0]
    assert '<option value="bob">Bobby Tables</option>' in form
    assert "Ali the Bold" not in form, "nobody gives garnets to themselves"
    assert "(username)" not in form


def test_the_console_and_the_admin_name_players_with_their_usernames_beside(
    client, tally, hank, alice, bob, named
):
    client.force_login(hank)
    console = client.get(f"/admin/platform/game/{tally.id}/change/").content.decode()
    assert "<td>Ali the Bold (alice)</td>" in console and "<td>Bobby Tables (bob)</td>" in console
    answer = client.post(f"/admin/platform/game/{tally.id}/host/remind/")
    said = str(list(get_messages(answer.wsgi_request))[-1])
    assert said == "Ali the Bold (alice): email sent; Bobby Tables (bob): email sent."
    # The log keeps the usernames (what finds the accounts), and names its actor as hosts read people.
    assert AuditLog.objects.get(action="remind").detail["emailed"] == ["alice", "bob"]
    profile_save(user=hank, display_name="Hank the Host")
    log = client.get("/admin/platform/auditlog/").content.decode()
    assert re.search(r"Hank the Host \(hank\)", log)
    # A seat, wherever the admin names one (here a chat's two seats and its author).
    chat_post(
        game=tally, author_seat=tally.seats.get(user=alice), other_seat=tally.seats.get(user=bob), text="hi"
    )
    chats = client.get("/admin/platform/chatmessage/").content.decode()
    assert "Ali the Bold (alice), seat 1" in chats and "Bobby Tables (bob), seat 2" in chats
    assert '<td class="field-written_by">Ali the Bold (alice)</td>' in chats


def test_a_player_without_a_display_name_reads_as_their_username_in_the_admin(client, tally, hank):
    client.force_login(hank)
    console = client.get(f"/admin/platform/game/{tally.id}/change/").content.decode()
    assert "<td>alice</td>" in console
    assert str(tally.seats.get(number=0)) == "alice, seat 1"


def test_logging_in_is_said_in_the_sites_words_with_the_name_one_goes_by(alice, named):
    landed = Client().post(reverse("login"), {"login": "alice", "password": "pw-alice"}, follow=True)
    said = [str(m) for m in landed.context["messages"]]
    assert said == ["Logged in as Ali the Bold."], "not allauth's 'Successfully signed in as'"
