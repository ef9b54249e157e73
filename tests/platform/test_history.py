"""Trust in the hosts' secrets and the history of a finished game."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.urls import reverse

from games.platform.models import Event, Game
from games.platform.services.commitment import canonical, hidden_data_changed
from games.platform.services.rounds import round_resolve, submission_save
from tests.conftest import seat_of

pytestmark = pytest.mark.django_db


def finish(game):
    for rnd in game.rounds.order_by("number"):
        round_resolve(round_id=rnd.id, early=True)
    while game.rounds.filter(status="open").exists():
        round_resolve(round_id=game.rounds.get(status="open").id, early=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_start_publishes_a_commitment_that_hides_the_data(tally, client):
    assert len(tally.commitment) == 64
    announced = Event.objects.get(game=tally, text__contains=tally.commitment)
    assert announced.kind == "announcement"
    page = client.get(reverse("game", args=[tally.id])).content.decode()
    assert tally.commitment in page
    assert "CANARY-SECRET-WORD" not in page and tally.commitment_salt not in page


def test_the_commitment_check_passes_for_an_untouched_game(tally, client):
    finish(tally)
    page = client.get(reverse("game-history", args=[tally.id])).content.decode()
    assert "Verified:" in page and tally.commitment_salt in page and "CANARY-SECRET-WORD" in page
    # Anyone can recompute it by hand from what the page shows.
    data = canonical({"secret_word": "CANARY-SECRET-WORD"})
    assert hashlib.sha256((tally.commitment_salt + data).encode()).hexdigest() == tally.commitment


def test_the_commitment_check_fails_for_a_tampered_game(tally, hank, client):
    Game.objects.filter(pk=tally.pk).update(settings={**tally.settings, "secret_word": "CHANGED"})
    hidden_data_changed(game=tally, actor=hank, reason="a typo in the word")
    assert Event.objects.filter(
        game=tally, kind="announcement", text__contains="changed the hidden data"
    ).exists()
    tally.refresh_from_db()
    finish(tally)
    page = client.get(reverse("game-history", args=[tally.id])).content.decode()
    assert "Does not match:" in page and "Verified:" not in page


def test_the_history_opens_only_after_the_end_except_to_hosts(tally, alice, hank, client):
    url = reverse("game-history", args=[tally.id])
    client.force_login(alice)
    assert client.get(url).status_code == 404
    assert client.get(reverse("game-export", args=[tally.id])).status_code == 404
    client.force_login(hank)
    assert client.get(url).status_code == 200


def test_the_history_reveals_every_private_event_and_the_export_holds_the_whole_game(
    tally, alice, bob, client
):
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3, "secret_note": "first"})
    submission_save(
        seat=seat_of(tally, alice), round_number=0, payload={"number": 4, "secret_note": "second"}
    )
    finish(tally)
    page = client.get(reverse("game-history", args=[tally.id])).content.decode()
    assert "to alice:" in page and "Round 0: you picked 4." in page
    # The submissions (JSON, wide) scroll in their own box that says so on a phone, not the whole card.
    assert '<div class="scroll-x" role="region" aria-label="Every submission (scrolls sideways)"' in page
    export = json.loads(client.get(reverse("game-export", args=[tally.id])).content)
    assert [s["payload"]["secret_note"] for s in export["submissions"]] == ["first", "second"]
    assert export["hidden_data"] == {"secret_word": "CANARY-SECRET-WORD"}
    assert export["commitment"]["matches"] is True
    assert export["game"]["seed"] == tally.seed
    assert {e["kind"] for e in export["events"]} == {"announcement", "reveal"}
    assert any(e["what"] == "points" and e["player"] == "alice" for e in export["ledger"])
