"""The round form's words (games/platform/round_form.py): a save that came after its round closed is refused
with what the player typed kept; a refused save sums up its problems; the form the page's script asks for
when the round moves on says what became of the last one."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.platform.models import Submission
from games.platform.services.rounds import round_resolve, submission_save
from tests.api_support import page_client as client_of
from tests.conftest import seat_of
from tests.horse_race.site_support import make_game as make_race

pytestmark = pytest.mark.django_db


def test_a_save_for_a_round_that_moved_on_keeps_what_was_typed_beside_the_new_rounds_form(tally, alice):
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 2})
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    response = client_of(alice).post(
        reverse("game", args=[tally.id]), {"round_number": "0", "number": "9", "save": ""}
    )
    html = response.content.decode()
    assert response.status_code == 409
    said = re.search(r"Round 0 closed at (.+?): this save came too late and was not saved\. (.+?)</p>", html)
    assert said and said.group(2).startswith("Your last save, at ") and said.group(2).endswith("counted.")
    # What they typed, kept in Round 0's form (its own ids), and Round 1's form, empty, to save into.
    assert 'name="number" value="9"' in html and 'id="typed_number"' in html
    assert "What you typed for Round 0 (not saved)" in html and "Round 1: your submission" in html
    assert Submission.objects.filter(round__number=1).count() == 0


def test_a_late_save_the_game_cannot_rebuild_goes_into_the_open_rounds_form(season, hank, make_user):
    players = [make_user(name) for name in ("ann", "ben")]
    race = make_race(season, hank, players)
    round_resolve(round_id=race.rounds.get(number=0).id, early=True)
    response = client_of(players[0]).post(
        reverse("game", args=[race.id]), {"round_number": "0", "space": "4", "save": ""}
    )
    html = response.content.decode()
    assert response.status_code == 409
    summary = html.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    assert "Round 0 closed at " in summary and "What you typed is below, in Round 1&#x27;s form." in summary
    assert 'name="space" value="4"' in html and "Round 1: your submission" in html


def test_a_refused_save_sums_up_its_problems_each_linked_to_its_field(tally, alice):
    response = client_of(alice).post(reverse("game", args=[tally.id]), {"round_number": "0", "save": ""})
    html = response.content.decode()
    assert response.status_code == 400
    assert "<h3>Not saved: 1 problem</h3>" in html
    assert '<a href="#id_number">Your number: This field is required.</a>' in html


def test_the_form_the_script_asks_for_says_what_became_of_the_closed_rounds_save(tally, alice):
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 2}, final=True)
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    response = client_of(alice).get(
        reverse("game", args=[tally.id]) + "?closed=0",
        headers={"HX-Request": "true", "HX-Target": "round-form"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card round-form" id="round-form"')
    assert re.search(r"Round 0 closed: your last save, at .+ \(final\), counted\.", html)
    assert 'data-form-key="1-open-running-0"' in html
