"""The small things players saw (issue 29.6), each with its test."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.horse_race.models import TradeOffer
from games.platform.awaiting import OFFER, awaiting
from games.platform.services.rounds import submission_save
from tests.api_support import operate
from tests.horse_race.site_support import make_game

pytestmark = pytest.mark.django_db


# -- a trade offer made to you awaits your answer -------------------------------------------------------


@pytest.fixture
def three(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def offers_to(user):
    return [(a.game_name, a.text, a.url) for a in awaiting(user) if a.need == OFFER]


def test_a_trade_offer_made_to_you_awaits_you_and_counts_in_the_title(client, season, hank, three):
    ann, ben, cat = three
    race = make_game(season, hank, three)
    for user in three:  # everyone has submitted: only the offer is left to await
        submission_save(seat=race.seats.get(user=user), round_number=0, payload={}, final=True)
    assert operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"}).status_code == 200
    page = reverse("game", args=[race.id])
    assert offers_to(ben) == [("Horse Race", "A trade offer awaits your answer", page)]
    assert offers_to(ann) == offers_to(cat) == [], "the offer awaits only the one it is made to"
    client.force_login(ben)
    html = client.get(reverse("home")).content.decode()
    assert "<title>(1) genius</title>" in html and "A trade offer awaits your answer" in html
    assert operate(race, cat, "offer_trade", {"give": "C", "want": "D", "to": "ben"}).status_code == 200
    assert offers_to(ben) == [("Horse Race", "2 trade offers await your answer", page)]
    for offer in TradeOffer.objects.filter(offered_to__user=ben):
        assert operate(race, ben, "decline_trade", {"offer": offer.ref}).status_code == 200
    assert offers_to(ben) == []


def test_offers_are_read_in_one_query_however_many_races(season, hank, three, make_user):
    ann, ben, cat = three

    def queries():
        with CaptureQueriesContext(connection) as ctx:
            awaiting(ben)
        return len(ctx)

    first = make_game(season, hank, three)
    operate(first, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    one = queries()
    for n in range(2):
        race = make_game(season, hank, [ann, ben, make_user(f"dan{n}")])
        operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    assert len([a for a in awaiting(ben) if a.need == OFFER]) == 3
    assert queries() == one
