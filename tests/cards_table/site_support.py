"""Shared by the Cards on the Table site tests: ten players on the fixture boards, and API helpers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.cards_table.models import BoardSet
from games.platform.models import Game
from games.platform.services import games as game_services
from tests.api_support import api, observe, operate, submit  # noqa: F401
from tests.cards_table.fixtures import VALID

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jo"]


def codes(text_boards=VALID) -> list[list[str]]:
    """The fixture boards ("2b 3r ...") as the admin's codes ("2B", "3R", ...)."""
    return [[token.upper() for row in board for token in row.split()] for board in text_boards]


def make_game(season, host, players, *, boards=None, heat_rule="extremes", settings=None, start=True) -> Game:
    game = game_services.game_create(
        season=season, game_type="cards_table", name="Cards", hosts=[host], settings=settings, actor=host
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=host)
    BoardSet.objects.create(game=game, codes=boards or codes(), heat_rule=heat_rule)
    if start:
        game_services.game_start(game=game, actor=host)
    game.refresh_from_db()
    return game


def resolve(game, host):
    return api(host).post(reverse("api-host-resolve", args=[game.id]), format="json")


@pytest.fixture
def ten(make_user):
    return [make_user(name) for name in NAMES]


@pytest.fixture
def cards(season, hank, ten):
    """A running ten-player game on the fixture boards with the 'extremes' heat rule, Round 1 open."""
    return make_game(season, hank, ten)
