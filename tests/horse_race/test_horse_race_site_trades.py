"""Trades and garnet purchases: private offers, atomic swaps, doubling prices, never an overdraft."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.horse_race.models import TradeOffer
from games.horse_race.rules import ROUNDS
from games.platform.errors import NotEnough
from games.platform.kit import RulesError
from games.platform.models import Game, LedgerAccount, LedgerEntry
from games.platform.registry import Viewer
from games.platform.services import live
from games.platform.services.ledger import balances, ledger_post
from games.platform.wording import names_for, plain
from tests.horse_race.site_support import make_game, observe, operate, resolve


def hand(game, user) -> dict:
    return observe(game, user)["state"]["you"]["hand"]


@pytest.mark.django_db
def test_an_accepted_offer_swaps_one_card_for_one(race, nine):
    ann, ben = nine[:2]
    offered = operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    assert offered.status_code == 200
    offer = TradeOffer.objects.get()
    assert "ann offers you their A card for your B card" in observe(race, ben)["inbox"][-1]["text"]
    assert operate(race, ben, "accept_trade", {"offer": offer.ref}).status_code == 200
    assert hand(race, ann)["A"] == 0 and hand(race, ann)["B"] == 2
    assert hand(race, ben)["A"] == 2 and hand(race, ben)["B"] == 0
    assert LedgerAccount.objects.get(user=ben, game=race, what="cards", item="A").balance == 2
    # The ledger says who the card came from by name, never "seat 0".
    stored = list(LedgerEntry.objects.filter(account__user=ben, game=race).values_list("reason", flat=True))
    reasons = {plain(reason, names_for(stored)) for reason in stored}  # as the ledger page reads them
    assert {"Traded from ann", "Traded to ann"} <= reasons
    again = operate(race, ben, "accept_trade", {"offer": offer.ref})
    assert again.status_code == 400 and "no longer open" in again.json()["detail"]


@pytest.mark.django_db
def test_the_page_buttons_offer_accept_and_buy(race, nine, season):
    from django.test import Client
    from django.urls import reverse

    ann, ben = nine[:2]
    ledger_post(season=season, user=ben, what="garnets", delta=2, reason="earlier games")
    pages = {}
    for user in (ann, ben):
        pages[user.username] = Client()
        pages[user.username].force_login(user)
    url = reverse("game", args=[race.id])
    page = pages["ann"].get(url).content.decode()
    assert 'value="offer_trade"' in page and 'data-confirm="Spend 2 garnets on a card?"' in page
    offered = pages["ann"].post(
        url, {"op": "offer_trade", "op_give": "A", "op_want": "B", "op_to": "ben"}, follow=True
    )
    # The confirmation names the other player as the inbox does, never by the rules' "{seat:1}".
    assert '<li class="success">You offered ben your A card for their B.</li>' in offered.content.decode()
    offer = TradeOffer.objects.get()
    page = pages["ben"].get(url).content.decode()
    assert "ann gives A to ben for B" in page
    accepted = pages["ben"].post(url, {"op": "accept_trade", "op_offer": offer.ref}, follow=True)
    # Each action confirms itself in the player's words (the page's script puts it beside the form).
    assert "Trade done: you gave a B card and received an A card." in accepted.content.decode()
    bought = pages["ben"].post(url, {"op": "purchase", "op_horse": "H"}, follow=True).content.decode()
    assert '<li class="success">You bought an H card for 2 garnets.</li>' in bought
    assert hand(race, ben)["A"] == 2 and hand(race, ben)["H"] == 2
    refused = pages["ben"].post(url, {"op": "purchase", "op_horse": "H"}, follow=True).content.decode()
    assert "You have 0 garnets; this needs 4." in refused


@pytest.mark.django_db
def test_offers_are_declined_or_withdrawn_only_by_the_right_player(race, nine, hank):
    ann, ben, cat = nine[:3]
    operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    offer = TradeOffer.objects.get()
    assert operate(race, ann, "accept_trade", {"offer": offer.ref}).status_code == 400
    assert operate(race, cat, "decline_trade", {"offer": offer.ref}).status_code == 400
    assert operate(race, hank, "accept_trade", {"offer": offer.ref}).status_code == 403
    assert operate(race, ben, "decline_trade", {"offer": offer.ref}).status_code == 200
    offer.refresh_from_db()
    assert offer.status == "declined"
    operate(race, ann, "offer_trade", {"give": "C", "want": "D", "to": "cat"})
    second = TradeOffer.objects.latest("id")
    assert operate(race, cat, "withdraw_trade", {"offer": second.ref}).status_code == 400
    assert operate(race, ann, "withdraw_trade", {"offer": second.ref}).status_code == 200
    assert hand(race, ann) == {h: 1 for h in "ABCDEFGHI"}


@pytest.mark.django_db
def test_an_offer_needs_a_card_you_hold_and_another_player(race, nine):
    ann = nine[0]
    assert operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ann"}).json()["errors"]["to"]
    assert operate(race, ann, "offer_trade", {"give": "A", "want": "A", "to": "ben"}).json()["errors"]["want"]
    assert operate(race, ann, "offer_trade", {"give": "Z", "want": "A", "to": "ben"}).json()["errors"]["give"]
    operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    operate(race, nine[1], "accept_trade", {"offer": TradeOffer.objects.get().ref})
    assert (
        "You hold no A card"
        in operate(race, ann, "offer_trade", {"give": "A", "want": "C", "to": "cat"}).json()["detail"]
    )


@pytest.mark.django_db
def test_a_trade_whose_card_is_gone_is_refused_and_changes_nothing(race, nine):
    ann, ben, cat = nine[:3]
    operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    operate(race, ann, "offer_trade", {"give": "A", "want": "C", "to": "cat"})
    to_ben, to_cat = TradeOffer.objects.order_by("id")
    assert operate(race, ben, "accept_trade", {"offer": to_ben.ref}).status_code == 200
    late = operate(race, cat, "accept_trade", {"offer": to_cat.ref})
    assert late.status_code == 400
    assert late.json()["detail"] == "ann no longer holds an A card, so this trade can no longer be made."
    assert hand(race, cat) == {h: 1 for h in "ABCDEFGHI"}


@pytest.mark.django_db
def test_purchases_cost_2_then_4_and_an_overdraft_changes_nothing(race, nine, season):
    ann = nine[0]
    ledger_post(season=season, user=ann, what="garnets", delta=7, reason="earlier games")
    assert observe(race, ann)["state"]["you"]["next_purchase_cost"] == 2
    assert operate(race, ann, "purchase", {"horse": "C"}).status_code == 200
    assert operate(race, ann, "purchase", {"horse": "C"}).status_code == 200
    assert balances(season=season, user=ann)["garnets"] == 1
    short = operate(race, ann, "purchase", {"horse": "C"})
    assert short.status_code == 400 and short.json()["detail"] == "You have 1 garnets; this needs 8."
    you = observe(race, ann)["state"]["you"]
    assert you["hand"]["C"] == 3 and you["purchases"] == 2 and you["next_purchase_cost"] == 8
    assert LedgerAccount.objects.get(user=ann, game=race, what="cards", item="C").balance == 3


@pytest.mark.django_db
def test_trades_and_purchases_end_with_the_race(race, nine, hank):
    ann, ben = nine[:2]
    operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    for _ in range(ROUNDS + 1):
        resolve(race, hank)
    assert TradeOffer.objects.get().status == "expired"
    refused = operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    assert refused.status_code in (400, 409)
    assert operate(race, None, "purchase", {"horse": "A"}).status_code in (401, 403)


def run_together(*calls):
    """Run each call in its own thread (and database connection), released at the same moment."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # the outcome under test: which call was refused, and why
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def as_player(game, user) -> Viewer:
    seat = game.seats.get(user=user)
    return Viewer(role="player", seat=seat, user=user)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_accepts_needing_the_same_card_one_wins_one_is_told(race, nine):
    if connection.vendor != "postgresql":
        pytest.skip("Row locks under real concurrency need Postgres; SQLite serialises whole transactions.")
    ann, ben, cat = nine[:3]
    operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    operate(race, ann, "offer_trade", {"give": "A", "want": "C", "to": "cat"})
    to_ben, to_cat = TradeOffer.objects.order_by("id")
    results = run_together(
        lambda: live.operation_run(
            game=race, viewer=as_player(race, ben), name="accept_trade", payload={"offer": to_ben.ref}
        ),
        lambda: live.operation_run(
            game=race, viewer=as_player(race, cat), name="accept_trade", payload={"offer": to_cat.ref}
        ),
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], RulesError)
    assert "no longer holds an A card" in refused[0].message
    assert sorted(TradeOffer.objects.values_list("status", flat=True)) == ["accepted", "open"]
    race.refresh_from_db()
    total_a = sum(p["hand"]["A"] for p in race.state["players"])
    assert total_a == 9 and race.state["players"][0]["hand"]["A"] == 0


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_purchases_never_overdraw_garnets(season, hank, nine):
    if connection.vendor != "postgresql":
        pytest.skip("Row locks under real concurrency need Postgres; SQLite serialises whole transactions.")
    ben = nine[1]
    first = make_game(season, hank, nine[:3])
    second = make_game(season, hank, nine[1:4])
    ledger_post(season=season, user=ben, what="garnets", delta=5, reason="earlier games")

    def buy(game):
        return lambda: live.operation_run(
            game=game, viewer=as_player(game, ben), name="purchase", payload={"horse": "E"}
        )

    results = run_together(buy(first), buy(first), buy(second), buy(second))
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 2 and all(isinstance(r, NotEnough) for r in refused)
    assert balances(season=season, user=ben)["garnets"] == 1
    for game in (first, second):
        game.refresh_from_db()
        seat = game.seats.get(user=ben).number
        assert game.state["players"][seat]["purchases"] == 1
        assert game.state["players"][seat]["hand"]["E"] == 2
    assert Game.objects.filter(status="running").count() == 2
