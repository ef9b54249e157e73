"""The browser tests of server push (issue 32), the site served by uvicorn with a Redis and the pages' polls
held back, so only an event can fetch (docs/live.md):

- a visitor's game page shows a move at once;
- in a Middle Marathon, bob's game tab hidden behind another tab of his window (its timers throttled) shows
  alice's move and says "● Your turn" in its title within a second.

The chat line and the unread count in a hidden tab are not here yet: a "mine" event on the user's channel
is sometimes not followed by a fetch (docs/live.md, "Still to do")."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import uuid

import pytest

from tests.conftest import CHROMIUM_FLAGS
from tests.embedded import ROOT, environment, free_port, var_folder
from tests.live_support import redis_for_push
from tests.platform.test_live_two_nodes import MOVE, _answers

pytestmark = [pytest.mark.browser, pytest.mark.services]


@pytest.fixture
def push_url():
    return redis_for_push()


def test_a_move_reaches_a_visitors_page_through_the_stream_not_the_poll(
    tmp_path,
    embedded_database,
    push_url,
    browser,
):
    var = var_folder(tmp_path / "var", embedded_database.database)
    env = environment(
        var,
        REDIS_URL=push_url,
        GENIUS_PUSH_PREFIX=f"test-{uuid.uuid4().hex[:10]}:",
        GENIUS_STREAM_SAFETY_POLL_SECONDS="600",  # the poll is held back: only an event can fetch
    )
    port = free_port()
    node = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(port)]
        + ["--log-level", "warning", "--timeout-graceful-shutdown", "1"],
        cwd=ROOT,
        env=env,
    )
    try:
        until = time.monotonic() + 30
        while not _answers(port):
            assert time.monotonic() < until, "the node did not answer"
            time.sleep(0.2)
        page = browser.new_page()
        fetches = []
        page.on("request", lambda r: fetches.append(r.url) if "/live/" in r.url else None)
        streams = []
        page.on("request", lambda r: streams.append(r.url) if "/events/" in r.url else None)
        page.goto(f"http://127.0.0.1:{port}/games/{embedded_database.game}/")
        live = page.locator("#live")
        before = live.get_attribute("hx-get")
        page.wait_for_timeout(4000)  # longer than the game's own poll interval
        assert streams and fetches == [], "the stream is open, and the page has not polled"
        moved = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MOVE.format(game=embedded_database.game)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert moved.returncode == 0, moved.stderr
        version = re.search(r"^moved \S+ (\d+)$", moved.stdout, re.MULTILINE).group(1)
        started = time.monotonic()
        page.wait_for_function(
            "v => document.getElementById('live').getAttribute('hx-get').includes('v=' + v)",
            arg=version,
            timeout=3000,
        )
        assert time.monotonic() - started < 1.5
        assert live.get_attribute("hx-get") != before and len(fetches) == 1
        page.close()
    finally:
        node.terminate()
        node.wait(10)


# A Middle Marathon in the served database (alice Blue, on turn; bob Red), both seated, and a session cookie
# for each player; the label of a card alice may play that passes the turn to bob.
MARATHON = """
from django.contrib.auth import get_user_model
from django.test import Client
from games.middle_marathon import rules
from games.platform.models import Season
from tests.middle_marathon.marathon_site import marathon_game, state_of
from tests.platform.test_live_turn_browser import simple_turn

User = get_user_model()
people = {name: User.objects.get(username=name) for name in ("hank", "alice", "bob")}
game = marathon_game(Season.objects.get(name="Season 1"), people["hank"], people["alice"], people["bob"])
action = simple_turn(state_of(game), 0)
print("marathon", game.id)
print("label", f"Play {action['card']} on {rules.name(action['piece'])}")
for name in ("alice", "bob"):
    client = Client()
    client.force_login(people[name])
    print("session", name, client.cookies["sessionid"].value)
"""


@contextlib.contextmanager
def tabs_of_one_window(browser, folder):
    """A Chromium of the test's own whose tabs share one window, driven over the DevTools protocol with none
    of Playwright's page defaults: Playwright's focus emulation (Emulation.setFocusEmulationEnabled, on every
    page it sets up) keeps a page visible, so a tab put behind another stays "visible" with its timers at full
    speed. Without it, a tab behind is hidden and its timers are throttled, as in a person's browser."""
    folder.mkdir()
    chromium = subprocess.Popen(
        [os.environ.get("GENIUS_BROWSER", "/usr/bin/chromium"), "--headless", "--remote-debugging-port=0"]
        + [f"--user-data-dir={folder}", *CHROMIUM_FLAGS, "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        active = folder / "DevToolsActivePort"
        until = time.monotonic() + 20
        while not (active.exists() and active.read_text().count("\n") >= 1):
            assert time.monotonic() < until, "chromium did not open its DevTools port"
            time.sleep(0.1)
        port = active.read_text().split()[0]
        attached = browser.browser_type.connect_over_cdp(f"http://127.0.0.1:{port}", no_defaults=True)
        try:
            yield attached.contexts[0]
        finally:
            attached.close()
    finally:
        chromium.terminate()
        chromium.wait(10)


def test_a_hidden_tab_shows_the_opponents_move_and_says_it_is_its_turn_within_a_second(
    tmp_path,
    embedded_database,
    push_url,
    browser,
):
    var = var_folder(tmp_path / "var", embedded_database.database)
    env = environment(
        var,
        REDIS_URL=push_url,
        GENIUS_PUSH_PREFIX=f"test-{uuid.uuid4().hex[:10]}:",
        GENIUS_STREAM_SAFETY_POLL_SECONDS="600",  # the polls are held back: only an event can fetch
    )
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MARATHON],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    game = int(re.search(r"^marathon (\d+)$", made.stdout, re.MULTILINE).group(1))
    label = re.search(r"^label (.+)$", made.stdout, re.MULTILINE).group(1)
    sessions = dict(re.findall(r"^session (\w+) (\S+)$", made.stdout, re.MULTILINE))
    port = free_port()
    node = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "genius.asgi:application", "--port", str(port)]
        + ["--log-level", "warning", "--timeout-graceful-shutdown", "1"],
        cwd=ROOT,
        env=env,
    )
    site = f"http://127.0.0.1:{port}"
    stack = contextlib.ExitStack()

    try:
        until = time.monotonic() + 30
        while not _answers(port):
            assert time.monotonic() < until, "the node did not answer"
            time.sleep(0.2)
        alice = browser.new_context()
        alice.add_cookies([{"name": "sessionid", "value": sessions["alice"], "url": site}])
        bob = stack.enter_context(tabs_of_one_window(browser, tmp_path / "bobs-chromium"))
        bob.add_cookies([{"name": "sessionid", "value": sessions["bob"], "url": site}])
        mover = alice.new_page()
        mover.goto(f"{site}/games/{game}/")
        game_tab = bob.pages[0]
        polls = []  # what bob's game tab fetches (its #live)
        game_tab.on("request", lambda r: polls.append(r.url) if "/live/" in r.url else None)
        game_tab.goto(f"{site}/games/{game}/")
        assert "Your turn" not in game_tab.title()
        # bob opens another tab in front, in the same window: the game's tab is hidden, its timers slowed.
        front = bob.new_page()
        front.goto(f"{site}/")
        front.bring_to_front()
        game_tab.wait_for_function("() => document.visibilityState === 'hidden'", timeout=3000)
        assert front.evaluate("document.visibilityState") == "visible"
        game_tab.evaluate("window.ticks = 0; setInterval(() => { window.ticks += 1; }, 100)")
        front.wait_for_timeout(2500)  # longer than the game's own poll interval
        assert game_tab.evaluate("window.ticks") < 10, "the hidden tab's timers are throttled"
        assert polls == [], "the hidden game tab has not polled"

        # alice moves: bob's hidden tab shows the move and says it is his turn within a second.
        with mover.expect_navigation():
            mover.get_by_role("button", name=label).click()
        moved = time.monotonic()
        game_tab.wait_for_function("() => /● Your turn · genius$/.test(document.title)", timeout=2000)
        assert time.monotonic() - moved < 1
        assert game_tab.locator("#turn").inner_text().startswith("Your turn")

        assert game_tab.evaluate("document.visibilityState") == "hidden"
        alice.close()
    finally:
        stack.close()
        node.terminate()
        node.wait(10)
