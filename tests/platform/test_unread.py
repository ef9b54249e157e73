"""Unread pair chat messages and round results, through HTTP: counted for their reader only, cleared by
reading; one address per chat whoever opens it; an email per burst of messages for those who ask for it."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve
from tests.api_support import api

pytestmark = pytest.mark.django_db


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def trio(season, hank, alice, bob, charlie):
    """A running Tally of three: alice (seat 0), bob (seat 1), charlie (seat 2); hank hosts."""
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for user in (alice, bob, charlie):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def page(client, game) -> str:
    return client.get(reverse("game", args=[game.id])).content.decode()


def home(client) -> str:
    return client.get(reverse("home")).content.decode()


def unread_line(html: str) -> str | None:
    found = re.search(r'<span id="chats-unread"[^>]*>(.*?)</span>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else None


def test_a_message_is_unread_for_its_reader_everywhere_until_they_open_the_chat(trio, alice, bob):
    ann, ben = client_of(alice), client_of(bob)
    chat = reverse("chat", args=[trio.id, 0, 1])
    assert unread_line(page(ben, trio)) == ""
    ann.post(chat, {"text": "Trade my C for your F?"})
    ann.post(chat, {"text": "Answer soon."})

    assert unread_line(page(ben, trio)) == "2 unread messages"
    assert re.search(
        r"With alice</a> <strong class=\"unread\">2 unread</strong>",
        ben.get(f"/games/{trio.id}/chats/").content.decode(),
    )
    waiting = api(bob).get("/api/me/awaiting/").json()
    assert {
        "need": "unread_messages",
        "text": "2 unread messages from alice",
        "unread": 2,
        "url": chat,
    }.items() <= [a for a in waiting if a["need"] == "unread_messages"][0].items()
    assert "2 unread messages from alice" in home(ben) and f'href="{chat}"' in home(ben)
    assert "<title>(2) genius</title>" in home(ben)  # Round 0 and the chat
    # The writer has nothing unread: they wrote it.
    assert unread_line(page(ann, trio)) == ""
    assert not [a for a in api(alice).get("/api/me/awaiting/").json() if a["need"] == "unread_messages"]

    assert "Answer soon." in ben.get(chat).content.decode()  # opening it reads it
    assert unread_line(page(ben, trio)) == ""
    assert "unread" not in ben.get(f"/games/{trio.id}/chats/").content.decode()
    assert "unread messages" not in home(ben)
    assert not [a for a in api(bob).get("/api/me/awaiting/").json() if a["need"] == "unread_messages"]


def test_reading_through_the_api_or_answering_clears_the_count_too(trio, alice, bob):
    url = reverse("api-chat", args=[trio.id, 0, 1])
    api(alice).post(url, {"text": "one"})
    assert unread_line(page(client_of(bob), trio)) == "1 unread message"
    api(bob).get(url)
    assert unread_line(page(client_of(bob), trio)) == ""
    api(alice).post(url, {"text": "two"})
    api(bob).post(url, {"text": "answered without looking"})
    assert unread_line(page(client_of(bob), trio)) == ""
    assert unread_line(page(client_of(alice), trio)) == "1 unread message"


def test_nobody_else_sees_a_count_or_can_tell_a_message_was_sent(trio, alice, bob, charlie, hank, make_user):
    other_host = make_user("olga")
    season = trio.season
    game_services.game_create(
        season=season, game_type="tally", name="Olga's", hosts=[other_host], actor=other_host
    )
    outsider = make_user("otto")
    watchers = {
        "charlie (another player)": client_of(charlie),
        "the host": client_of(hank),
        "a logged-in spectator": client_of(outsider),
        "a visitor": client_of(),
        "a host of another game": client_of(other_host),
    }
    before = {who: page(client, trio) for who, client in watchers.items()}
    before_home = {who: home(client) for who, client in watchers.items()}
    client_of(alice).post(reverse("chat", args=[trio.id, 0, 1]), {"text": "only bob may know"})
    assert unread_line(page(client_of(bob), trio)) == "1 unread message"
    for who, client in watchers.items():
        after = page(client, trio)
        assert "unread message" not in after, who
        assert strip_tokens(after) == strip_tokens(before[who]), who
        assert strip_tokens(home(client)) == strip_tokens(before_home[who]), who
    assert "unread" not in client_of(hank).get(f"/games/{trio.id}/chats/").content.decode()
    assert "unread" not in client_of(charlie).get(f"/games/{trio.id}/chats/").content.decode()
    for user in (charlie, hank, outsider, other_host):
        assert not [a for a in api(user).get("/api/me/awaiting/").json() if a["need"] == "unread_messages"]


def strip_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"x-csrftoken": "[^"]+"', "", html)
    html = re.sub(r'nonce="[^"]+"', "", html)
    return re.sub(r'data-now="\d+"', "", html)


def test_a_chat_has_one_address_whoever_opens_it(trio, alice, bob, charlie):
    for user in (alice, bob):
        listing = client_of(user).get(f"/games/{trio.id}/chats/").content.decode()
        assert f"/games/{trio.id}/chats/0-1/" in listing and f"/games/{trio.id}/chats/1-0/" not in listing
    charlies = client_of(charlie).get(f"/games/{trio.id}/chats/").content.decode()
    assert f"/games/{trio.id}/chats/0-2/" in charlies and f"/games/{trio.id}/chats/1-2/" in charlies
    reversed_order = client_of(bob).get(f"/games/{trio.id}/chats/1-0/?x=1")
    assert (
        reversed_order.status_code == 301 and reversed_order["Location"] == f"/games/{trio.id}/chats/0-1/?x=1"
    )
    # A form posted to the other order still sends, and lands on the one address.
    sent = client_of(bob).post(f"/games/{trio.id}/chats/1-0/", {"text": "hi"})
    assert sent.status_code == 302 and sent["Location"] == f"/games/{trio.id}/chats/0-1/"
    assert "hi" in client_of(alice).get(f"/games/{trio.id}/chats/0-1/").content.decode()
    # The redirect tells nobody anything: the one address answers them 404.
    assert client_of(charlie).get(f"/games/{trio.id}/chats/1-0/", follow=True).status_code == 404


def test_results_are_unread_until_the_player_opens_the_game_page(tally, alice, bob):
    def results(user):
        return [a["text"] for a in api(user).get("/api/me/awaiting/").json() if a["need"] == "results"]

    assert results(alice) == results(bob) == []
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    assert results(alice) == results(bob) == ["Results are in your inbox"]
    assert "Results are in your inbox" in home(client_of(bob))
    page(client_of(alice), tally)
    assert results(alice) == [] and results(bob) == ["Results are in your inbox"]
    round_resolve(round_id=tally.rounds.get(number=1).id, early=True)
    assert results(alice) == ["Results are in your inbox"]


def test_chat_emails_once_per_burst_to_those_who_asked(
    trio, alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.GENIUS_SITE_URL = "https://genius.example.org"
    ben = client_of(bob)
    account = ben.get(reverse("profile")).content.decode()
    assert 'name="chat_message"' in account and 'name="chat_message" checked' not in account  # off at first
    ben.post(reverse("profile"), {"display_name": "", "time_zone": "UTC", "chat_message": "on"})
    assert re.search(r'name="chat_message"[^>]* checked', ben.get(reverse("profile")).content.decode())

    ann = client_of(alice)
    chat = reverse("chat", args=[trio.id, 0, 1])
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(chat, {"text": "first"})
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(chat, {"text": "second"})
    assert [(m.to, m.subject) for m in mail.outbox] == [(["bob@example.com"], "Tally: alice wrote to you")]
    assert f"https://genius.example.org{chat}" in mail.outbox[0].body
    assert "first" not in mail.outbox[0].body

    with django_capture_on_commit_callbacks(execute=True):
        ben.get(chat)  # read: the next message starts a new burst
        ann.post(chat, {"text": "third"})
    assert len(mail.outbox) == 2
    # alice never asked: bob's answer sends her nothing.
    with django_capture_on_commit_callbacks(execute=True):
        ben.post(chat, {"text": "ok"})
    assert len(mail.outbox) == 2


def test_an_email_is_not_sent_for_a_chat_read_before_the_worker_came(
    trio, alice, bob, django_capture_on_commit_callbacks
):
    client_of(bob).post(reverse("profile"), {"display_name": "", "time_zone": "UTC", "chat_message": "on"})
    with django_capture_on_commit_callbacks() as queued:
        client_of(alice).post(reverse("chat", args=[trio.id, 0, 1]), {"text": "quick"})
    client_of(bob).get(reverse("chat", args=[trio.id, 0, 1]))
    for send in queued:
        send()
    assert mail.outbox == []
