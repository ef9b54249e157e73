"""Submissions: every version kept, the latest before the close counts, errors next to the field."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.platform.errors import RoundClosed, StateChanged
from games.platform.kit import RulesError
from games.platform.models import Event, LedgerAccount, Submission
from games.platform.services.rounds import round_resolve, submission_save
from tests.conftest import seat_of

pytestmark = pytest.mark.django_db


def test_every_saved_version_is_kept_and_the_latest_counts(tally, alice):
    seat = seat_of(tally, alice)
    for number in (1, 5, 2):
        submission_save(seat=seat, round_number=0, payload={"number": number})
    assert list(Submission.objects.filter(seat=seat).values_list("payload__number", flat=True)) == [1, 5, 2]
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    tally.refresh_from_db()
    assert tally.state["picks"]["0"] == {"0": 2}
    assert LedgerAccount.objects.get(user=alice, what="points").balance == 2


def test_a_save_after_the_close_is_refused_with_the_closing_time(tally, alice):
    rnd = tally.rounds.get(number=0)
    with time_machine.travel(rnd.closes_at + timedelta(seconds=1)):
        with pytest.raises(RoundClosed) as err:
            submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 1})
    assert "The round closed at" in err.value.message
    assert not Submission.objects.exists()


def test_a_save_for_a_resolved_round_is_refused_not_moved_to_the_next(tally, alice):
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    with pytest.raises(RoundClosed):
        submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 1})
    assert not Submission.objects.exists()


def test_a_rules_error_names_its_field(tally, alice):
    with pytest.raises(RulesError) as err:
        submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 11})
    assert err.value.field == "number"


def test_the_api_answers_400_with_field_messages_and_409_when_closed(tally, alice):
    client = APIClient()
    client.force_authenticate(alice)
    url = reverse("api-submission", args=[tally.id])
    bad = client.post(url, {"round": 0, "payload": {"number": 12}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"number": ["Pick a number from 0 to 10."]}
    ok = client.post(url, {"round": 0, "payload": {"number": 4}}, format="json")
    assert ok.status_code == 201
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        late = client.post(url, {"round": 0, "payload": {"number": 5}}, format="json")
    assert late.status_code == 409 and late.json()["closed_at"]


def test_the_page_shows_the_error_next_to_the_field_and_keeps_what_was_typed(tally, alice, client):
    client.force_login(alice)
    response = client.post(
        reverse("game", args=[tally.id]),
        {"round_number": 0, "number": "42", "secret_note": "keep me", "save": ""},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Pick a number from 0 to 10." in page
    assert 'value="keep me"' in page and 'value="42"' in page
    assert not Submission.objects.exists()


def test_the_page_saves_and_shows_the_saved_values(tally, alice, client):
    client.force_login(alice)
    response = client.post(
        reverse("game", args=[tally.id]),
        {"round_number": 0, "number": "6", "secret_note": "n", "save": ""},
        follow=True,
    )
    page = response.content.decode()
    assert "Saved." in page and 'value="6"' in page
    assert Submission.objects.get().payload == {"number": 6, "secret_note": "n"}


def test_a_rules_error_from_the_game_is_shown_next_to_its_field(tally, alice, client):
    state = dict(tally.state)
    state["totals"] = [25, 0]
    type(tally).objects.filter(pk=tally.pk).update(state=state)
    client.force_login(alice)
    page = client.post(
        reverse("game", args=[tally.id]), {"round_number": 0, "number": "7", "save": ""}
    ).content.decode()
    assert "You may not pick 7 once you have 20 points." in page


def test_round_results_reach_the_feed_and_the_inbox(tally, alice, bob):
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3})
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    texts = list(Event.objects.filter(game=tally).values_list("kind", "text"))
    assert ("announcement", "Round 0 total: 3.") in texts
    assert ("reveal", "Round 0: you picked 3.") in texts
    assert tally.rounds.get(number=1).status == "open"


@pytest.mark.parametrize("number", [-1, 2**31, 2**63])
def test_a_save_for_a_round_number_no_round_can_have_is_refused(tally, alice, number):
    # Found by the schema fuzz on Postgres: a number beyond the column's range is "not opened", not a 500.
    with pytest.raises(StateChanged):
        submission_save(seat=tally.seats.get(user=alice), round_number=number, payload={"number": 1})
