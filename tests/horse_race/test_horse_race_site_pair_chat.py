"""Trades are offered and answered from the pair chat page of the two players."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.horse_race.models import TradeOffer


@pytest.mark.django_db
def test_a_trade_is_offered_and_accepted_from_the_pair_chat(race, nine, client):
    ann, ben, cat = nine[:3]
    chat = reverse("chat", args=[race.id, 0, 1])
    client.force_login(ann)
    page = client.get(chat).content.decode()
    assert 'name="op_to" value="ben"' in page and "Offer a trade" in page
    sent = client.post(
        reverse("game", args=[race.id]),
        {"op": "offer_trade", "op_give": "A", "op_want": "B", "op_to": "ben", "next": chat},
    )
    assert sent.status_code == 302 and sent.headers["Location"] == chat
    offer = TradeOffer.objects.get()
    client.force_login(ben)
    page = client.get(chat).content.decode()
    assert "ann gives A to ben for B" in page and 'value="accept_trade"' in page
    client.post(reverse("game", args=[race.id]), {"op": "accept_trade", "op_offer": offer.ref, "next": chat})
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.ACCEPTED
    client.force_login(cat)  # a third player neither reads the chat nor sees its trades
    assert client.get(chat).status_code == 404


@pytest.mark.django_db
def test_next_never_leaves_the_site(race, nine, client):
    client.force_login(nine[0])
    sent = client.post(
        reverse("game", args=[race.id]),
        {"op": "purchase", "op_horse": "A", "next": "https://elsewhere.example/"},
    )
    assert sent.headers["Location"] == reverse("game", args=[race.id])
