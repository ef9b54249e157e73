"""Arms Race in its season: the sole loser is the Elimination Candidate, whichever way the game ends."""

from __future__ import annotations

import pytest

from games.platform.models import DeathMatchPick, Game
from tests.api_support import told
from tests.arms_race.arms_race_site import NAMES, arms_game, drive, honest, state_of
from tests.arms_race.test_arms_race_site_api import cutting_ben

pytestmark = pytest.mark.django_db


@pytest.fixture
def seven(make_user):
    return [make_user(name) for name in NAMES]


def test_the_sole_loser_of_three_wounds_is_the_elimination_candidate(season, hank, seven):
    game = arms_game(season, hank, seven)
    drive(game, seven, cutting_ben(None))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and state_of(game).outcome.reason == "three_wounds"
    pick = DeathMatchPick.objects.get(main_match=game)
    assert pick.candidate.username == "ben" and pick.status == "open"
    assert any(t.startswith("ben is the Elimination Candidate and picks") for t in told(game))


def test_the_sole_loser_after_the_last_round_is_the_elimination_candidate(season, hank, seven):
    # One round of honest attacks: each attacker is wounded once, nobody reaches three of a kind.
    game = arms_game(season, hank, seven[:3], settings={"rounds": 1, "wild_cards_offered": False})
    drive(game, seven[:3], honest)
    game.refresh_from_db()
    outcome = state_of(game).outcome
    assert game.status == Game.Status.FINISHED and outcome.reason == "nine_rounds"
    assert DeathMatchPick.objects.get(main_match=game).candidate == seven[outcome.loser]
