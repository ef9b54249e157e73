"""Through a real browser: a page left open across a round's deadline swaps its form and countdown for
"closed, results coming" by itself (no resolution has run, so no poll brings news), at 1280 and 390 px."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_form_gives_way_to_closed_results_coming_at_the_deadline(
    tally, alice, page_as, live_server, width
):
    Round.objects.filter(game=tally, number=0).update(closes_at=timezone.now() + timedelta(seconds=4))
    page = page_as(alice, width=width)
    page.goto(live_server.url + reverse("game", args=[tally.id]))
    assert page.locator("button[name=save]").is_visible()
    assert page.locator("#live .status").inner_text().count("closed, results coming") == 0
    page.locator("#round-form [data-once-closed]").wait_for(state="visible", timeout=10000)
    assert not page.locator("button[name=save]").is_visible()
    assert "Round 0: closed, results coming" in page.locator("#round-form").inner_text()
    status = page.locator("#live .status").inner_text()
    assert "closed, results coming" in status and "closes in" not in status
