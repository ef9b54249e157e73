"""A round past its deadline that no resolution has closed yet (beat or the worker down) says so (issue 18.3):
"closed, results coming" instead of the form and a countdown at 0, on fresh and on cached pages; saves are
refused in those words; nothing awaits the players."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games.platform.awaiting import awaiting
from tests.api_support import api
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db


def client_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def closes_at(game):
    return game.rounds.get(number=0).closes_at


def page(game, user=None) -> str:
    return client_for(user).get(reverse("game", args=[game.id])).content.decode()


def test_before_the_deadline_the_form_after_it_closed_results_coming(tally, alice):
    with time_machine.travel(closes_at(tally) - timedelta(minutes=5), tick=False):
        before = page(tally, alice)
    assert 'name="save"' in before and "results coming" not in before.split("data-once-closed")[0]
    with time_machine.travel(closes_at(tally) + timedelta(seconds=30), tick=False):
        after = page(tally, alice)
    assert 'name="save"' not in after and 'name="number"' not in after
    assert "Round 0: closed, results coming" in after and 'data-lead="closes"' not in after
    assert "You saved nothing for this round." in after


def test_a_body_cached_before_the_deadline_is_not_served_after_it(tally, alice, bob):
    before = closes_at(tally) - timedelta(seconds=90)
    with time_machine.travel(before, tick=False):
        assert 'name="save"' in page(tally, alice)
        first = page(tally)  # a visitor's body, cached too
        assert 'data-lead="closes"' in first  # the countdown: "closes in 1m 30s" once the script runs
    # The version has not moved (no resolution ran): the same cache keys, yet the bodies are not served.
    with time_machine.travel(closes_at(tally) + timedelta(seconds=1), tick=False):
        player, visitor = page(tally, alice), page(tally)
    assert 'name="save"' not in player and "closed, results coming" in player
    assert 'data-lead="closes"' not in visitor and "closed, results coming" in visitor


def test_a_body_rendered_under_a_second_before_the_deadline_is_not_kept(tally, alice):
    with time_machine.travel(closes_at(tally) - timedelta(milliseconds=400), tick=False):
        assert 'name="save"' in page(tally, alice)
    with time_machine.travel(closes_at(tally) + timedelta(milliseconds=100), tick=False):
        assert 'name="save"' not in page(tally, alice)


def test_the_api_says_closed_and_refuses_a_save_naming_the_deadline(tally, alice):
    with time_machine.travel(closes_at(tally) + timedelta(minutes=2), tick=False):
        observed = api(alice).get(reverse("api-game", args=[tally.id])).json()
        response = api(alice).post(
            reverse("api-submission", args=[tally.id]), {"round": 0, "payload": {"number": 3}}, format="json"
        )
    assert observed["round"]["status"] == "closed" and observed["round"]["results_coming"] is True
    assert observed["round"]["seconds_left"] == 0
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert (
        detail.startswith("The round closed at ")
        and "results coming; this submission was not saved" in detail
    )


def test_a_save_from_a_page_left_open_past_the_deadline_is_refused_in_those_words(tally, alice):
    with time_machine.travel(closes_at(tally) + timedelta(seconds=10), tick=False):
        response = client_for(alice).post(
            reverse("game", args=[tally.id]), {"round_number": "0", "number": "4", "save": ""}, follow=True
        )
    html = response.content.decode()
    assert response.status_code == 409
    assert (
        "Round 0 closed at " in html and "results coming: this save came too late and was not saved." in html
    )
    assert 'name="number" value="4"' in html  # what they typed is kept on the page (round_form.py)
    assert not tally.rounds.get(number=0).submissions.exists()


def test_a_late_round_awaits_nobody_and_after_the_resolution_the_next_round_is_open(tally, alice):
    assert [a.need for a in awaiting(alice)] == ["not_submitted"]
    late = closes_at(tally) + timedelta(minutes=3)
    with time_machine.travel(late, tick=False):
        assert awaiting(alice) == []
        assert sweep()["resolved"] == 1  # the worker comes back
        html = page(tally, alice)
    assert "results coming" not in html.split("data-once-closed")[0] and "Round 1: your submission" in html


def test_a_paused_round_past_its_old_deadline_is_not_closed(tally, alice, hank):
    from games.platform.services import games as game_services

    with time_machine.travel(closes_at(tally) - timedelta(minutes=10), tick=False):
        game_services.game_pause(game=tally, actor=hank)
    with time_machine.travel(closes_at(tally) + timedelta(hours=2), tick=False):
        html = page(tally, alice)
        observed = api(alice).get(reverse("api-game", args=[tally.id])).json()
    assert observed["round"]["status"] == "open" and observed["round"]["results_coming"] is False
    assert 'name="save"' in html and "data-open-until" not in html
