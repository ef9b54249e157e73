"""Pair chats are private to their two players and the hosts; webhooks post announcements, signed, retried."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.urls import reverse

from games.platform import outbox
from games.platform.models import ChatMessage, OutboxTask, Webhook
from games.platform.services.events import announcement_post
from games.platform.services.games import game_seat
from tests.api_support import api

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(tally, charlie):
    """Tally with a third player: charlie is seated, but not in alice and bob's chat."""
    from games.platform.models import Game

    Game.objects.filter(pk=tally.pk).update(status="draft")
    tally.refresh_from_db()
    game_seat(game=tally, user=charlie, actor=None)
    Game.objects.filter(pk=tally.pk).update(status="running")
    tally.refresh_from_db()
    return tally


def test_two_players_chat_and_the_host_reads_it(trio, alice, bob, hank):
    url = reverse("api-chat", args=[trio.id, 0, 1])
    assert api(alice).post(url, {"text": "Trade my C for your F?"}).status_code == 201
    assert api(bob).post(url, {"text": "Deal."}).status_code == 201
    texts = [m["text"] for m in api(bob).get(url).json()]
    assert texts == ["Trade my C for your F?", "Deal."]
    assert [m["text"] for m in api(hank).get(url).json()] == texts


def test_a_third_player_gets_404_on_someone_elses_chat(trio, alice, charlie, client):
    api(alice).post(reverse("api-chat", args=[trio.id, 0, 1]), {"text": "CANARY-CHAT"})
    assert api(charlie).get(reverse("api-chat", args=[trio.id, 0, 1])).status_code == 404
    assert api(charlie).post(reverse("api-chat", args=[trio.id, 0, 1]), {"text": "hi"}).status_code == 404
    client.force_login(charlie)
    assert client.get(reverse("chat", args=[trio.id, 0, 1])).status_code == 404
    assert "CANARY-CHAT" not in client.get(reverse("chat-list", args=[trio.id])).content.decode()


def test_spectators_have_no_chats(trio, client):
    assert client.get(reverse("chat-list", args=[trio.id])).status_code == 404
    assert client.get(reverse("chat", args=[trio.id, 0, 1])).status_code == 404


def test_the_chat_page_sends_and_shows_messages_and_keeps_a_refused_draft(trio, alice, hank, client):
    client.force_login(alice)
    url = reverse("chat", args=[trio.id, 0, 1])
    client.post(url, {"text": "hello bob"})
    assert "hello bob" in client.get(url).content.decode()
    api(hank).post(reverse("api-host-mute", args=[trio.id]), {"muted": True}, format="json")
    refused = client.post(url, {"text": "my long careful draft"})
    page = refused.content.decode()
    assert refused.status_code == 400 and "muted" in page and "my long careful draft" in page
    assert ChatMessage.objects.count() == 1


def test_only_hosts_mute_chats(trio, alice):
    assert (
        api(alice).post(reverse("api-host-mute", args=[trio.id]), {"muted": True}, format="json").status_code
        == 403
    )


class Receiver(BaseHTTPRequestHandler):
    answers: list[int] = []
    received: list[tuple[dict, str]] = []
    keys: list[str] = []  # each post's Idempotency-Key

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.received.append((json.loads(body), self.headers.get("X-Genius-Signature", ""), body))
        Receiver.keys.append(self.headers.get("Idempotency-Key", ""))
        self.send_response(Receiver.answers.pop(0) if Receiver.answers else 204)
        self.end_headers()

    def log_message(self, *args):
        return


@pytest.fixture
def receiver(settings):
    # A receiver on this machine, over plain http: allowed for these tests only.
    settings.GENIUS_WEBHOOKS_HTTP = True
    settings.GENIUS_WEBHOOKS_TO_LOOPBACK = True
    Receiver.answers, Receiver.received, Receiver.keys = [], [], []
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_an_announcement_reaches_the_webhook_in_discords_shape_signed(
    tally, receiver, django_capture_on_commit_callbacks
):
    Webhook.objects.create(game=tally, url=receiver, secret="s3cret")
    with django_capture_on_commit_callbacks(execute=True):
        event = announcement_post(game=tally, text="Round 2 lasts 48 hours.", category="erratum")
    ((payload, sig, body),) = Receiver.received
    assert payload["content"] == "Erratum: Round 2 lasts 48 hours."
    assert payload["genius"]["event"] == event.ref, "a ref, not the global id that counts hidden events"
    assert payload["embeds"][0]["title"].startswith("Tally")
    assert sig == "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()


def test_the_webhook_is_retried_after_a_500_with_the_same_idempotency_key(
    tally, receiver, django_capture_on_commit_callbacks, settings
):
    settings.GENIUS_WEBHOOK_RETRY_SECONDS = 0  # the retry is due at once
    Webhook.objects.create(season=tally.season, url=receiver)
    Receiver.answers = [500, 200]
    with django_capture_on_commit_callbacks(execute=True):
        announcement_post(game=tally, text="General: welcome.")
    assert len(Receiver.received) == 1
    (owed,) = OutboxTask.objects.all()  # the failure is on its row: due again after the backoff
    assert owed.attempts == 1 and "answered 500" in owed.last_error
    assert outbox.relay() == 1
    assert len(Receiver.received) == 2
    assert Receiver.received[0][0] == Receiver.received[1][0]
    assert Receiver.keys[0] and Receiver.keys[0] == Receiver.keys[1], "a receiver can drop a copy by its key"
    assert not OutboxTask.objects.exists()
    assert outbox.relay() == 0 and len(Receiver.received) == 2


def test_private_reveals_never_reach_webhooks(tally, alice, receiver, django_capture_on_commit_callbacks):
    from games.platform.services.rounds import round_resolve, submission_save
    from tests.conftest import seat_of

    Webhook.objects.create(game=tally, url=receiver)
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3})
    with django_capture_on_commit_callbacks(execute=True):
        round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    contents = [p["content"] for p, _, _ in Receiver.received]
    assert "Round 0 total: 3." in contents
    assert not any("you picked" in c for c in contents)
