"""Awaiting you in the horse race's ending: a decision round awaits only the seats that decide."""

from __future__ import annotations

import pytest

from games.horse_race.rules import ROUNDS
from games.platform.awaiting import awaiting
from tests.horse_race.site_support import resolve, submit
from tests.horse_race.test_horse_race_site_full_game import four_player_game

pytestmark = pytest.mark.django_db


def test_the_winners_choice_awaits_the_winner_alone_then_the_pick_the_candidate(season, hank, make_user):
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    assert [(a.need, a.round_number) for a in awaiting(ann)] == [("decision", ROUNDS + 1)]
    assert awaiting(ben) == awaiting(cat) == awaiting(dan) == []
    assert submit(game, ann, ROUNDS + 1, {"choice": 2}).status_code == 201
    assert [a.need for a in awaiting(ann)] == ["saved_not_final"]
    resolve(game, hank)
    assert submit(game, ann, ROUNDS + 2, {"vote": 3}).status_code == 201
    resolve(game, hank)
    assert [a.need for a in awaiting(dan)] == ["pick"]
    assert awaiting(dan)[0].url.endswith(f"/games/{game.id}/pick/")
    assert awaiting(ann) == []
