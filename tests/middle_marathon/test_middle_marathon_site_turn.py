"""Whose move it is, on the live page (issue 20.3): "Your turn" or "Your decision" with the player's own
countdown for the player the race waits on, "Waiting for alice" for everyone else, and #live's data-your
for the page's script (the tab's title)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.live_pages import page, text_of, turn_line, your
from tests.middle_marathon.marathon_site import marathon_game, put_state
from tests.middle_marathon.positions import make

pytestmark = pytest.mark.django_db


def test_the_player_on_turn_sees_your_turn_and_everyone_else_whom_the_race_waits_for(
    season, hank, alice, bob, charlie
):
    game = marathon_game(season, hank, alice, bob)  # Blue (alice) goes first
    mine = page(game, alice)
    assert turn_line(mine) == "Your turn"
    assert 'class="turn turn-mine"' in mine and your(mine) == "turn"
    # Her own countdown: the turn's deadline and her reserve, for the page's script to count.
    assert 'data-reserve="600" data-step="30"' in mine
    # Not "Waiting for alice" on her own turn (the bug the issue found), here or in the race's own line.
    assert "Waiting for" not in mine and "waiting for" not in mine
    waiting = text_of(mine, r'class="mm-waiting"[^>]*>(.*?)</p>')
    assert waiting == "Turn 1: your turn (Blue): play a movement card."

    theirs = page(game, bob)
    assert turn_line(theirs) == "Waiting for alice" and your(theirs) == ""
    assert text_of(theirs, r'class="mm-waiting"[^>]*>(.*?)</p>') == (
        "Turn 1: waiting for alice (Blue) to play a movement card."
    )
    for watcher in (charlie, None, hank):
        html = page(game, watcher)
        assert turn_line(html) == "Waiting for alice"
        assert "Your turn" not in html and your(html) is None  # no title for whoever has no seat


def test_an_interaction_is_your_decision_and_the_others_see_what_it_is(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob)
    # Blue's Force on 3 and a 2 to play: the Force asks Blue which piece it takes along.
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}))
    play = {"type": "play", "card": 2, "piece": "FB"}
    client = Client()
    client.force_login(alice)
    client.post(reverse("game", args=[game.id]), {"action": json.dumps(play)})
    mine = page(game, alice)
    assert turn_line(mine) == "Your decision (choice 1: Force's companion)" and your(mine) == "decision"
    for watcher in (bob, charlie, None):
        assert turn_line(page(game, watcher)) == "Waiting for alice (choice 1: Force's companion)"


def test_after_a_move_the_turn_changes_hands_on_both_pages(season, hank, alice, bob):
    game = marathon_game(season, hank, alice, bob)
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}))
    client = Client()
    client.force_login(alice)
    play = {"type": "play", "card": 1, "piece": "M"}
    client.post(reverse("game", args=[game.id]), {"action": json.dumps(play)})
    assert turn_line(page(game, bob)) == "Your turn" and your(page(game, bob)) == "turn"
    assert turn_line(page(game, alice)) == "Waiting for bob" and your(page(game, alice)) == ""
