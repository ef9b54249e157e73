"""Hands stay with their owners: each role's API view, feed and page, and the host who sees everything."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.middle_marathon.rules import Settings
from games.platform.services import games as game_services
from tests.middle_marathon.marathon_site import act, api, marathon_game, observed, put_state
from tests.middle_marathon.positions import make

pytestmark = pytest.mark.django_db

BLUE_HAND, RED_HAND = [0, 1, 3], [0, 2, 4]


@pytest.fixture
def olga(make_user, season):
    """A host of another game of the season: to this game she is only a spectator."""
    olga = make_user("olga", is_staff=True)
    other = game_services.game_create(season=season, game_type="middle_marathon", name="Other", hosts=[olga])
    assert other.hosts.filter(pk=olga.pk).exists()
    return olga


@pytest.fixture
def game(season, hank, alice, bob):
    """Blue (alice) plays 0 on Movement and discards the 1 in secret; Red (bob) is to play."""
    game = marathon_game(season, hank, alice, bob, settings={"discards_public": False})
    put_state(
        game, make({"FB": 4, "FR": 6}, hands=(BLUE_HAND, RED_HAND), settings=Settings(discards_public=False))
    )
    assert act(game, alice, {"type": "play", "card": 0, "piece": "M"}).status_code == 200
    assert act(game, alice, {"type": "choose", "choice": [1]}).status_code == 200
    return game


def page(game, user) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("game", args=[game.id])).content.decode()


def cards_in(html: str, css_class: str) -> list[list[str]]:
    """The cards shown in each element of `css_class` (a hand) on the page."""
    blocks = re.findall(rf'class="{css_class}"[^>]*>(.*?)</(?:p|li)>', html, flags=re.S)
    return [re.findall(r'<span class="mm-card">(\d)</span>', block) for block in blocks]


def feed_texts(game, user) -> list[str]:
    response = api(user).get(reverse("api-feed", args=[game.id]))
    return [event["text"] for event in response.json()["events"]]


def test_each_player_sees_only_their_own_hand_in_the_api(game, alice, bob):
    blue, red = observed(game, alice)["state"], observed(game, bob)["state"]
    assert blue["hand"] == [3] and red["hand"] == RED_HAND
    for view in (blue, red):
        assert "hands" not in view and "state" not in view and "hand_rows" not in view
    assert blue["my_discards"] == [{"turn": 1, "seat": 0, "cards": [1]}] and red["my_discards"] == []
    assert red["discards"] == [{"turn": 1, "seat": 0, "count": 1}]


@pytest.mark.parametrize("who", ["charlie", "olga", "anonymous"])
def test_spectators_and_a_host_of_another_game_see_no_hand(game, who, charlie, olga):
    user = {"charlie": charlie, "olga": olga, "anonymous": None}[who]
    view = observed(game, user)
    assert view["viewer"]["role"] == "spectator"
    state = view["state"]
    assert not {"hand", "hands", "hand_rows", "state", "my_discards"} & set(state)
    assert state["discards"] == [{"turn": 1, "seat": 0, "count": 1}]
    assert "cards" not in state["pending"] and state["legal_actions"] == []
    assert all("choice" not in d for d in state["decisions"] if d["kind"] == "discard")
    assert not any("You discard" in text for text in feed_texts(game, user))
    html = page(game, user)
    assert cards_in(html, "mm-hand") == [] and cards_in(html, "mm-hand-of") == []
    assert 'name="action"' not in html and "You discard" not in html


def test_the_secret_discard_reaches_only_its_owners_inbox(game, alice, bob):
    assert "You discard the 1" in feed_texts(game, alice)
    assert not any("You discard" in text for text in feed_texts(game, bob))
    assert "Blue discards 1 card(s)" in feed_texts(game, bob)


def test_the_pages_show_each_player_their_own_hand_and_moves_only_to_the_one_to_move(game, alice, bob):
    blue, red = page(game, alice), page(game, bob)
    assert cards_in(blue, "mm-hand") == [["3"]] and cards_in(red, "mm-hand") == [["0", "2", "4"]]
    assert cards_in(blue, "mm-hand-of") == [] and cards_in(red, "mm-hand-of") == []
    assert "You discard the 1" in blue and "You discard" not in red
    # Red is to play: only Red's page offers cards, and only the cards in Red's hand.
    assert 'name="action"' not in blue
    offered = {
        int(card)
        for card in re.findall(
            r'name="action" value="\{&quot;type&quot;:&quot;play&quot;,&quot;card&quot;:(\d)', red
        )
    }
    assert offered == set(RED_HAND)


def test_the_feed_partial_shows_a_hand_only_to_its_owner(game, alice, bob, charlie):
    def partial(user):
        client = Client()
        client.force_login(user)
        return client.get(reverse("game-feed", args=[game.id])).content.decode()

    assert cards_in(partial(alice), "mm-hand") == [["3"]]
    assert cards_in(partial(bob), "mm-hand") == [["0", "2", "4"]]
    assert cards_in(partial(charlie), "mm-hand") == []


def test_the_host_sees_the_whole_state(game, hank):
    view = observed(game, hank)
    assert view["viewer"]["role"] == "host"
    state = view["state"]
    assert state["hands"] == [[3], RED_HAND] and state["discards"] == [{"turn": 1, "seat": 0, "cards": [1]}]
    assert state["state"]["hands"] == [[3], RED_HAND] and state["legal_actions"] == []
    assert "You discard the 1" in feed_texts(game, hank)
    html = page(game, hank)
    assert cards_in(html, "mm-hand-of") == [["3"], ["0", "2", "4"]]
    assert "alice (Blue) holds:" in html and "bob (Red) holds:" in html
