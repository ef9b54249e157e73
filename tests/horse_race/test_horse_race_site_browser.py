"""Through a real browser: a player fills in and saves a round form; a spectator sees an exit arrive live."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import round_resolve
from tests.conftest import in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_saves_the_round_form_and_a_spectator_sees_the_exit(race, nine, page_as, live_server):
    url = live_server.url + reverse("game", args=[race.id])
    player = page_as(nine[0], width=360)
    player.goto(url)
    player.check("input[name=ability][value=clue]")
    player.fill("input[name=clue_use_0]", "2")
    player.click("button[name=save]")
    assert player.locator(".has-error .error").inner_text() == "You need 2 A cards for this and hold 1."
    assert player.input_value("input[name=clue_use_0]") == "2"
    player.fill("input[name=clue_use_0]", "1")
    player.click("button[name=save]")
    assert "Saved." in player.locator(".messages").inner_text()
    assert player.is_checked("input[name=ability][value=clue]")
    assert player.input_value("input[name=clue_use_0]") == "1"

    spectator = page_as(None)
    spectator.goto(url)
    assert "has finished the race" not in spectator.content()
    for number in range(6):  # A and B exit in Round 5
        round_resolve(round_id=race.rounds.get(number=number).id, early=True)
    spectator.wait_for_selector("text=Horse A has finished the race in Round 5, placing 1st.", timeout=15000)
    text = spectator.content()
    assert "Round 0 clue" not in text and "you hold" not in text


@pytest.mark.parametrize("width", [1280, 390])
def test_a_player_offers_a_trade_and_the_other_accepts_it_on_the_page(
    race, nine, page_as, live_server, width
):
    """The offer travels by its ref (issue 17.7): offered, shown to ben with its buttons, accepted there."""
    import os

    from games.horse_race.models import TradeOffer
    from games.platform.models import Game

    url = live_server.url + reverse("game", args=[race.id])
    version = Game.objects.get(pk=race.pk).version
    ann = page_as(nine[0], width=width)
    ann.goto(url)
    ann.select_option("select[name=op_give]", "A")
    ann.select_option("select[name=op_want]", "B")
    ann.select_option("select[name=op_to]", "ben")
    ann.click("button[name=op][value=offer_trade]")
    # Confirmed where she is looking, naming the player as the inbox does.
    told = ann.locator("main .messages")
    assert told.inner_text() == "You offered ben your A card for their B."
    assert in_view(ann, "main .messages")
    offer = TradeOffer.objects.get()
    ben = page_as(nine[1], width=width)
    ben.goto(url)
    assert ben.locator("input[name=op_offer]").first.get_attribute("value") == offer.ref
    assert "offers you their A card for your B card" in ben.content()
    folder = os.environ.get("GENIUS_SCREENSHOTS")
    if folder:
        ben.screenshot(path=f"{folder}/trade-offer-{width}.png", full_page=True)
    ben.click("button[name=op][value=accept_trade]")
    ben.wait_for_selector("text=Trade done: you gave a B card and received an A card.")
    assert in_view(ben, "main .messages")
    assert TradeOffer.objects.get().status == TradeOffer.Status.ACCEPTED
    assert Game.objects.get(pk=race.pk).version == version, "spectators' version stays"

    # A purchase confirms itself in view too.
    ledger_post(season=race.season, user=nine[1], what="garnets", delta=2, reason="earlier games")
    ben.select_option("select[name=op_horse]", "H")
    ben.once("dialog", lambda dialog: dialog.accept())  # "Spend 2 garnets on a card?"
    with ben.expect_navigation():
        ben.click("button[name=op][value=purchase]")
    assert ben.locator("main .messages").inner_text() == "You bought an H card for 2 garnets."
    assert in_view(ben, "main .messages")
