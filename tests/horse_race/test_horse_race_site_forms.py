"""The round form on the game page: exactly this round's inputs, errors by their field, saved values back."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.horse_race.forms import RoundForm, payload_to_initial
from games.horse_race.store import load
from games.platform.models import Submission
from tests.horse_race.site_support import make_game, observe, resolve, submit

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_form(game, user, round_number, fields):
    return page_client(user).post(
        reverse("game", args=[game.id]), {"round_number": round_number, "save": "", **fields}
    )


def test_round_0_asks_for_the_ability_only(race, nine):
    page = page_client(nine[0]).get(reverse("game", args=[race.id])).content.decode()
    assert 'name="ability"' in page and 'name="clue_use_0"' in page and 'name="utility_select"' in page
    assert 'name="space"' not in page and 'name="bets_0"' not in page
    assert "Your hand: A×1, B×1, C×1" in page


def test_an_error_is_shown_by_its_field_and_what_was_typed_stays(race, nine):
    response = post_form(race, nine[0], 0, {"ability": "clue", "clue_use_0": "2", "clue_use_3": "1"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "You need 2 A cards for this and hold 1." in page
    # In the summary at the top, linked to its field, and by the field (under its label, above its boxes).
    assert '<a href="#id_clue_use_0">Clue: cards to use (discarded): You need 2 A cards' in page
    error_at = page.index('<p class="error">You need 2 A cards')
    assert page.index('name="ability"') < error_at < page.index('name="clue_use_0"')
    assert 'name="clue_use_0" value="2"' in page and 'name="clue_use_3" value="1"' in page
    assert not Submission.objects.exists()


def test_cards_filled_in_without_an_ability_are_questioned(race, nine):
    page = post_form(race, nine[0], 0, {"ability": "", "utility_select": "C"}).content.decode()
    assert "choose the Clue or the Utility" in page and not Submission.objects.exists()


def test_a_saved_form_comes_back_filled_in(race, nine):
    ann = nine[0]
    response = post_form(race, ann, 0, {"ability": "utility", "utility_select": "C"})
    assert response.status_code == 302
    assert Submission.objects.get().payload == {
        "ability": {"kind": "utility", "select": "C"},
        "space": None,
        "bets": {},
    }
    page = page_client(ann).get(reverse("game", args=[race.id])).content.decode()
    assert 'name="ability" value="utility" id="id_ability_2" checked' in page
    assert '<option value="C" selected>' in page


def test_round_2_bets_only_on_the_current_space_within_the_limit(race, nine, hank):
    ann = nine[0]
    resolve(race, hank)
    assert submit(race, ann, 1, {"space": 4}).status_code == 201
    resolve(race, hank)  # A-D are on space 4 after Round 1
    page = page_client(ann).get(reverse("game", args=[race.id])).content.decode()
    assert 'name="space"' in page and 'name="bets_3"' in page and 'name="bets_4"' not in page
    assert "Horses in your current space (4): A, B, C, D" in page
    too_much = post_form(race, ann, 2, {"space": "7", "bets_0": "4", "bets_1": "2"}).content.decode()
    assert "You may bet at most 5 chips this round; you bet 6." in too_much
    assert 'name="bets_0" value="4"' in too_much and 'name="space" value="7"' in too_much
    bad_space = post_form(race, ann, 2, {"space": "16"}).content.decode()
    assert "Spectate a space from 1 to 15, or leave it blank for none." in bad_space
    assert post_form(race, ann, 2, {"space": "7", "bets_0": "3", "bets_2": "2"}).status_code == 302
    assert observe(race, ann)["submission"]["payload"] == {
        "ability": None,
        "space": 7,
        "bets": {"A": 3, "C": 2},
    }
    page = page_client(ann).get(reverse("game", args=[race.id])).content.decode()
    assert 'name="bets_0" value="3"' in page and 'name="bets_2" value="2"' in page


def test_a_player_without_a_current_space_is_told_they_cannot_bet(race, nine, hank):
    resolve(race, hank)
    page = page_client(nine[1]).get(reverse("game", args=[race.id])).content.decode()
    assert "You have no current space this round, so you cannot bet." in page
    assert 'name="bets_0"' not in page


def test_round_5_guesses_per_copy_round_trip(season, hank, nine):
    game = make_game(season, hank, nine[:2])
    for _ in range(5):
        resolve(game, hank)
    game.refresh_from_db()
    state = load(game)
    saved = {"ability": {"kind": "utility", "guesses": {"A": [0]}}, "space": None, "bets": {}}
    form = RoundForm(initial=payload_to_initial(saved), state=state, seat=0)
    assert 'name="utility_guesses_0" value="0"' in str(form["utility_guesses"])
    bound = RoundForm(
        data={"ability": "utility", "utility_guesses_0": "0", "utility_guesses_1": "9"}, state=state, seat=0
    )
    assert not bound.is_valid()
    assert bound.errors["utility_guesses"] == ["A guess is a whole number from 0 to 8."]
    two_copies = RoundForm(
        data={"ability": "utility", "utility_guesses_0": "0", "utility_guesses_1": "1"}, state=state, seat=0
    )
    assert not two_copies.is_valid()
    assert two_copies.errors["utility_guesses"] == ["You need 2 A cards for this and hold 1."]


def test_the_api_names_the_rules_field(race, nine):
    bad = submit(race, nine[0], 0, {"ability": {"kind": "clue", "use": {"A": 3}}})
    assert bad.status_code == 400 and bad.json()["errors"] == {
        "use": ["You need 3 A cards for this and hold 1."]
    }
    spectate = submit(race, nine[0], 0, {"space": 3})
    assert spectate.json()["errors"]["space"] == [
        "In Round 0 you only submit an ability: no space to spectate."
    ]
