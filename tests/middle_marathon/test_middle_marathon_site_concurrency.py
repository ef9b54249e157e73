"""Two copies of one move at the same moment (a double click, two tabs): the game row's lock lets one in."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.platform.kit import RulesError
from games.platform.services.live import action_apply
from tests.middle_marathon.marathon_site import marathon_game, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_the_same_move_posted_twice_at_once_is_played_once(season, hank, alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database file; row locks need Postgres.")
    game = marathon_game(season, hank, alice, bob)
    seat = game.seats.get(user=alice)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def post():
        from django.db import connections

        start.wait()
        try:
            action_apply(seat=seat, payload={"type": "play", "card": 3, "piece": "SB"})
            outcomes.append("played")
        except RulesError as refused:
            outcomes.append(refused.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["It is not your move: the game waits on Red.", "played"]
    state = state_of(game)
    assert state.played == [{"turn": 1, "seat": 0, "card": 3, "piece": "SB"}]
    assert state.positions["SB"] == 4 and state.hands[0] == [0, 1, 2, 4]
    assert game.events.filter(text__startswith="Blue plays 3 on Swap (blue)").count() == 1
