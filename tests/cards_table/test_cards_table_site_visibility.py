"""Hidden information never leaks: a player's flips, guesses and inbox; the hosts' boards and heat rule."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.cards_table.models import HeatVerdict
from games.platform.models import Event
from games.platform.services import games as game_services
from tests.api_support import told

from .site_support import api, make_game, operate, resolve, submit

pytestmark = pytest.mark.django_db

HEAT_CANARY = "CANARY-HEAT-GUESS the hottest side is black"
# Written only by the rules' descriptions of the heat rule and by the full view: the host's secrets.
SECRETS = ["heat_rule_description", "The hottest side(s) are black", '"boards"', "revealed_boards"]


@pytest.fixture
def midgame(cards, ten, hank):
    """Round 1 over; in Round 2 ann turned two cards, ben one; ann saved a heat guess and a board guess."""
    ann, ben = ten[0], ten[1]
    assert operate(cards, ann, "flip", {"row": 1, "col": 1}).status_code == 200
    assert operate(cards, ben, "flip", {"row": 1, "col": 2}).status_code == 200
    assert resolve(cards, hank).status_code == 200
    assert operate(cards, ann, "flip", {"row": 2, "col": 3}).status_code == 200
    assert operate(cards, ann, "flip", {"row": 4, "col": 4, "action": "scout"}).status_code == 200
    assert operate(cards, ben, "flip", {"row": 5, "col": 5}).status_code == 200
    saved = submit(cards, ann, 2, {"board_guess": [[[3, "yellow"]] * 5] * 5, "heat_guess": HEAT_CANARY})
    assert saved.status_code == 201
    return cards


def everything_seen(game, user) -> tuple[dict, str, str]:
    detail = api(user).get(reverse("api-game", args=[game.id])).json()
    feed = json.dumps(api(user).get(reverse("api-feed", args=[game.id])).json())
    browser = Client()
    if user is not None:
        browser.force_login(user)
    page = browser.get(reverse("game", args=[game.id])).content.decode()
    return detail, feed, page


def reveals_to(game, user) -> list[str]:
    """The user's inbox as it reads (the rows name people by reference)."""
    return told(game, kind=Event.Kind.REVEAL, seat__user=user)


def test_a_player_sees_only_their_own_cards_guesses_and_inbox(midgame, ten):
    ann, ben = ten[0], ten[1]
    ann_news = reveals_to(midgame, ann)
    assert any("R4C4" in text for text in ann_news)
    detail, feed, page = everything_seen(midgame, ben)
    blob = json.dumps(detail) + feed + page
    for text in ann_news:
        assert text not in blob
    assert HEAT_CANARY not in blob
    for secret in SECRETS:
        assert secret not in json.dumps(detail) and secret not in page
    table = detail["state"]["table"]["rows"]
    face_up = [cell["name"] for row in table for cell in row if cell["card"]]
    assert face_up == ["R5C5"]  # ben's own Round 2 card, and nobody else's
    # R5C5 now; R1C2 on the previous board (his own flip: shown, not offered for a garnet) and in his summary
    assert page.count('class="ct-card ct-face') == 1 + 1 + 1
    assert "totals" not in detail["state"] and "points" not in detail["state"]


def test_the_owner_sees_their_cards_and_saved_guess(midgame, ten):
    ann = ten[0]
    detail, feed, page = everything_seen(midgame, ann)
    assert detail["submission"]["payload"]["heat_guess"] == HEAT_CANARY
    rows = detail["state"]["table"]["rows"]
    assert {cell["name"] for row in rows for cell in row if cell["card"]} == {"R2C3", "R4C4"}
    assert all(text in json.dumps(detail) + page for text in ["R2C3 is a", "R4C4 is a"])
    # two cards of Round 2, and R1C1 of Round 1 on the previous board and in her summary, each with indicator
    assert page.count("ct-heat ct-bg-") == 2 + 1 + 1


@pytest.mark.parametrize("who", ["anonymous", "outsider", "other_host"])
def test_spectators_and_other_hosts_see_no_cards_no_guesses_no_boards(midgame, ten, who, make_user, season):
    user = None
    if who == "outsider":
        user = make_user("charlie")
    elif who == "other_host":
        user = make_user("otto", is_staff=True)
        game_services.game_create(season=season, game_type="cards_table", name="Other", hosts=[user])
    detail, feed, page = everything_seen(midgame, user)
    assert detail["viewer"]["role"] == "spectator"
    blob = json.dumps(detail) + feed + page
    for user_seated in ten[:2]:
        for text in reveals_to(midgame, user_seated):
            assert text not in blob
    assert HEAT_CANARY not in blob
    for secret in SECRETS:
        assert secret not in json.dumps(detail) and secret not in page
    assert "ct-face" not in page and "ct-heat" not in page
    assert all(cell["card"] is None for row in detail["state"]["table"]["rows"] for cell in row)
    assert "submissions" not in detail


def test_the_game_host_sees_every_board_guess_and_verdict_to_give(midgame, hank):
    detail, feed, page = everything_seen(midgame, hank)
    assert detail["viewer"]["role"] == "host"
    assert len(detail["state"]["boards"]) == 3 and detail["state"]["heat_rule"] == "extremes"
    assert detail["state"]["heat_guesses_to_judge"][0]["text"] == HEAT_CANARY
    assert HEAT_CANARY in page and "The hottest side(s) are black" in page
    assert page.count('value="judge_heat"') == 2


def test_everything_is_revealed_once_the_game_is_over(season, hank, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    game = make_game(season, hank, [ann, ben])
    assert operate(game, ann, "flip", {"row": 3, "col": 3}).status_code == 200
    assert submit(game, ann, 1, {"heat_guess": HEAT_CANARY}).status_code == 201
    assert operate(game, hank, "judge_heat", {"seat": 0, "correct": "0"}).status_code == 200
    assert HeatVerdict.objects.get(game=game).correct is False
    for _ in range(3):
        assert resolve(game, hank).status_code == 200
    game.refresh_from_db()
    assert game.status == "finished"
    detail, feed, page = everything_seen(game, None)
    assert len(detail["state"]["revealed_boards"]) == 3
    assert page.count("Revealed board") == 3
    assert "Your heat indicator guess is incorrect" in feed
    assert HEAT_CANARY in json.dumps(detail["state"]["heat_guesses"])
