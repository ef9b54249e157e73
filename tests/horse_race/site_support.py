"""Shared by the Horse Race site tests: nine players on the hand-made movement table, and API helpers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.horse_race.models import MovementTable
from games.platform.models import Game
from games.platform.services import games as game_services
from tests.api_support import api, observe, operate, submit  # noqa: F401
from tests.horse_race.horse_race_support import table

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]


def make_game(season, host, players, *, grid=None, settings=None, start=True) -> Game:
    game = game_services.game_create(
        season=season, game_type="horse_race", name="Horse Race", hosts=[host], settings=settings, actor=host
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=host)
    MovementTable.objects.create(game=game, grid=grid or table())
    if start:
        game_services.game_start(game=game, actor=host)
    game.refresh_from_db()
    return game


def resolve(game, host):
    response = api(host).post(reverse("api-host-resolve", args=[game.id]), format="json")
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.fixture
def nine(make_user):
    return [make_user(name) for name in NAMES]


@pytest.fixture
def race(season, hank, nine):
    """A running nine-player Horse Race on the hand-made table, Round 0 open."""
    return make_game(season, hank, nine)
