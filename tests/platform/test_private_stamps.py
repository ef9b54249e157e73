"""Private activity moves private stamps, not the version spectators poll (issue 17.7), through HTTP.

A spectator's live partial answers "nothing new" (204) while two players chat or trade, so they cannot
count private events by the version; the players concerned, and the hosts, see the news at their next
poll; another player's poll token tells nobody anything.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.platform.models import Game
from tests.api_support import operate
from tests.api_support import page_client as client_of
from tests.horse_race.site_support import make_game

pytestmark = pytest.mark.django_db


def poll_url(client, game) -> str:
    """The live partial's URL as this viewer's page writes it (with their `v`)."""
    html = client.get(f"/games/{game.id}/").content.decode()
    return re.search(r'hx-get="(/games/\d+/live/\?v=[^"]+)"', html).group(1)


@pytest.fixture
def race(season, hank, make_user):
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")]
    return make_game(season, hank, players)


def test_a_pair_chat_message_moves_nothing_a_spectator_polls(
    tally, alice, charlie, django_capture_on_commit_callbacks
):
    watchers = {"visitor": client_of(), "spectator": client_of(charlie)}
    polls = {who: poll_url(client, tally) for who, client in watchers.items()}
    version = Game.objects.get(pk=tally.pk).version
    a, b = sorted(tally.seats.values_list("number", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        posted = client_of(alice).post(f"/games/{tally.id}/chats/{a}-{b}/", {"text": "meet me at the C card"})
    assert posted.status_code == 302
    assert Game.objects.get(pk=tally.pk).version == version
    for who, client in watchers.items():
        assert client.get(polls[who]).status_code == 204, who


def test_a_trade_offer_reaches_its_two_players_and_the_hosts_and_no_one_else(
    race, hank, charlie, django_capture_on_commit_callbacks
):
    ann, ben, cat = (race.seats.get(number=n).user for n in range(3))
    viewers = {"ann": ann, "ben": ben, "cat": cat, "hank": hank, "charlie": charlie, "visitor": None}
    clients = {name: client_of(user) for name, user in viewers.items()}
    polls = {name: poll_url(client, race) for name, client in clients.items()}
    version = Game.objects.get(pk=race.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        assert operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"}).status_code == 200
    assert Game.objects.get(pk=race.pk).version == version  # spectators cannot count offers by it
    answers = {name: clients[name].get(polls[name]) for name in viewers}
    assert {name: r.status_code for name, r in answers.items()} == {
        "ann": 200,
        "ben": 200,
        "cat": 204,
        "hank": 200,
        "charlie": 204,
        "visitor": 204,
    }
    assert "ann offers you their A card for your B card" in answers["ben"].content.decode()
    assert "ann offers you their A card" in answers["hank"].content.decode()
    # The answers carry the new stamps: the next poll is "nothing new" again, and still one query.
    for name in ("ann", "ben", "hank"):
        fresh = re.search(r'hx-get="(/games/\d+/live/\?v=[^"]+)"', answers[name].content.decode()).group(1)
        with CaptureQueriesContext(connection) as captured:
            assert clients[name].get(fresh).status_code == 204, name
        assert len(captured.captured_queries) <= 1, name


def test_another_players_poll_token_tells_nothing(race, django_capture_on_commit_callbacks):
    ann, ben, cat = (race.seats.get(number=n).user for n in range(3))
    anns_poll = poll_url(client_of(ann), race)
    cat_client = client_of(cat)
    assert cat_client.get(anns_poll).status_code == 200  # not her stamps: she is shown her own part
    with django_capture_on_commit_callbacks(execute=True):
        operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    assert cat_client.get(anns_poll).status_code == 200
