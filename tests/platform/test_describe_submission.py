"""Each game says a submission (or a move) in its own words for the hosts' console, never as JSON (21.1)."""

from __future__ import annotations

import pytest

from games.platform import registry
from games.platform.services import games as game_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(season, hank, make_user):
    def make(slug, players):
        game = game_services.game_create(season=season, game_type=slug, name=slug, hosts=[hank], actor=hank)
        for name in players:
            game_services.game_seat(game=game, user=make_user(name), actor=hank)
        return game

    return make


def words(game, payload) -> str:
    return registry.get(game.game_type).describe_submission(game, payload)


def test_a_horse_race_round_reads_ability_space_and_bets(seated):
    game = seated("horse_race", ["ann", "ben"])
    payload = {"ability": {"kind": "clue", "use": {"A": 2}}, "space": 4, "bets": {"D": 3}}
    assert words(game, payload) == "Clue with A×2; spectate 4; bets D:3"
    utility = {"ability": {"kind": "utility", "use": {"B": 1}, "gain": ["C"]}, "space": None, "bets": {}}
    assert words(game, utility) == "Utility with B×1 gaining C; no space"
    assert words(game, {"ability": None, "space": None, "bets": {}}) == "no ability; no space"
    assert words(game, {"vote": 1}) == "votes for ben as the EC"


def test_a_cards_table_round_reads_its_guesses(seated):
    game = seated("cards_table", ["ann", "ben"])
    grid = [[[2, "red"]] * 5] * 3 + [[[None, None]] * 5] * 2
    payload = {"board_guess": grid, "top_guess": 1, "heat_guess": "the corners"}
    assert (
        words(game, payload)
        == "board guess of 15 cards; top of the last round: ben; heat guess “the corners”"
    )
    assert words(game, {"loser": 0}) == "chooses ann as the elimination candidate"


def test_an_arms_race_move_reads_who_is_attacked_with_what(seated):
    game = seated("arms_race", ["ann", "ben", "cat"])
    move = {"type": "attack", "card": "dagger", "target": 2, "claim": "bat"}
    assert words(game, move) == "attacks cat with a dagger, claiming a bat"
    assert words(game, {"type": "challenge", "call": "lie"}) == "calls the claim a lie"


def test_a_middle_marathon_move_reads_the_card_and_piece(seated):
    game = seated("middle_marathon", ["ann", "ben"])
    assert words(game, {"type": "play", "card": 2, "piece": "FB"}) == "plays 2 on Force (blue)"


def test_the_toy_game_reads_its_pick(seated):
    game = seated("tally", ["ann", "ben"])
    assert words(game, {"number": 3, "secret_note": "x"}) == "picks 3, note “x”"
