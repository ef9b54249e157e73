"""A double-clicked purchase on Postgres: two requests at once buy one wild card and take 3 garnets once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games.arms_race.rules import Phase
from games.platform.kit import RulesError
from games.platform.services.ledger import balances, ledger_post
from games.platform.services.live import action_apply
from tests.arms_race.arms_race_site import arms_game, drive, honest, state_of
from tests.conftest import seat_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_two_buys_at_once_take_the_garnets_once(season, hank, alice, bob, charlie):
    if connection.vendor != "postgresql":
        pytest.skip("Row locks between concurrent transactions need Postgres; SQLite serialises writers.")
    ledger_post(season=season, user=alice, what="garnets", delta=6, reason="season start")
    game = arms_game(season, hank, [alice, bob, charlie])
    drive(game, [alice, bob, charlie], honest, until=lambda s: s.phase == Phase.WILD_CARDS)
    seat = seat_of(game, alice)
    start = threading.Barrier(2)
    results: list[str] = []

    def buy():
        try:
            start.wait()
            action_apply(seat=seat, payload={"type": "buy_wild"})
            results.append("bought")
        except RulesError as exc:
            results.append(exc.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=buy) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["It is not your decision now.", "bought"]
    assert balances(season=season, user=alice)["garnets"] == 3
    assert state_of(game).wilds[0] == (None,)
