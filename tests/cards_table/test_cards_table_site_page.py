"""The board page's forms: a saved guess comes back in the grid, errors sit next to their field in words,
nothing typed is lost, and a flip posted from the page is applied at once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.cards_table.rules import state_from_json
from games.platform.models import Submission

from .site_support import resolve, submit

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_saved_board_guess_is_shown_back_in_the_grid(cards, ten):
    assert submit(cards, ten[0], 1, {"board_guess": [[[3, "yellow"]] * 5] * 5}).status_code == 201
    html = page_client(ten[0]).get(reverse("game", args=[cards.id])).content.decode()
    assert html.count('<option value="3" selected>') == 25
    assert html.count('<option value="yellow" selected>') == 25


def test_a_wrong_guess_is_explained_next_to_its_field_and_what_was_typed_stays(cards, ten, hank):
    assert resolve(cards, hank).status_code == 200
    data = {"save": "1", "round_number": "2", "board_guess_0": "2", "board_guess_1": "purple"}
    data |= {"top_guess": "0", "heat_guess": "black points at the hotter side"}
    response = page_client(ten[0]).post(reverse("game", args=[cards.id]), data)
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["board_guess"] == ["A guessed colour is red, blue or yellow (or blank)."]
    assert form.errors["top_guess"] == ["Pick another player of this game."]
    html = response.content.decode()
    assert "black points at the hotter side" in html and '<option value="2" selected>' in html
    assert not Submission.objects.filter(seat__game=cards).exists()


def test_a_flip_posted_from_the_page_is_final_and_shown_at_once(cards, ten):
    client = page_client(ten[3])
    response = client.post(
        reverse("game", args=[cards.id]), {"op": "flip", "op_row": "4", "op_col": "2"}, follow=True
    )
    html = response.content.decode()
    assert 'data-cell="R4C2"' in html and "ct-face ct-red" in html
    assert "Turn over R4C2" not in html
    again = client.post(
        reverse("game", args=[cards.id]), {"op": "flip", "op_row": "4", "op_col": "2"}, follow=True
    )
    assert "You already turned over R4C2 this round." in again.content.decode()
    cards.refresh_from_db()
    assert state_from_json(cards.state).seat_round(3).flips == ((4, 2),)
