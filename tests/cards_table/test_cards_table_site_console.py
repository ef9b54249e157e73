"""Heat verdicts in the host's console (issue 21.1 and the bug of 21.2): a round that waits for a verdict
resolves when the host gives the last one, even when the host had asked for it early."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages

from games.platform.models import Round

from .site_support import submit

pytestmark = pytest.mark.django_db


def press(client, game, action, **data) -> str:
    # confirm=yes: the press as confirmed (Resolve now and Pause ask first: test_console_answers.py)
    answer = client.post(f"/admin/platform/game/{game.id}/host/{action}/", {"confirm": "yes", **data})
    assert answer.status_code == 302
    return str(list(get_messages(answer.wsgi_request))[-1])


@pytest.mark.django_db(transaction=True)  # the resolution follows the verdict's commit, as it does live
def test_a_round_that_waited_for_verdicts_resolves_when_the_host_gives_the_last_one(client, cards, ten, hank):
    assert submit(cards, ten[2], 1, {"heat_guess": "black faces the hotter side"}).status_code == 201
    assert submit(cards, ten[4], 1, {"heat_guess": "the sum of the neighbours"}).status_code == 201
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{cards.id}/change/").content.decode()
    assert "Heat indicator guess: “black faces the hotter side”" in page and 'value="Right"' in page
    # The host asks for the close before the deadline: it waits for the two verdicts, and says so.
    assert press(client, cards, "resolve") == (
        "Round 1 was not resolved: waiting for 2 verdicts (cat, eve). "
        "Give them below; the round then resolves."
    )
    assert press(client, cards, "verdict", seat=2, answer="Wrong") == (
        "Verdict given: cat, wrong. Waiting for 1 more verdict."
    )
    assert Round.objects.get(game=cards, number=1).status == Round.Status.OPEN
    answer = press(client, cards, "verdict", seat=4, answer="Right")
    assert answer.startswith("Verdict given: eve, right. Round 1 resolved. Round 2 is open until")
    assert Round.objects.get(game=cards, number=1).status == Round.Status.RESOLVED


def test_a_verdict_given_before_anyone_asked_for_the_close_waits_for_the_deadline(client, cards, ten, hank):
    assert submit(cards, ten[2], 1, {"heat_guess": "black faces the hotter side"}).status_code == 201
    client.force_login(hank)
    assert press(client, cards, "verdict", seat=2, answer="Right") == "Verdict given: cat, right."
    assert Round.objects.get(game=cards, number=1).status == Round.Status.OPEN


def test_a_verdict_for_a_seat_with_no_guess_is_refused(client, cards, hank):
    client.force_login(hank)
    assert press(client, cards, "verdict", seat=3, answer="Right") == (
        "That verdict is no longer waiting: the round moved on."
    )
