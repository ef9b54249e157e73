"""A complete Middle Marathon through the API: both players post legal moves until the result is recorded."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.middle_marathon import rules
from games.platform.models import Event, Game
from games.platform.services.ledger import balances
from tests.api_support import told
from tests.middle_marathon.marathon_site import act, api, marathon_game, observed, put_state, state_of
from tests.middle_marathon.positions import make

pytestmark = pytest.mark.django_db


def drive(game, players, rng: random.Random, limit: int = 400) -> int:
    """Each player reads their own observation and posts one of the legal actions it offers.

    The answer to a move is the mover's observation; the other player's is read when the move passes.
    """
    moves = 0
    view = observed(game, players[0])
    while view["status"] != "finished":
        assert moves < limit, "the game did not end"
        mover = view["state"]["pending"]["seat"]
        if view["viewer"]["seat"] != mover:
            assert view["state"]["legal_actions"] == [], "only the player the game waits on is offered moves"
            view = observed(game, players[mover])
        response = act(game, players[mover], rng.choice(view["state"]["legal_actions"]))
        assert response.status_code == 200, response.json()
        view = response.json()
        moves += 1
    return moves


def test_a_complete_game_through_the_api_ends_with_scores_a_winner_and_the_ledger(season, hank, alice, bob):
    game = marathon_game(season, hank, alice, bob, seed=7)
    moves = drive(game, [alice, bob], random.Random(90))  # a short game: 93 moves
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves == 93
    result = state_of(game).result
    assert result["ended_because"] == "only one colour is left on the board"
    assert sorted(result["order"]) == sorted(rules.PIECES)
    scores = result["scores"]
    (final,) = [t for t in told(game) if t.startswith("Final scores:")]
    assert f"alice (Blue) {scores[0]}, bob (Red) {scores[1]}" in final
    if result["winner"] is None:
        assert "The DMO wins: a draw." in final
    else:
        assert f"{['alice (Blue)', 'bob (Red)'][result['winner']]} wins." in final
    for user, points in zip((alice, bob), scores, strict=True):
        assert balances(season=game.season, user=user, game=game).get("points", 0) == points
    # After the end everyone sees everything, hands included, and no one is offered a move.
    for user in (alice, bob):
        state = observed(game, user)["state"]
        assert "hands" in state and state["legal_actions"] == [] and state["result"] == result


def test_the_first_player_is_the_hosts_choice_and_random_is_drawn_from_the_seed(season, hank, alice, bob):
    red_first = marathon_game(season, hank, alice, bob, settings={"first_player": 1})
    assert state_of(red_first).to_move == 1
    assert any("The DMO chose bob (Red) to go first" in t for t in told(red_first))
    chance = {"first_player": "random"}
    drawn = {
        seed: state_of(marathon_game(season, hank, alice, bob, settings=chance, seed=seed)).first_player
        for seed in range(8)
    }
    assert set(drawn.values()) == {0, 1}
    again = marathon_game(season, hank, alice, bob, settings=chance, seed=5)
    assert state_of(again).first_player == drawn[5]


def test_a_host_cannot_create_a_game_with_wrong_settings(season, hank):
    response = api(hank).post(
        reverse("api-games"),
        {"season": season.id, "type": "middle_marathon", "name": "MM", "settings": {"first_player": 2}},
        format="json",
    )
    assert response.status_code == 400 and "first_player" in response.json()["detail"]


@pytest.mark.parametrize(
    ("payload", "field", "words"),
    [
        ({"type": "play", "card": 7, "piece": "FB"}, "card", "You do not hold that movement card"),
        ({"type": "play", "card": 2, "piece": "FR"}, "piece", "your own pieces or on the neutral"),
        ({"type": "play", "card": 2, "piece": "XX"}, "piece", "There is no piece called"),
        ({"type": "choose", "choice": "FR"}, "type", "play a movement card"),
    ],
)
def test_an_illegal_move_through_the_api_is_a_400_that_says_why(
    season, hank, alice, bob, payload, field, words
):
    game = marathon_game(season, hank, alice, bob)
    response = act(game, alice, payload)
    assert response.status_code == 400
    assert words in response.json()["detail"] and field in response.json()["errors"]
    assert state_of(game).played == []


def test_a_move_out_of_turn_is_refused_and_a_spectator_cannot_move(season, hank, alice, bob, charlie):
    game = marathon_game(season, hank, alice, bob)
    response = act(game, bob, {"type": "play", "card": 1, "piece": "FR"})
    assert response.status_code == 400 and "not your move" in response.json()["detail"]
    assert act(game, charlie, {"type": "play", "card": 1, "piece": "FB"}).status_code == 403


def test_a_choice_is_offered_and_answered_through_the_api(season, hank, alice, bob):
    game = marathon_game(season, hank, alice, bob)
    # Blue's Force on 3 with a 2: it must take another piece along (several are on the board).
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}, rest=1))
    assert act(game, alice, {"type": "play", "card": 2, "piece": "FB"}).status_code == 200
    mine = observed(game, alice)["state"]
    assert mine["pending"]["decision"] == "force_companion"
    assert {"type": "choose", "choice": "M"} in mine["legal_actions"]
    assert observed(game, bob)["state"]["legal_actions"] == []
    response = act(game, alice, {"type": "choose", "choice": "M"})
    assert response.status_code == 200
    state = state_of(game)
    assert state.positions["FB"] == 5 and state.positions["M"] == 4 and state.to_move == 1
    assert game.events.filter(kind=Event.Kind.ANNOUNCEMENT, text__contains="Blue chooses Movement").exists()


def test_the_api_takes_a_piece_named_as_the_addendum_allows_and_says_what_a_name_lacks(
    season, hank, alice, bob
):
    game = marathon_game(season, hank, alice, bob)
    refused = act(game, alice, {"type": "play", "card": 2, "piece": "Swap"})
    assert refused.status_code == 400
    assert refused.json()["errors"] == {
        "piece": ["Name the colour too: SB is Swap (blue), SR is Swap (red)."]
    }
    assert act(game, alice, {"type": "play", "card": 2, "piece": "Swap(b)"}).status_code == 200
    assert state_of(game).played[-1]["piece"] == "SB"
