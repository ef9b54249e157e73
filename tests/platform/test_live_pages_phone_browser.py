"""The live pages on a phone (390 px): nothing wider than the screen, the decision in the first screenful,
the Marathon's log numbers whole, and an Arms Race page that stays short however many time-outs it had."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse

from games.arms_race.rules import WEAPONS
from games.middle_marathon import rules as marathon_rules
from games.platform.models import TurnClock
from games.platform.services.clocks import clock_expire
from games.platform.services.live import action_apply
from tests.arms_race.arms_race_site import arms_game
from tests.arms_race.arms_race_site import deciding as arms_decision
from tests.arms_race.arms_race_site import state_of as arms_state
from tests.middle_marathon.marathon_site import marathon_game, put_state
from tests.middle_marathon.marathon_site import state_of as marathon_state
from tests.middle_marathon.positions import make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE, SCREEN = 390, 900  # page_as opens a 900 px tall viewport


def page_size(page) -> dict:
    return page.evaluate(
        "({width: document.scrollingElement.scrollWidth, height: document.scrollingElement.scrollHeight})"
    )


def time_out(game, times: int) -> None:
    """Let the deciding player's clock run out `times` times, as the sweep does when nobody plays."""
    for _ in range(times):
        clock = TurnClock.objects.get(game=game)
        clock_expire(game_id=game.id, generation=clock.generation, now=clock.deadline + timedelta(seconds=1))


def test_a_marathon_fits_a_phone_for_both_players_and_a_spectator(
    season, hank, alice, bob, page_as, live_server
):
    game = marathon_game(season, hank, alice, bob)
    seats = {seat.number: seat for seat in game.seats.all()}
    rng = random.Random(5)
    while len(marathon_state(game).log) < 12:
        state = marathon_state(game)
        mover = marathon_rules.pending(state)["seat"]
        action_apply(seat=seats[mover], payload=rng.choice(marathon_rules.legal_actions(state, mover)))
    state = marathon_state(game)
    mover = marathon_rules.pending(state)["seat"]
    url = live_server.url + reverse("game", args=[game.id])
    users = [alice, bob]
    for user in (users[mover], users[1 - mover], None):
        page = page_as(user, width=PHONE)
        page.goto(url)
        assert page_size(page)["width"] <= PHONE
        # Sixteen lines (the finish and fifteen spaces) no more: the empty spaces share lines.
        assert page.locator(".mm-track").bounding_box()["height"] < 8 * 40
        numbers = page.locator(".mm-log .mm-n")
        assert numbers.all_inner_texts() == [f"{n}." for n in range(len(state.log), 0, -1)]
        log = page.locator(".mm-log").bounding_box()
        assert log["x"] >= 0
        for box in (numbers.nth(i).bounding_box() for i in range(numbers.count())):
            assert log["x"] <= box["x"] and box["x"] + box["width"] <= log["x"] + log["width"]
        assert numbers.evaluate_all("ns => ns.every(n => n.scrollWidth <= n.clientWidth)")
        if user is users[mover]:
            assert page.locator("button[name=action]").first.bounding_box()["y"] < SCREEN
        else:
            assert page.locator("button[name=action]").count() == 0


def test_a_finish_line_of_many_pieces_wraps_on_a_phone(season, hank, alice, bob, page_as, live_server):
    # Seven pieces home make the finish line wider than a phone: it wraps inside the screen, not beyond it.
    game = marathon_game(season, hank, alice, bob)
    put_state(game, make({"M": 3}, gone=("FB", "GB", "RB", "FR", "GR", "RR", "SB")))
    page = page_as(bob, width=PHONE)
    page.goto(live_server.url + reverse("game", args=[game.id]))
    assert page.locator(".mm-finish .mm-piece").count() == 7
    assert page_size(page)["width"] <= PHONE
    finish = page.locator(".mm-finish").bounding_box()
    assert finish["x"] >= 0 and finish["x"] + finish["width"] <= PHONE


def test_an_arms_race_of_time_outs_stays_short_on_a_phone_and_marks_who_is_one_wound_from_losing(
    season, hank, make_user, page_as, live_server
):
    users = [make_user(name) for name in ("ana", "ben", "cleo", "dev", "eli", "fay", "gus")]
    game = arms_game(season, hank, users, deal=None, seed=7)
    url = live_server.url + reverse("game", args=[game.id])
    spectator = page_as(None, width=PHONE)

    time_out(game, 14)  # the first round's attacks, each with an attack and a challenge timed out
    spectator.goto(url)
    first = page_size(spectator)
    time_out(game, 56)  # four rounds more: 70 time-outs, 140 lines announced
    spectator.reload()
    later = page_size(spectator)
    assert first["width"] <= PHONE and later["width"] <= PHONE
    # What grows with the game is folded: a line or two more (those one wound from losing), not a screenful.
    assert later["height"] - first["height"] < 300, (first, later)
    assert spectator.get_by_text("earlier announcements").is_visible()
    assert spectator.get_by_text("earlier attacks").is_visible()
    # A fold the viewer opened stays open when the next move comes in by the poll.
    spectator.get_by_text("earlier announcements").click()
    latest = spectator.locator(".feed .events li").first.inner_text()
    time_out(game, 1)
    spectator.wait_for_function("t => document.querySelector('.feed .events li').innerText != t", arg=latest)
    assert spectator.locator("#earlier-announcements").evaluate("fold => fold.open")

    state = arms_state(game)
    near = {
        users[seat].username
        for seat in range(state.players)
        if any(state.wounds_of(seat, w) == state.settings.wounds_to_lose - 1 for w in WEAPONS)
    }
    assert near, "70 time-outs wound someone twice with one weapon"
    deciding = users[arms_decision(game)["seats"][0]]
    waiting = next(user for user in users if user != deciding)
    for user in (None, deciding, waiting):
        page = spectator if user is None else page_as(user, width=PHONE)
        page.goto(url)
        assert page_size(page)["width"] <= PHONE
        rows = page.locator(".ar-wounds tbody tr")
        marked = {
            rows.nth(i).locator("th").inner_text().split()[0]
            for i in range(rows.count())
            if "ar-near-loss" in rows.nth(i).get_attribute("class")
        }
        assert marked == near
        assert "One wound from losing" in page.locator(".ar-near-loss-line").inner_text()
        # The table slides inside its own box, which says so; the page itself does not.
        assert page.locator(".ar-slide-hint").is_visible()
        if user is deciding:
            assert page.locator("#ar-decide").bounding_box()["y"] < SCREEN
        else:
            assert page.locator("#ar-decide").count() == 0
