"""Hosts seed every game type's hidden data through the API before the start, so a bot can run a game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.platform import registry
from games.platform.services import games as game_services
from tests.api_support import api

pytestmark = pytest.mark.django_db


def real_types():
    return [t for t in registry.all_types() if not t.slug.startswith("tally")]


@pytest.mark.parametrize("slug", [t.slug for t in real_types()] or ["none"])
def test_hidden_data_round_trips_through_the_api_and_locks_at_the_start(slug, season, hank, alice, make_user):
    if slug == "none":
        pytest.skip("No game app is installed.")
    kind = registry.get(slug)
    game = game_services.game_create(season=season, game_type=slug, name="G", hosts=[hank], actor=hank)
    for i in range(kind.min_players if kind.max_players != 7 else 7):
        game_services.game_seat(game=game, user=make_user(f"p{slug}{i}"), actor=hank)
    # The demo's hidden data, read back through GET, is what PUT accepts.
    kind.demo_prepare(game)
    url = reverse("api-host-hidden", args=[game.id])
    hidden = api(hank).get(url).json()
    assert hidden["problems"] == []
    assert api(alice).get(url).status_code == 403
    if not hidden["hidden"]:  # a game without host secrets (a Death Match) refuses to be given some
        assert api(hank).post(url, {"data": {"x": 1}}, format="json").status_code == 400
        return
    assert api(hank).post(url, {"data": hidden["hidden"]}, format="json").json()["problems"] == []
    bad = api(hank).post(url, {"data": {"nothing": 1}}, format="json")
    assert bad.status_code == 400
    api(hank).post(url, {"data": hidden["hidden"]}, format="json")
    assert api(hank).post(reverse("api-host-start", args=[game.id])).status_code == 200
    locked = api(hank).post(url, {"data": hidden["hidden"]}, format="json")
    assert locked.status_code == 409 and "locked" in locked.json()["detail"]


def test_a_game_without_hidden_data_says_so(tally, hank):
    from games.platform.models import Game

    Game.objects.filter(pk=tally.pk).update(status="draft")
    response = api(hank).post(reverse("api-host-hidden", args=[tally.id]), {"data": {}}, format="json")
    assert response.status_code == 400 and "no hidden data" in response.json()["detail"]
