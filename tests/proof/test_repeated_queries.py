"""A game page asks the database each question once: no query is sent twice, with the same parameters,
while one page is rendered, for a player, the host or a spectator of every game type in progress; and the
turn clock of a live match is read once, whatever the query asked of it."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.platform import registry
from tests.proof.test_hidden_perturbation import every_type, running_game
from tests.proof.test_no_leaks import client_for

pytestmark = pytest.mark.django_db


def repeated(client, url: str) -> list[str]:
    cache.clear()  # a page rendered, not served from the page cache
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    sent = Counter(q["sql"] for q in captured.captured_queries)
    twice = [f"{n} times: {sql}" for sql, n in sent.items() if n > 1]
    clocks = [q["sql"] for q in captured.captured_queries if 'FROM "platform_turnclock"' in q["sql"]]
    return twice + ([f"the turn clock read {len(clocks)} times: {clocks}"] if len(clocks) > 1 else [])


@pytest.mark.parametrize("slug", every_type())
@pytest.mark.parametrize("who", ["player", "host", "spectator"])
def test_a_game_page_sends_no_query_twice(slug, who, make_user):
    game, hank, players, spectators, world = running_game(registry.get(slug), make_user)
    viewer = {"player": players[0], "host": hank, "spectator": None}[who]
    client = client_for(viewer)
    client.get(f"/games/{game.id}/")  # per-process caches (content types, the session) warmed first
    assert repeated(client, f"/games/{game.id}/") == []
