"""Through a real browser, on a desktop and a 390 px phone: a refused save says so at the top of its form with
the focus on the first field in error, in view; a save confirms itself next to the form; and when the round
closes under a form the player has typed into, what they typed stays with "Not saved", then gives way to the
new round's form with a line saying what became of the last save (games/platform/round_form.py)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Round
from games.platform.services.rounds import round_resolve
from tests.conftest import in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_errors_and_confirmations_in_view_and_a_form_that_follows_the_round(
    tally, alice, page_as, live_server, width
):
    page = page_as(alice, width=width)
    page.set_viewport_size({"width": width, "height": 700})
    page.goto(live_server.url + reverse("game", args=[tally.id]))

    page.fill("input[name=number]", "12")
    page.click("button[name=save]")
    summary = page.locator("#round-form .error-summary")
    assert summary.locator("h3").inner_text() == "Not saved: 1 problem"
    assert "Your number: Pick a number from 0 to 10." in summary.inner_text()
    assert page.evaluate("document.activeElement.name") == "number"
    assert page.input_value("input[name=number]") == "12"
    assert in_view(page, "#round-form .has-error .error") and in_view(page, "input[name=number]")

    page.fill("input[name=number]", "7")
    page.click("button[name=save]")
    told = page.locator("[role=status] .messages")
    assert told.inner_text() == "Saved. You can change it until Round 0 closes."
    # Moved next to the form it confirms, and on the screen.
    assert page.evaluate("document.querySelector('.near').nextElementSibling.id") == "round-form"
    assert in_view(page, ".messages"), page.evaluate(
        "JSON.stringify([document.querySelector('.messages').getBoundingClientRect(), scrollY, innerHeight])"
    )

    # The player types again, and the round closes before they save: what they typed is kept, not saved.
    page.fill("input[name=number]", "3")
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    kept = page.locator("#round-form .round-kept")
    kept.wait_for(timeout=10000)
    assert "Not saved: Round 0 closed" in kept.inner_text() and "Your last save counted." in kept.inner_text()
    assert page.input_value("input[name=number]") == "3" and page.locator("button[name=save]").is_disabled()

    page.get_by_role("button", name="Clear it and show what is open now").click()
    page.locator("#round-form h2", has_text="Round 1: your submission").wait_for(timeout=10000)
    notice = page.locator("#round-form .round-notice").inner_text()
    assert re.fullmatch(r"Round 0 closed: your last save, at .+, counted\.", notice), notice
    assert page.input_value("input[name=number]") == ""


def test_an_untouched_form_is_replaced_by_the_new_rounds(tally, alice, page_as, live_server):
    page = page_as(alice, width=390)
    page.goto(live_server.url + reverse("game", args=[tally.id]))
    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    page.locator("#round-form h2", has_text="Round 1: your submission").wait_for(timeout=10000)
    assert (
        page.locator("#round-form .round-notice").inner_text() == "Round 0 closed: you saved nothing for it."
    )
    assert page.locator("button[name=save]").is_enabled()

    # Typed into, then closed in turn: the form says Round 1 closed, and no longer what became of Round 0.
    page.fill("input[name=number]", "4")
    round_resolve(round_id=tally.rounds.get(number=1).id, early=True)
    page.locator("#round-form .round-kept", has_text="Not saved: Round 1 closed").wait_for(timeout=10000)
    assert page.locator("#round-form .round-notice").count() == 0


def test_at_the_deadline_a_form_the_player_typed_into_stays_marked_not_saved(
    tally, alice, page_as, live_server
):
    Round.objects.filter(game=tally, number=0).update(closes_at=timezone.now() + timedelta(seconds=4))
    page = page_as(alice, width=390)
    page.goto(live_server.url + reverse("game", args=[tally.id]))
    page.fill("input[name=number]", "5")
    kept = page.locator("#round-form .round-kept")
    kept.wait_for(timeout=10000)
    assert "What you typed below was not saved" in kept.inner_text()
    assert page.locator("input[name=number]").is_visible() and page.input_value("input[name=number]") == "5"
    assert page.locator("button[name=save]").is_disabled()

    # The resolution comes after the deadline: the page learns it at its next poll and offers what is open.
    round_resolve(round_id=tally.rounds.get(number=0).id)
    page.get_by_role("button", name="Clear it and show what is open now").click()
    page.locator("#round-form h2", has_text="Round 1: your submission").wait_for(timeout=10000)
    assert page.locator("button[name=save]").is_enabled()
