"""Live matches in browsers, on the clock (issue 20.2 and 20.3).

- The true clock on every screen: once the turn time runs out, the page counts the reserve (no sweep has run:
  the worker is "down"), and when the sweep draws a step, the opponent's and a spectator's shown reserve
  follows within two seconds.
- "● Your turn · genius": after the opponent moves, the player's tab title says it is their turn within the
  poll and a second, with the beep and the notification they asked for; it goes back after they move.

GENIUS_SCREENSHOTS=<folder> keeps the live page at 1280 and 390 px on the player's turn and on the opponent's.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from games.middle_marathon import rules as marathon_rules
from games.middle_marathon.settings import default_settings
from games.platform.models import TurnClock
from games.platform.services.clocks import clock_expire
from tests.live_support import RECORDED_ALERTS
from tests.middle_marathon.marathon_site import marathon_game, put_state, state_of
from tests.middle_marathon.positions import make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
POLL_AND_A_SECOND = 2000  # ms: the live pages poll every second
CLOCK_TEXT = "document.querySelector('#turn .turn-clock').innerText"
BLUES_RESERVE = "document.querySelector(\".mm-players li[data-seat='0'] .mm-reserve\").innerText"

# Records what the page's script asks of the speaker and of the Notification API (a test browser has neither
# a speaker nor a user to grant the permission).
ALERTS_RECORDED = (
    RECORDED_ALERTS
    + """
RecordedNotification.permission = "default";
RecordedNotification.requestPermission = () => {
  RecordedNotification.permission = "granted";
  return Promise.resolve("granted");
};
"""
)


def shoot(page, name: str) -> None:
    where = os.environ.get("GENIUS_SCREENSHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{where}/{name}-{width}.png", full_page=False)
        page.set_viewport_size({"width": 1000, "height": 900})


def reserve_of(page, seat: int) -> str:
    return page.locator(f".mm-players li[data-seat='{seat}'] .mm-reserve").inner_text()


def test_the_reserve_counts_on_every_screen_and_a_drawn_step_reaches_them_within_two_seconds(
    season, hank, alice, bob, page_as, live_server
):
    # 12 s a turn, then 10 s of reserve drawn 5 s at a time: short clocks, the rules' own arithmetic.
    settings = {
        **default_settings(),
        "turn_seconds": 12,
        "reserve_seconds": 10,
        "reserve_increment_seconds": 5,
    }
    game = marathon_game(season, hank, alice, bob, settings=settings)  # alice (Blue) is on turn
    url = live_server.url + reverse("game", args=[game.id])
    opponent, spectator, player = page_as(bob), page_as(None, width=390), page_as(alice)
    for page in (opponent, spectator, player):
        page.goto(url)
        assert reserve_of(page, 0) == "0:10"
    assert player.locator("#turn").inner_text().startswith("Your turn")
    assert re.fullmatch(
        r"Waiting for alice\s+\d+s \(\+ 10s reserve\)", opponent.locator("#turn").inner_text()
    )

    # The turn time runs out and no worker draws the reserve: every page counts it, as the draw will.
    for page in (opponent, spectator, player):
        page.wait_for_function(f"() => /^reserve \\d+s \\(\\+ 5s\\)$/.test({CLOCK_TEXT})", timeout=15000)
        assert "closing" not in page.locator("#turn").inner_text()
    assert timezone.now() > TurnClock.objects.get(game=game).deadline
    assert reserve_of(opponent, 0) == "0:10"  # what is stored: nothing was drawn yet

    # The sweep draws the step: the shown reserve follows on the other screens within two seconds.
    clock = TurnClock.objects.get(game=game)
    assert clock_expire(game_id=game.id, generation=clock.generation)
    drawn = time.monotonic()
    for page in (opponent, spectator):
        page.wait_for_function(f"() => {BLUES_RESERVE} === '0:05'", timeout=POLL_AND_A_SECOND)
    assert time.monotonic() - drawn < 2
    assert re.fullmatch(r"reserve \d+s \(\+ 5s\)", opponent.locator("#turn .turn-clock").inner_text())
    shoot(opponent, "live-reserve-opponent")

    # The reserve gone too: the pages say the time ran out (the time-out comes with the sweep or the next
    # move), never "closing…".
    for page in (opponent, spectator):
        page.wait_for_function(f"() => {CLOCK_TEXT} === 'time ran out'", timeout=12000)
        assert "closing" not in page.locator("#live").inner_text()


def simple_turn(state, seat: int) -> dict:
    """A card `seat` may play that asks nothing more and passes the turn to the other player."""
    for action in marathon_rules.legal_actions(state, seat):
        if action["type"] != "play":
            continue
        after, _ = marathon_rules.apply(state, seat, action)
        waiting = marathon_rules.pending(after)
        if waiting["kind"] == "turn" and waiting["seat"] == 1 - seat:
            return action
    raise AssertionError("no simple move in this position")


def click_play(page, action: dict) -> None:
    label = f"Play {action['card']} on {marathon_rules.name(action['piece'])}"
    with page.expect_navigation():
        page.get_by_role("button", name=label).click()


def test_the_title_says_your_turn_within_a_poll_and_a_second_with_the_sound_and_notification_asked_for(
    season, hank, alice, bob, page_as, live_server
):
    game = marathon_game(season, hank, alice, bob)
    put_state(game, make({"FB": 3, "GR": 5, "M": 2}))
    url = live_server.url + reverse("game", args=[game.id])
    blue, red = page_as(alice), page_as(bob)
    red.add_init_script(ALERTS_RECORDED)
    blue.goto(url)
    red.goto(url)
    your_turn = re.compile(r"^(\(\d+\) )?● Your turn · genius$")
    assert your_turn.match(blue.title())
    assert red.title().endswith("Middle Marathon · genius")
    shoot(blue, "live-your-turn")
    shoot(red, "live-opponents-turn")

    # Red asks for the sound and the notification: the click asks the browser's permission, and beeps once.
    red.get_by_label("Sound and notification when it is my turn").check()
    red.wait_for_function("() => window.Notification.permission === 'granted'")
    assert red.evaluate("window.__beeps") == 1

    click_play(blue, simple_turn(state_of(game), 0))
    moved = time.monotonic()
    assert blue.title().endswith("Middle Marathon · genius")
    red.wait_for_function("() => /● Your turn · genius$/.test(document.title)", timeout=POLL_AND_A_SECOND)
    assert time.monotonic() - moved < 2
    assert your_turn.match(red.title())
    assert red.locator("#turn").inner_text().startswith("Your turn")
    assert red.evaluate("window.__beeps") == 2
    assert red.evaluate("window.__notes") == ["Your turn | Middle Marathon"]
    # The count of what awaits the player stays in front (site.js: the title counter): one thing, this turn.
    red.wait_for_function("() => document.title === '(1) ● Your turn · genius'")

    click_play(red, simple_turn(state_of(game), 1))
    assert red.title().endswith("Middle Marathon · genius") and "Your turn" not in red.title()
    assert red.get_by_label("Sound and notification when it is my turn").is_checked()  # kept in the browser
    blue.wait_for_function("() => /● Your turn · genius$/.test(document.title)", timeout=POLL_AND_A_SECOND)


def test_at_an_arms_race_break_each_deciding_player_sees_your_decision_and_everyone_sees_them_all(
    season, hank, make_user, page_as, live_server
):
    from tests.arms_race.arms_race_site import NAMES, act, arms_game

    users = [make_user(name) for name in NAMES]
    game = arms_game(season, hank, users, settings={"wild_before_first_round": True})
    url = live_server.url + reverse("game", args=[game.id])
    ana, ben, spectator = page_as(users[0]), page_as(users[1], width=390), page_as(None, width=390)
    for page in (ana, ben, spectator):
        page.goto(url)
    assert re.match(
        r"Waiting for ana, ben and 5 others\s+\(wild card\)", spectator.locator("#turn").inner_text()
    )
    assert ben.locator("#turn").inner_text().startswith("Your decision")
    assert re.match(r"^(\(\d+\) )?● Your decision · genius$", ben.title())
    shoot(ben, "live-arms-race-your-decision")
    shoot(spectator, "live-arms-race-spectator")

    with ben.expect_navigation():
        ben.get_by_role("button", name="Decline").click()
    assert ben.title().endswith("Arms Race · genius")
    assert re.match(r"Waiting for ana, cleo and 4 others", ben.locator("#turn").inner_text())
    spectator.wait_for_function(
        "() => document.querySelector('#turn').innerText.startsWith('Waiting for ana, cleo and 4 others')",
        timeout=POLL_AND_A_SECOND,
    )
    # ana decides last of all but gus: her title stays hers until she has.
    for user in users[2:6]:
        assert act(game, user, {"type": "decline_wild"}).status_code == 200
    assert re.match(r"^(\(\d+\) )?● Your decision · genius$", ana.title())
    with ana.expect_navigation():
        ana.get_by_role("button", name="Decline").click()
    assert ana.title().endswith("Arms Race · genius")
    ana.wait_for_function("() => document.querySelector('#turn').innerText.startsWith('Waiting for gus')")
