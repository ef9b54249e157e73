"""A new version, rendered once for all its spectators (issue 32.1, docs/live.md).

With server push every spectator's page fetches the game's live part at the same moment, as the version
event reaches them all at once: the page cache must not be empty for each of them in turn. The first
spectator to find no body renders it; the others, arriving while it renders, wait for that body instead of
rendering their own. The render is slowed here (each takes 0.3 s), so every spectator surely asks while the
first render runs: without the wait, each would render.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.platform import game_parts

pytestmark = pytest.mark.django_db(transaction=True)

SPECTATORS = 8


@pytest.fixture
def renders(monkeypatch):
    """Each render of a game's part, by the viewer's role; each takes long enough for all to ask meanwhile."""
    seen: list[str] = []
    real = game_parts.observe

    def slow(game, viewer):
        seen.append(viewer.role)
        time.sleep(0.3)
        return real(game, viewer)

    monkeypatch.setattr(game_parts, "observe", slow)  # the live part renders through game_parts
    return seen


def _together(fetch, count: int) -> list:
    """`count` requests let go at the same instant (as an event reaches every page at once), each in a
    thread with its own database connection."""
    start = threading.Barrier(count)
    answers: list = [None] * count

    def one(i):
        try:
            start.wait()
            answers[i] = fetch(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_spectators_fetching_a_new_version_together_cause_one_render(tally, renders):
    url = reverse("game-feed", args=[tally.pk])
    before = str(tally.version - 1)  # their pages show the version before: each asks for the new one
    answers = _together(lambda i: Client().get(url, {"v": before}), SPECTATORS)
    assert [answer.status_code for answer in answers] == [200] * SPECTATORS
    assert len({answer.content for answer in answers}) == 1, "every spectator is given the same part"
    assert renders == ["spectator"], f"{len(renders)} renders for {SPECTATORS} spectators"


def test_logged_in_spectators_share_one_render_too(tally, make_user, renders):
    url = reverse("game-feed", args=[tally.pk])
    clients = []
    for i in range(SPECTATORS):
        client = Client()
        client.force_login(make_user(f"watcher{i}"))
        clients.append(client)
    answers = _together(lambda i: clients[i].get(url, {"v": str(tally.version - 1)}), SPECTATORS)
    assert [answer.status_code for answer in answers] == [200] * SPECTATORS
    assert renders == ["spectator"], f"{len(renders)} renders for {SPECTATORS} spectators"


def test_players_are_never_made_to_wait_for_anothers_render(tally, alice, bob, renders):
    # A player's part is their own (their stamps): two players render two parts, at once.
    url = reverse("game-feed", args=[tally.pk])
    clients = []
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        clients.append(client)
    answers = _together(lambda i: clients[i].get(url, {"v": str(tally.version - 1)}), 2)
    assert [answer.status_code for answer in answers] == [200, 200]
    assert renders == ["player", "player"]
    assert answers[0].content != answers[1].content


def test_a_render_that_never_comes_is_waited_for_a_bounded_time_then_done_here(tally, monkeypatch):
    # Another process claimed the render and died: its claim stands, and no body comes.
    from django.core.cache import cache
    from django.test import RequestFactory

    from games.platform import pagecache

    monkeypatch.setattr(pagecache, "WAIT_SECONDS", 0.2)
    key = f"page:{tally.pk}:{tally.version}:live:anonymous"
    look = pagecache.Lookup(pagecache.Slot(key), None, "spectator")
    request = RequestFactory().get("/")
    cache.set(f"{key}:rendering", 1, timeout=60)
    started = time.monotonic()
    assert pagecache.render_once(look, request, lambda: "rendered here") == "rendered here"
    assert time.monotonic() - started >= 0.2, "it waited for the other render first"
    # Another claims it and fails, keeping nothing: the one waiting renders as soon as the claim is gone.
    monkeypatch.setattr(pagecache, "WAIT_SECONDS", 30)
    threading.Timer(0.1, cache.delete, args=[f"{key}:rendering"]).start()
    started = time.monotonic()
    assert pagecache.render_once(look, request, lambda: "rendered here") == "rendered here"
    assert time.monotonic() - started < 30
