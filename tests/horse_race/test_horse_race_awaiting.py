"""Awaiting you in the horse race's ending: a decision round awaits only the seats that decide."""

from __future__ import annotations

import pytest

from games.horse_race.rules import ROUNDS
from games.platform.awaiting import RESULTS, awaiting
from tests.horse_race.site_support import resolve, submit
from tests.horse_race.test_horse_race_site_full_game import four_player_game

pytestmark = pytest.mark.django_db


def asked(user):
    """What the game asks of the user (results waiting in the inbox are a line of their own, not asked)."""
    return [a for a in awaiting(user) if a.need != RESULTS]


def test_the_winners_choice_awaits_the_winner_alone_then_the_pick_the_candidate(season, hank, make_user):
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    assert [(a.need, a.round_number) for a in asked(ann)] == [("decision", ROUNDS + 1)]
    assert asked(ben) == asked(cat) == asked(dan) == []
    assert submit(game, ann, ROUNDS + 1, {"choice": 2}).status_code == 201
    assert [a.need for a in asked(ann)] == ["saved_not_final"]
    resolve(game, hank)
    assert submit(game, ann, ROUNDS + 2, {"vote": 3}).status_code == 201
    resolve(game, hank)
    assert [a.need for a in asked(dan)] == ["pick"]
    assert asked(dan)[0].url.endswith(f"/games/{game.id}/pick/")
    assert asked(ann) == []
