"""What a closed game and a personal answer give away: issue 17, items 5, 6 and 12, through HTTP.

A game that is not public is closed to visitors who are not logged in (it answers 404); the season page
must not list it, and the live partial must not confirm it exists by answering "nothing new". An answer
written for one logged-in user (a hand, balances, an inbox) must tell every cache on the way not to keep it.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from games.platform.models import Game
from games.platform.services import games as game_services
from tests.api_support import page_client as logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_game(season, hank, alice, bob):
    game = game_services.game_create(
        season=season, game_type="tally", name="Closed Tally", hosts=[hank], public=False, actor=hank
    )
    game_services.game_seat(game=game, user=alice, actor=hank)
    game_services.game_seat(game=game, user=bob, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def test_a_visitor_does_not_see_a_closed_game_on_the_season_page(closed_game, tally, charlie):
    seen = Client().get(f"/seasons/{closed_game.season_id}/").content.decode()
    assert Client().get(f"/games/{closed_game.id}/").status_code == 404
    assert "Closed Tally" not in seen
    assert f"/games/{closed_game.id}/" not in seen
    assert f"/games/{tally.id}/" in seen  # the public game is listed
    # Logged in, everybody may watch it (as they may open it).
    assert "Closed Tally" in logged_in(charlie).get(f"/seasons/{closed_game.season_id}/").content.decode()


def test_a_visitor_cannot_count_closed_games_in_the_standings(closed_game, tally, season, alice, hank):
    # Alice plays the public game and the closed one: a visitor is told of the public one only.
    seen = Client().get(f"/seasons/{season.id}/").content.decode()
    row = seen[seen.index("<td>alice</td>") :].split("</tr>", 1)[0]
    assert row.split("<td>")[4].startswith("1<"), row
    seen = logged_in(hank).get(f"/seasons/{season.id}/").content.decode()
    row = seen[seen.index("<td>alice</td>") :].split("</tr>", 1)[0]
    assert row.split("<td>")[4].startswith("2<"), row


def test_the_live_partial_of_a_closed_game_is_a_404_to_a_visitor_whatever_v_says(closed_game):
    version = Game.objects.get(pk=closed_game.pk).version
    for v in (version, version + 1, ""):
        assert Client().get(f"/games/{closed_game.id}/live/?v={v}").status_code == 404
    assert Client().get(f"/games/{closed_game.id + 1000}/live/?v={version}").status_code == 404


def test_the_live_partial_of_a_closed_game_still_answers_its_players(closed_game, alice):
    version = Game.objects.get(pk=closed_game.pk).version
    response = logged_in(alice).get(f"/games/{closed_game.id}/live/?v={version}")
    assert response.status_code == 204


def test_personal_pages_tell_caches_not_to_keep_them(tally, alice, hank):
    player = logged_in(alice)
    for url in (
        f"/games/{tally.id}/",
        f"/games/{tally.id}/live/",
        f"/games/{tally.id}/chats/",
        f"/seasons/{tally.season_id}/ledger/",
        "/account/notifications/",
        f"/api/games/{tally.id}/",
        "/api/me/balances/",
    ):
        response = player.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert "private" in response["Cache-Control"], url
    host_page = logged_in(hank).get(f"/games/{tally.id}/")
    assert "no-store" in host_page["Cache-Control"]


def test_api_answers_to_a_token_tell_caches_not_to_keep_them(tally, alice):
    token = Token.objects.create(user=alice)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    for url in (f"/api/games/{tally.id}/", "/api/me/balances/", f"/api/games/{tally.id}/submission/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert "private" in response["Cache-Control"], url


def test_a_saved_submission_answer_is_not_kept_either(tally, alice):
    token = Token.objects.create(user=alice)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(
        f"/api/games/{tally.id}/submission/",
        {"round": 0, "payload": {"number": 3}},
        content_type="application/json",
    )
    assert response.status_code == 201
    assert "no-store" in response["Cache-Control"]
