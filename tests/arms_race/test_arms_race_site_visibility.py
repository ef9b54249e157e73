"""A hand and what a passer saw reach only their owner, by API, feed or page; the hosts see all."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.arms_race.rules.flow import hand_words
from games.platform.services import games as game_services
from games.platform.services.outcomes import game_finish
from tests.arms_race.arms_race_site import NAMES, act, api, arms_game, state_of
from tests.arms_race.arms_race_table import ORDERED_DEAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def seven(make_user):
    return [make_user(name) for name in NAMES]


@pytest.fixture
def in_flight(season, hank, seven):
    """Round 1's first attacker aims a true claim at the next player in order, who passes and sees it."""
    game = arms_game(season, hank, seven)
    order = state_of(game).order
    attacker, passer = order[0], order[1]
    card = ORDERED_DEAL[attacker][0]
    aim = {"type": "attack", "card": card, "target": passer, "claim": card}
    assert act(game, seven[attacker], aim).status_code == 200
    assert act(game, seven[passer], {"type": "pass"}).status_code == 200
    return game, attacker, passer


def everything_seen_by(game, user=None) -> str:
    """The game's API detail, its feed and its page, as one text."""
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("game", args=[game.id]))
    assert page.status_code == 200
    detail = api(user).get(reverse("api-game", args=[game.id])).json()
    feed = api(user).get(reverse("api-feed", args=[game.id])).json()
    return json.dumps(detail) + json.dumps(feed) + page.content.decode()


def deal_words(seat: int) -> str:
    from games.arms_race.rules import Weapon

    return hand_words([Weapon(w) for w in ORDERED_DEAL[seat]])


def hand_marks(game, seat: int) -> list[str]:
    hand = [w.value for w in state_of(game).hands[seat]]
    return [deal_words(seat), ",".join(hand)]


def test_each_player_sees_only_their_own_hand_and_only_the_passer_what_they_saw(in_flight, seven):
    game, attacker, passer = in_flight
    for seat, user in enumerate(seven):
        seen = everything_seen_by(game, user)
        for other in range(7):
            for mark in hand_marks(game, other):
                assert (mark in seen) == (other == seat), (NAMES[seat], NAMES[other], mark)
        assert ("You looked at the weapon" in seen) == (seat == passer)
        assert ("You have seen the weapon" in seen) == (seat == passer)
        assert ("Your weapon in flight" in seen) == (seat == attacker)
        view = api(user).get(reverse("api-game", args=[game.id])).json()["state"]
        assert "weapon" not in view["flight"] and "hands" not in view
        assert (view["weapon_in_flight"] is not None) == (seat in (attacker, passer))


@pytest.mark.parametrize("who", ["spectator", "anonymous", "other_host"])
def test_spectators_and_hosts_of_other_games_see_no_hand(in_flight, make_user, season, who):
    game, _, _ = in_flight
    user = None
    if who == "spectator":
        user = make_user("sam")
    if who == "other_host":
        user = make_user("olga", is_staff=True)
        game_services.game_create(
            season=season, game_type="arms_race", name="Other", hosts=[user], actor=user
        )
    seen = everything_seen_by(game, user)
    for seat in range(7):
        for mark in hand_marks(game, seat):
            assert mark not in seen
    assert "You looked at the weapon" not in seen and "You have seen the weapon" not in seen
    assert "Your hand" not in seen


def test_the_host_sees_every_hand_the_weapon_in_flight_and_the_deal(in_flight, hank):
    game, attacker, _ = in_flight
    seen = everything_seen_by(game, hank)
    for seat in range(7):
        for mark in hand_marks(game, seat):
            assert mark in seen
    view = api(hank).get(reverse("api-game", args=[game.id])).json()["state"]
    assert view["flight"]["weapon"] == ORDERED_DEAL[attacker][0]
    assert view["deal"] == {"deal": ORDERED_DEAL, "dealt_by": "host"}


def test_a_finished_game_shows_everyone_every_hand(in_flight, hank, make_user):
    game, _, _ = in_flight
    game_finish(game=game)
    seen = everything_seen_by(game, make_user("sam"))
    for seat in range(7):
        for mark in hand_marks(game, seat):
            assert mark in seen
