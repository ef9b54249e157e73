"""A Middle Marathon and an Arms Race played from "I'm here" to the end (issue 20, "Done means"), each on a
desktop (1280 px) and a phone (390 px) at once: the clocks wait until the last player sits down, then every
screen shows the running clock, the turn marker ("Your turn" or whom the game waits for) and the tab's title
("● Your turn · genius", or "● Your decision", for the player the game waits on only), after each move, by
polling alone.

GENIUS_SCREENSHOTS=<folder> keeps the sitting-down page at 1280 and 390 px (the README's pictures:
docs/screenshots/sitting).
"""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.arms_race.rules import pending as arms_pending
from games.middle_marathon import rules as marathon_rules
from games.platform.models import Game
from tests.api_support import api
from tests.arms_race.arms_race_site import arms_game
from tests.arms_race.arms_race_site import state_of as arms_state
from tests.middle_marathon.marathon_site import marathon_game, put_state
from tests.middle_marathon.marathon_site import state_of as marathon_state
from tests.middle_marathon.positions import make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DESKTOP, PHONE = 1280, 390
POLL = 5000  # ms: what a page may take to show another's move (a 1 s poll, on a busy test machine)
YOUR_TURN = re.compile(r"^(\(\d+\) )?● Your (turn|decision) · genius$")


def shoot(page, name: str) -> None:
    where = os.environ.get("GENIUS_SCREENSHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        page.screenshot(path=f"{where}/{name}.png", full_page=True)


def running_clock(page) -> None:
    """The turn marker's clock counts down to a deadline (not "paused", not "closing…")."""
    clock = page.locator("#turn .turn-clock time.countdown")
    expect(clock).to_have_attribute("data-until", re.compile(r"\d{4}-"), timeout=POLL)
    assert "paused" not in clock.inner_text() and "closing" not in clock.inner_text()


def marker(page, mine: bool, waiting_for: str = "") -> None:
    """The turn marker and the title, as this page's player should read them now."""
    turn = page.locator("#turn")
    if mine:
        expect(turn).to_contain_text(re.compile(r"Your (turn|decision)"), timeout=POLL)
        expect(page).to_have_title(YOUR_TURN, timeout=POLL)
    else:
        expect(turn).to_contain_text(f"Waiting for {waiting_for}", timeout=POLL)
        expect(page).not_to_have_title(YOUR_TURN, timeout=POLL)
    running_clock(page)


def test_a_middle_marathon_from_im_here_to_the_end_on_a_desktop_and_a_phone(
    season, hank, alice, bob, page_as, live_server
):
    # The hosts chose that an absent player's seat is given to another: their page has the form for it.
    game = marathon_game(season, hank, alice, bob, settings={"absent_at_start": "is replaced"}, seated=False)
    # Two Swaps and the Movement piece left near the finish: the race ends within a few turns.
    put_state(game, make({"SB": 12, "SR": 12, "M": 11}, rest=None))
    url = live_server.url + reverse("game", args=[game.id])
    blue, red = page_as(alice, width=DESKTOP), page_as(bob, width=PHONE)
    for page in (blue, red):
        page.goto(url)
        expect(page.locator("#sitting")).to_contain_text("The match starts when everyone is here.")
        expect(page.locator("#sitting")).to_contain_text("0 of 2 here")
        assert page.locator("#turn").count() == 0  # no clock runs, nobody's turn
        assert not YOUR_TURN.match(page.title())

    # Blue sits down; Red's phone learns it by polling, and still has its button.
    blue.get_by_role("button", name="I'm here").click()
    expect(blue.locator("#sitting")).to_contain_text("You are here.")
    expect(red.locator("#sitting")).to_contain_text("1 of 2 here: alice", timeout=POLL)
    expect(red.get_by_role("button", name="I'm here")).to_be_visible()
    assert red.locator(".here-button").bounding_box()["y"] < 900  # in the phone's first screenful
    shoot(blue, "sitting-down-1280")
    shoot(red, "sitting-down-390")
    host = page_as(hank, width=DESKTOP)
    host.goto(url)
    expect(host.locator("#replace-form")).to_contain_text("Give an absent player's seat to another player")
    assert host.locator("#replace-seat option").all_inner_texts() == ["Seat 2: bob"]
    expect(host.get_by_role("button", name="Pause the match")).to_be_visible()
    shoot(host, "sitting-down-host-1280")
    refused = api(alice).post(
        reverse("api-action", args=[game.id]),
        {"payload": {"type": "play", "card": 4, "piece": "SB"}},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["detail"].endswith("(1 of 2 so far).")

    # Red sits down: the clocks start, on Red's page at once and on Blue's by its poll.
    red.get_by_role("button", name="I'm here").click()
    expect(red.locator("#sitting")).to_have_count(0)
    marker(red, mine=False, waiting_for="alice")
    expect(blue.locator("#sitting")).to_have_count(0, timeout=POLL)
    marker(blue, mine=True)

    pages = {0: blue, 1: red}
    names = {0: "alice", 1: "bob"}
    for _ in range(40):
        state = marathon_state(game)
        if state.result is not None:
            break
        mover = marathon_rules.pending(state)["seat"]
        mine, theirs = pages[mover], pages[1 - mover]
        marker(mine, mine=True)
        marker(theirs, mine=False, waiting_for=names[mover])
        with mine.expect_navigation():
            mine.locator("button[name=action]").first.click()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for page in (blue, red):
        expect(page.locator(".mm-result")).to_contain_text("wins", timeout=POLL)
        assert not YOUR_TURN.match(page.title())


def arms_act_in_browser(page) -> None:
    """The deciding player's page: an attack with its first card told truthfully, or a challenge."""
    if page.locator("select[name=card]").count():
        card = page.locator("select[name=card] option").first.get_attribute("value")
        page.select_option("select[name=card]", card)
        page.select_option("select[name=claim]", card)
        with page.expect_navigation():
            page.click("button[name=move]")
    else:
        with page.expect_navigation():
            page.get_by_role("button", name='Challenge: "truth"').click()


def arms_act_by_api(game, user) -> None:
    view = api(user).get(reverse("api-game", args=[game.id])).json()["state"]["my_decision"]
    options = view["options"]
    if view["kind"] == "attack":
        card = next(c for c in options["cards"] if c != "wild")
        payload = {"type": "attack", "card": card, "target": options["targets"][0], "claim": card}
    else:
        payload = {"type": "challenge", "call": "truth"}
    answer = api(user).post(reverse("api-action", args=[game.id]), {"payload": payload}, format="json")
    assert answer.status_code == 200, answer.json()


def test_an_arms_race_from_im_here_to_the_end_on_a_desktop_and_a_phone(
    season, hank, make_user, page_as, live_server
):
    users = [make_user(name) for name in ("ana", "ben", "cleo")]
    settings = {"rounds": 1, "wild_cards_offered": False}
    game = arms_game(season, hank, users, settings=settings, seated=False)
    url = live_server.url + reverse("game", args=[game.id])
    pages = {0: page_as(users[0], width=DESKTOP), 1: page_as(users[1], width=PHONE)}
    for page in pages.values():
        page.goto(url)
        expect(page.locator("#sitting")).to_contain_text("0 of 3 here")
        assert page.locator("#ar-decide").count() == 0 and page.locator("#turn").count() == 0

    pages[0].get_by_role("button", name="I'm here").click()
    pages[1].get_by_role("button", name="I'm here").click()
    expect(pages[0].locator("#sitting")).to_contain_text("2 of 3 here: ana, ben", timeout=POLL)
    # cleo sits down through the API: the clocks start, and both screens show it by polling.
    assert api(users[2]).post(reverse("api-here", args=[game.id])).status_code == 200
    for page in pages.values():
        expect(page.locator("#sitting")).to_have_count(0, timeout=POLL)

    for _ in range(30):
        decision = arms_pending(arms_state(game))
        if decision is None:
            break
        seat = decision["seats"][0]
        for number, page in pages.items():
            if number == seat:
                marker(page, mine=True)
            else:
                marker(page, mine=False, waiting_for=users[seat].username)
        if seat in pages:
            arms_act_in_browser(pages[seat])
        else:
            arms_act_by_api(game, users[seat])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for page in pages.values():
        expect(page.locator(".ar-outcome")).to_contain_text("is the sole loser", timeout=POLL)
        assert not YOUR_TURN.match(page.title())
