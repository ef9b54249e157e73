"""The registry: a game type registered from tests/ runs end to end with no platform change."""

from __future__ import annotations

import pytest

from games.platform import registry
from games.platform.kit import RulesError, threshold_award
from games.platform.models import Game
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve

pytestmark = pytest.mark.django_db


def test_a_game_type_from_tests_is_listed_and_found():
    assert registry.get("tally").name == "Tally (test game)"
    assert ("tally", "Tally (test game)") in registry.choices()
    with pytest.raises(LookupError):
        registry.get("no-such-game")


def test_a_registered_game_plays_from_creation_to_the_end(tally):
    for number in range(3):
        assert round_resolve(round_id=tally.rounds.get(number=number).id, early=True)
    tally.refresh_from_db()
    assert tally.status == Game.Status.FINISHED
    assert tally.finished_at is not None
    assert tally.rounds.count() == 3


def test_a_game_cannot_start_with_hidden_data_missing(season, hank, alice, bob):
    game = game_services.game_create(
        season=season, game_type="tally", name="T", hosts=[hank], settings={"secret": "missing"}, actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    with pytest.raises(RulesError, match="the secret is missing"):
        game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    assert game.status == Game.Status.DRAFT


def test_a_game_cannot_start_short_of_players(season, hank, alice):
    game = game_services.game_create(season=season, game_type="tally", name="T", hosts=[hank], actor=hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    with pytest.raises(RulesError, match="needs 2-12 players"):
        game_services.game_start(game=game, actor=hank)


def test_settings_are_checked_by_the_game_type(season, hank):
    with pytest.raises(RulesError, match="rounds must be 1-20"):
        game_services.game_create(
            season=season, game_type="tally", name="T", settings={"rounds": 0}, actor=hank
        )


def test_threshold_examples_from_the_rules():
    assert threshold_award({"a": 6, "b": 4, "c": 3, "d": 3}, 3) == {"a", "b"}
    assert threshold_award({"a": 4, "b": 4, "c": 4, "d": 4}, 3) == set()
