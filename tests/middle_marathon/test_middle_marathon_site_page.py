"""The game page: moves posted by its buttons, the reason shown when one is refused, the track and result."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.middle_marathon.marathon_site import marathon_game, play_out, put_state, state_of
from tests.middle_marathon.positions import make

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post_action(game, user, action: dict):
    url = reverse("game", args=[game.id])
    return client_for(user).post(url, {"action": json.dumps(action)}, follow=True)


def offered(html: str) -> list[dict]:
    values = re.findall(r'name="action" value="([^"]+)"', html)
    return [json.loads(value.replace("&quot;", '"')) for value in values]


def test_the_buttons_offer_exactly_the_legal_moves_and_post_them(season, hank, alice, bob):
    game = marathon_game(season, hank, alice, bob)
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}, hands=([2, 4], [0, 1, 2, 3, 4])))
    page = client_for(alice).get(reverse("game", args=[game.id])).content.decode()
    buttons = offered(page)
    assert len(buttons) == 2 * 5 and {b["card"] for b in buttons} == {2, 4}
    assert {b["piece"] for b in buttons} == {"FB", "GB", "RB", "SB", "M"}
    response = post_action(game, alice, {"type": "play", "card": 2, "piece": "FB"})
    page = response.content.decode()
    assert "Choose another piece to move 2 space(s) forwards with Force (blue)." in page
    choices = offered(page)
    assert {"type": "choose", "choice": "M"} in choices and len(choices) == 8
    post_action(game, alice, {"type": "choose", "choice": "M"})
    assert state_of(game).positions["M"] == 4 and state_of(game).to_move == 1


def test_a_refused_move_says_why_on_the_page(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob)
    page = post_action(game, bob, {"type": "play", "card": 1, "piece": "FR"}).content.decode()
    assert "It is not your move: the game waits on Blue." in page
    page = post_action(game, alice, {"type": "play", "card": 1, "piece": "FR"}).content.decode()
    assert "Play a card on one of your own pieces or on the neutral Movement piece." in page
    page = post_action(game, charlie, {"type": "play", "card": 1, "piece": "FB"}).content.decode()
    assert "Only a player of this game can move." in page
    assert state_of(game).played == []


def test_the_track_shows_every_piece_its_status_and_the_finishers(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob)
    position = make({"FB": 15, "SR": 9, "GR": 4}, gone=("RB",), locked={"FB": 3}, reversed_={"SR": 2})
    put_state(game, position)
    page = client_for(charlie).get(reverse("game", args=[game.id])).content.decode()
    assert re.search(r'data-space="15".*?data-piece="FB"', page, flags=re.S)
    assert "Force (blue) locked until the end of turn 3." in page
    assert "Swap (red) reversed until the end of turn 2." in page
    assert re.search(r'title="Reflect \(blue\)">RB <small>1st</small>', page)
    assert page.count('data-piece="') == 8


def test_a_finished_game_shows_the_result_and_placements_to_everyone(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob, seed=9)
    play_out(game, random.Random(9))
    result = state_of(game).result
    page = client_for(charlie).get(reverse("game", args=[game.id])).content.decode()
    blue, red = result["scores"]
    assert f"Blue {blue}, Red {red}." in page and "Placements" in page
    assert "alice (Blue) holds:" in page  # everything is revealed after the end


def test_watchers_see_what_the_deciding_player_may_pick(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob)
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}))
    post_action(game, alice, {"type": "play", "card": 2, "piece": "FB"})
    for watcher in (bob, charlie, hank):
        page = client_for(watcher).get(reverse("game", args=[game.id])).content.decode()
        assert "They may pick: Gravity (blue) on space 1;" in page and "Movement (purple) on space 2." in page
        assert 'name="action"' not in page
