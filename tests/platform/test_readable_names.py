"""Names a host can read (issue 21.5): submissions, ledger entries, events and seats say what they are."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from games.platform.models import Event, LedgerEntry, Submission
from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import submission_save

pytestmark = pytest.mark.django_db


def test_a_submission_reads_player_round_final_and_time(tally, alice):
    at = timezone.make_aware(dt.datetime(2025, 3, 1, 14, 2))
    with time_machine.travel(at, tick=False):
        saved = submission_save(
            seat=tally.seats.get(user=alice), round_number=0, payload={"number": 3}, final=True
        )
    assert str(saved) == "alice, Round 0, final, 14:02"


def test_an_event_reads_where_and_what(tally, alice):
    reveal = Event.objects.create(
        game=tally, kind="reveal", seat=tally.seats.get(user=alice), round_number=2, text="You picked 3."
    )
    assert str(reveal) == "Round 2, to alice: You picked 3."
    started = Event.objects.filter(game=tally, kind="announcement").first()
    assert str(started) == "Before the rounds, result: Tally has started."


def test_a_ledger_entry_reads_account_change_and_reason(tally, alice, season):
    ledger_post(season=season, user=alice, what="garnets", delta=2, reason="a host's grant")
    entry = LedgerEntry.objects.get(reason="a host's grant")
    assert str(entry) == "alice garnets: +2, a host's grant"


def test_the_admin_names_every_list_in_words(client, tally, hank, alice):
    submission_save(seat=tally.seats.get(user=alice), round_number=0, payload={"number": 3})
    client.force_login(hank)
    index = client.get("/admin/").content.decode()
    assert "Ledger entries" in index and "Ledger entrys" not in index
    assert "Audit log entries" in index
    listing = client.get("/admin/platform/submission/").content.decode()
    assert "Submission object" not in listing and "alice" in listing
    assert Submission.objects.get().seat.user == alice
