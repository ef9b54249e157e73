"""A player's "Awaiting you" and title count follow the stream, not a poll (issue 32.1, docs/live.md).

The site runs under uvicorn with a Redis, as `make run` does with one, and the safety poll is held back
(10 minutes): while the stream is open, the home list's minute poll and the title count's minute ask are
cancelled unless their last fetch is that old, and a game page's swap no longer asks for the count. So
alice's home page and game page, open while another process saves her submission, can only learn that
nothing awaits her any more from the stream's events ("mine", "counts").
"""

from __future__ import annotations

import time
import uuid

import pytest

from tests.embedded import environment, var_folder
from tests.live_nodes import Node, shell
from tests.live_support import redis_for_push

pytestmark = [pytest.mark.browser, pytest.mark.services]

SESSION = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
user = get_user_model().objects.get(username="alice")
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.save()
print("session", session.session_key)
"""

SUBMIT = """
from games.platform.models import Seat
from games.platform.services.rounds import submission_save
seat = Seat.objects.get(game_id={game}, user__username="alice")
submission_save(seat=seat, round_number=0, payload={{"number": 3}}, final=True)
"""


ANOTHER_GAME = """
from django.contrib.auth import get_user_model
from games.platform.models import Season
from games.platform.services import games
users = get_user_model().objects
hank = users.get(username="hank")
season = Season.objects.get(name="Season 1")
game = games.game_create(season=season, game_type="tally", name="Second", hosts=[hank])
for name in ("alice", "bob"):
    games.game_seat(game=game, user=users.get(username=name), actor=hank)
games.game_start(game=game, actor=hank)
"""


def test_alices_lists_and_titles_follow_her_news_through_the_stream(tmp_path, embedded_database, browser):
    var = var_folder(tmp_path / "var", embedded_database.database)
    env = environment(
        var,
        REDIS_URL=redis_for_push(),
        GENIUS_PUSH_PREFIX=f"test-{uuid.uuid4().hex[:10]}:",
        GENIUS_STREAM_SAFETY_POLL_SECONDS="600",  # held back: only an event can fetch
    )
    node = Node(env).start()
    try:
        node.wait()
        site = node.url
        key = shell(env, SESSION).split()[-1]
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": key, "url": site}])
        asked = []
        context.on("request", lambda r: asked.append(r.url) if "awaiting" in r.url else None)
        streams = []
        context.on("request", lambda r: streams.append(r.url) if "/events/" in r.url else None)
        home, game = context.new_page(), context.new_page()
        for page in (home, game):
            page.set_default_timeout(15000)
        home.goto(f"{site}/")
        game.goto(f"{site}/games/{embedded_database.game}/")
        assert "not submitted" in home.locator("#awaiting").inner_text()
        home.wait_for_function("() => document.title.startsWith('(1) ')")
        game.wait_for_function("() => document.title.startsWith('(1) ')")  # asked once, as the page opened
        until = time.monotonic() + 15
        while len(streams) < 2:  # both pages' streams asked for before the change
            assert time.monotonic() < until, streams
            game.wait_for_timeout(100)
        game.wait_for_timeout(1500)
        asked.clear()

        shell(env, SUBMIT.format(game=embedded_database.game))
        home.wait_for_function(
            "() => document.getElementById('awaiting').innerText.includes('Nothing awaits you')",
            timeout=15000,
        )
        home.wait_for_function("() => !document.title.startsWith('(')", timeout=15000)
        game.wait_for_function("() => !document.title.startsWith('(')", timeout=15000)
        # One fetch each, after the event: the home list's (its own URL) and the game page's count.
        assert len([u for u in asked if "part=awaiting" in u]) >= 1
        assert len([u for u in asked if "/api/" in u]) >= 1

        # Another game starts with alice seated: nothing moves on this game's page but her count, which only
        # the "counts" on her own channel tells it.
        shell(env, ANOTHER_GAME)
        home.wait_for_function(
            "() => document.getElementById('awaiting').innerText.includes('Second')", timeout=15000
        )
        for page in (home, game):
            page.wait_for_function("() => document.title.startsWith('(1) ')", timeout=15000)
        context.close()
    finally:
        node.stop()
