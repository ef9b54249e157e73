"""The browser proof of server push (issue 32, docs/live.md): the site served by uvicorn with a Redis, every
page's poll held back (GENIUS_STREAM_SAFETY_POLL_SECONDS: 10 minutes), so nothing but the event stream can
bring a change. In one Middle Marathon, bob's tabs hidden behind another tab of his window (their timers
throttled, as in a person's browser):

- alice moves: bob's hidden game tab shows it, says "● Your turn" in its title and sends the turn
  notification and beep; a visitor's page shows the move too, from the part its stream carries (it fetches
  nothing);
- alice writes to bob at once: the unread count reaches bob's hidden game tab and his hidden home page;
- bob's hidden chat tab shows alice's next line.

No time is asserted (the machine is shared and loaded; bench/ measures speed): the waits are generous, and
what arrives can only have come through the stream. The times seen are printed.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
import uuid

import pytest

from tests.conftest import CHROMIUM_FLAGS
from tests.embedded import environment, var_folder
from tests.live_nodes import Node, shell
from tests.live_support import RECORDED_ALERTS, redis_for_push

pytestmark = [pytest.mark.browser, pytest.mark.services]

WAIT = 20_000  # ms: generous on a loaded machine; the polls are 10 minutes away, so only an event brings it
HELD_BACK = "600"  # s: the pages' safety poll while the stream is open

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

# The hosts' announcement, made with push off in this process: the version moves, nothing is published.
LOST = """
from games.platform.models import Game
from games.platform.services.events import announcement_post
announcement_post(game=Game.objects.get(pk={game}), text="Lost on its way to the pages")
"""

# A reveal to bob alone, made with push off in this process: his stamps move, nothing is published.
SECRET = """
from games.platform.kit import Reveal
from games.platform.models import Game
from games.platform.services.events import events_write
game = Game.objects.get(pk={game})
seat = game.seats.get(user__username="bob")
events_write(game=game, events=[Reveal(seat.number, "Only for bob, lost on its way")], public=False)
"""

# What a page's stream hears, what its parts ask for and why (an event's refresh, or a timer), and when
# they are swapped in (Date.now(), ms), for the printed times and the
# failure messages: the page's own script is left as it is, the browser's EventSource only watched.
RECORDED = """
window.__heard = [];
window.__swapped = [];
window.__opened = 0;
window.__asked = [];
const Watched = window.EventSource;
window.EventSource = class extends Watched {
  constructor(url, options) {
    super(url, options);
    this.addEventListener("open", () => { window.__opened += 1; });
    ["version", "mine", "chat", "counts"].forEach((kind) => {
      this.addEventListener(kind, (ev) => { window.__heard.push([kind + " " + ev.data, Date.now()]); });
    });
    this.addEventListener("part", (ev) => {
      window.__heard.push(["part v" + JSON.parse(ev.data).v, Date.now()]);
    });
  }
};
document.addEventListener("htmx:beforeRequest", (ev) => {
  const cause = ev.detail.requestConfig.triggeringEvent;  // none for a timed poll
  window.__asked.push([ev.detail.elt.id, cause ? cause.type : "timer", Date.now()]);
});
document.addEventListener("htmx:afterSwap", (ev) => {
  window.__swapped.push([ev.detail.elt.id || ev.detail.elt.className, Date.now()]);
});
"""

# bob asked for the turn alerts in this browser, and granted notifications: what the page asks of the
# speaker and of the Notification API is recorded (a test browser has neither a speaker nor a user to grant).
ALERTS_ON = (
    RECORDED_ALERTS
    + """
try { localStorage.setItem("genius:turn-alerts", "on"); } catch (e) {}
RecordedNotification.permission = "granted";
"""
)


@pytest.fixture
def push_url():
    return redis_for_push()


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
        until = time.monotonic() + 60
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


def causes(page) -> list[str]:
    """Why each of the page's part fetches went out: "refresh" (an event), or "timer" (a poll)."""
    return [cause for _, cause, _ in page.evaluate("window.__asked")]


def until_true(page, check, what: str, seconds: float = WAIT / 1000) -> None:
    """Waits for `check`, letting Playwright deliver the page's events meanwhile."""
    until = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < until, what
        page.wait_for_timeout(50)


def shows(page, check: str, what: str) -> None:
    """Waits (generously) for `check` on the page; if it never comes true, says what its stream heard and
    which parts it swapped in. Asked from here, not with wait_for_function: its default polling rides
    requestAnimationFrame, which a hidden tab never runs (a check not true at once would never be asked
    again), and any timer of the page's own is throttled there."""
    until = time.monotonic() + WAIT / 1000
    while not page.evaluate(check):
        if time.monotonic() > until:
            heard, swapped = page.evaluate("[window.__heard, window.__swapped]")
            raise AssertionError(f"{what}: never shown; its stream heard {heard}, it swapped {swapped}")
        page.wait_for_timeout(50)


def timeline(page, since: float) -> str:
    """What the page's stream heard and which parts it swapped in, in ms after `since` (time.time())."""
    heard, swapped = page.evaluate("[window.__heard, window.__swapped]")
    return ", ".join(
        f"{what} {t - since * 1000:.0f}" for what, t in sorted(heard + swapped, key=lambda x: x[1])
    )


def hide_behind(front, *tabs) -> None:
    """`front` comes forward in bob's window: every other tab of it is hidden, its timers slowed."""
    front.bring_to_front()
    for tab in tabs:
        shows(tab, "() => document.visibilityState === 'hidden'", "the tab hidden")
        shows(tab, "() => window.__opened > 0", "its stream open")
    assert front.evaluate("document.visibilityState") == "visible"


def test_hidden_tabs_hear_the_move_their_turn_an_unread_count_and_a_chat_line_through_the_stream(
    tmp_path, embedded_database, push_url, browser
):
    var = var_folder(tmp_path / "var", embedded_database.database)
    env = environment(
        var,
        REDIS_URL=push_url,
        GENIUS_PUSH_PREFIX=f"test-{uuid.uuid4().hex[:10]}:",
        GENIUS_STREAM_SAFETY_POLL_SECONDS=HELD_BACK,  # the polls are held back: only an event can fetch
        GENIUS_STREAM_PING_SECONDS="2",  # the pings (the safety net for a lost message) come often here
    )
    made = shell(env, MARATHON)
    game = int(re.search(r"^marathon (\d+)$", made, re.MULTILINE).group(1))
    label = re.search(r"^label (.+)$", made, re.MULTILINE).group(1)
    sessions = dict(re.findall(r"^session (\w+) (\S+)$", made, re.MULTILINE))
    node = Node(env).start()
    site = node.url
    game_url, chat_url = f"{site}/games/{game}/", f"{site}/games/{game}/chats/0-1/"
    stack = contextlib.ExitStack()
    try:
        node.wait(120)  # the machine is shared: uvicorn may take a while to start
        alice = browser.new_context()
        stack.callback(alice.close)
        alice.add_cookies([{"name": "sessionid", "value": sessions["alice"], "url": site}])
        visitor = browser.new_context()
        stack.callback(visitor.close)
        visitor.add_init_script(RECORDED)
        bob = stack.enter_context(tabs_of_one_window(browser, tmp_path / "bobs-chromium"))
        bob.add_cookies([{"name": "sessionid", "value": sessions["bob"], "url": site}])
        bob.add_init_script(RECORDED + ALERTS_ON)

        mover, writer = alice.new_page(), alice.new_page()
        mover.goto(game_url)
        writer.goto(chat_url)
        watcher = visitor.new_page()
        watcher.goto(game_url)
        shows(watcher, "() => window.__opened > 0", "the visitor's stream open")
        game_tab = bob.pages[0]
        game_tab.goto(game_url)
        assert "Your turn" not in game_tab.title()
        home_tab = bob.new_page()
        home_tab.goto(f"{site}/")
        assert "unread" not in home_tab.locator(".awaiting").inner_text()
        # bob opens another tab in front, in the same window: his game and home tabs are hidden.
        front = bob.new_page()
        hide_behind(front, game_tab, home_tab)
        game_tab.evaluate("window.ticks = 0; setInterval(() => { window.ticks += 1; }, 100)")
        front.wait_for_timeout(2500)  # longer than the game's own poll interval (1 s)
        assert game_tab.evaluate("window.ticks") < 10, "the hidden tab's timers are throttled"
        for page in (game_tab, watcher):
            assert page.evaluate("window.__asked") == [], "the game pages have not polled"

        # alice moves, and writes to bob while bob's game tab is still fetching the move: its answer is held
        # (as a slow network or a loaded server would hold it) until the line's event has reached the tab.
        # The tab must fetch again for the line: an event heard during a fetch is not lost (site.js).
        held = []

        def hold_the_first(route):
            if held:
                return route.continue_()
            held.append(route)
            held.append(route.fetch())

        game_tab.route("**/live/**", hold_the_first)
        clicked = time.time()
        with mover.expect_navigation():
            mover.get_by_role("button", name=label).click()
        until_true(game_tab, lambda: len(held) == 2, "bob's game tab fetched the move")
        writer.locator("#id_text").fill("Your move, bob.")
        with writer.expect_navigation():
            writer.get_by_role("button", name="Send").click()
        shows(game_tab, "() => window.__heard.some(([what]) => what.startsWith('chat '))", "the line's event")
        route, answer = held
        route.fulfill(response=answer)
        # bob's hidden game tab shows the move: its title says his turn, the notification and beep follow.
        shows(game_tab, "() => /● Your turn · genius$/.test(document.title)", "bob's turn in his title")
        assert game_tab.locator("#turn").inner_text().startswith("Your turn")
        shows(game_tab, "() => window.__notes.length > 0", "bob's turn notification")
        assert game_tab.evaluate("[window.__notes, window.__beeps]") == [["Your turn | Middle Marathon"], 1]
        shows(watcher, "() => /^Waiting for bob/.test(document.getElementById('turn').innerText)", "the move")
        # The unread count reaches bob's hidden game tab (its #live) and his hidden home page.
        shows(
            game_tab,
            "() => /1 unread message/.test(document.getElementById('chats-unread').innerText)",
            "the unread count on bob's game tab",
        )
        shows(
            home_tab,
            "() => /1 unread message from alice/.test(document.querySelector('.awaiting').innerText)",
            "the unread count on bob's home page",
        )
        assert re.match(r"\(\d+\) genius", home_tab.title())
        for tab in (game_tab, home_tab):
            assert tab.evaluate("document.visibilityState") == "hidden"
        # Only events fetched: the game's polls are 10 minutes away, the home page's a minute from its load.
        assert causes(game_tab)[:2] == ["refresh", "refresh"], "bob's game tab: the move's fetch, the line's"
        assert set(causes(game_tab)) == {"refresh"}
        # The visitor's stream carried the public part itself: their page asked for nothing.
        assert causes(watcher) == [] and watcher.evaluate(
            "window.__heard.some(([w]) => w.startsWith('part'))"
        )
        assert causes(home_tab)[0] == "refresh"
        print("\nafter the move and the line (ms): bob's game tab:", timeline(game_tab, clicked))
        print("bob's home:", timeline(home_tab, clicked))
        print("the visitor:", timeline(watcher, clicked))

        # bob opens the chat (it reads it) and goes back to his front tab: alice's next line reaches the
        # hidden chat tab.
        chat_tab = bob.new_page()
        chat_tab.goto(chat_url)
        hide_behind(front, chat_tab)
        front.wait_for_timeout(2500)  # longer than the chat's own poll interval (2 s)
        assert chat_tab.evaluate("window.__asked") == [], "the hidden chat tab has not polled"
        writer.locator("#id_text").fill("Still there?")
        written = time.time()
        with writer.expect_navigation():
            writer.get_by_role("button", name="Send").click()
        shows(
            chat_tab,
            "() => /Still there\\?/.test(document.getElementById('chat-messages').innerText)",
            "alice's line in bob's chat",
        )
        assert chat_tab.evaluate("document.visibilityState") == "hidden"
        assert set(causes(chat_tab)) == {"refresh"}
        print("after the next line (ms): bob's chat tab:", timeline(chat_tab, written))

        # A lost message: the hosts announce from a process that publishes nothing (as one that died between
        # its commit and its publish). The pings say the game's version: bob's hidden game tab and the
        # visitor's page see they are behind and fetch, with no event of the move and no timed poll.
        asked_before = {id(page): len(page.evaluate("window.__asked")) for page in (game_tab, watcher)}
        shell({**env, "GENIUS_PUSH_BACKEND": "off"}, LOST.format(game=game))
        for page, whose in ((game_tab, "bob's hidden game tab"), (watcher, "the visitor's page")):
            shows(page, "() => /Lost on its way/.test(document.getElementById('live-feed').innerText)", whose)
            new = page.evaluate("window.__asked")[asked_before[id(page)] :]
            assert new and {cause for _, cause, _ in new} == {"refresh"}, f"{whose}: {new}"
        assert game_tab.evaluate("document.visibilityState") == "hidden"

        # A lost private message: a reveal to bob alone, the public version unmoved. His pings carry his
        # private token, which moved: his hidden tab fetches his part. The visitor's pings say the same
        # version as before: their page asks for nothing.
        visitor_asked = len(watcher.evaluate("window.__asked"))
        bob_asked = len(game_tab.evaluate("window.__asked"))
        shell({**env, "GENIUS_PUSH_BACKEND": "off"}, SECRET.format(game=game))
        shows(
            game_tab,
            "() => /Only for bob/.test(document.getElementById('live-feed').innerText)",
            "the reveal",
        )
        assert {cause for _, cause, _ in game_tab.evaluate("window.__asked")[bob_asked:]} == {"refresh"}
        front.wait_for_timeout(3000)  # more than a ping's interval
        assert len(watcher.evaluate("window.__asked")) == visitor_asked
        assert "Only for bob" not in watcher.locator("#live-feed").inner_text()
    finally:
        stack.close()
        node.stop()
