"""A complete Arms Race played through the API: each decision posted by its player, awards in the ledger."""

from __future__ import annotations

import random

import pytest

from games.platform.models import Game
from games.platform.services.ledger import balances
from tests.arms_race.arms_race_site import (
    NAMES,
    arms_game,
    drive,
    my_view,
    random_choice,
    state_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def seven(make_user):
    return [make_user(name) for name in NAMES]


def season_balance(game, user) -> dict:
    found = balances(season=game.season, user=user)
    return {"garnets": found.get("garnets", 0), "tokens_of_life": found.get("tokens_of_life", 0)}


def test_a_complete_game_through_the_api_ends_with_one_loser_and_the_awards_in_the_ledger(
    season, hank, seven
):
    game = arms_game(season, hank, seven, deal=None, seed=14)
    moves = drive(game, seven, random_choice(random.Random(3)))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves > 7
    outcome = state_of(game).outcome
    assert 0 <= outcome.loser < 7
    final = my_view(game, seven[0])
    assert final["outcome"]["loser_name"] == NAMES[outcome.loser]
    assert game.events.filter(text__contains="sole loser").count() == 1
    expected = {seat: {"garnets": 0, "tokens_of_life": 0} for seat in range(7)}
    if outcome.reason == "three_wounds":
        award = (2, 7) if len(outcome.winners) == 1 and outcome.original == outcome.pointer else (1, 3)
        for seat in outcome.winners:
            expected[seat] = {"tokens_of_life": award[0], "garnets": award[1]}
    assert {seat: season_balance(game, user) for seat, user in enumerate(seven)} == expected
    assert outcome.loser not in outcome.winners
    # This seed's game: Dev's weapon, pointed by Ben, gives Ana her third wound of one type.
    assert (outcome.reason, outcome.loser, outcome.winners) == ("three_wounds", 0, (3, 1))


def cutting_ben(via: int | None):
    """Ana (8 Daggers) cuts Ben each round, Ben wrongly calling "lie"; the others are caught.

    With `via`, that player is aimed at first, passes, and points the dagger at Ben themselves.
    """

    def choose(view: dict) -> dict:
        mine, me = view["my_decision"], view["seat"]
        if mine["kind"] == "wild_card":
            return {"type": "decline_wild"}
        if mine["kind"] == "attack":
            if me == 0:
                first = 1 if via is None else via
                return {"type": "attack", "card": "dagger", "target": first, "claim": "dagger"}
            # Alternate the two weapons of the hand, so nobody but Ben collects three of a kind.
            kinds = sorted(set(view["hand"]), key=mine["options"]["cards"].index)
            card = kinds[view["round"] % len(kinds)]
            return {"type": "attack", "card": card, "target": 0, "claim": card}
        if mine["kind"] == "redirect":
            return {"type": "redirect", "target": 1, "claim": "dagger"}
        if me == via and view["flight"]["owner"] == 0:
            return {"type": "pass"}
        return {"type": "challenge", "call": "lie" if me == 1 else "truth"}

    return choose


@pytest.mark.parametrize(
    ("via", "awards"),
    [(None, {0: (2, 7)}), (2, {0: (1, 3), 2: (1, 3)})],
    ids=["one-player-both-played-and-pointed", "two-players-share-the-win"],
)
def test_three_cuts_end_the_game_and_pay_the_winners(season, hank, seven, via, awards):
    game = arms_game(season, hank, seven)
    drive(game, seven, cutting_ben(via))
    game.refresh_from_db()
    state = state_of(game)
    assert game.status == Game.Status.FINISHED
    assert state.outcome.loser == 1 and state.outcome.reason == "three_wounds"
    assert state.wounds[1][0] == 3  # three Cuts (Dagger's wound)
    for seat, user in enumerate(seven):
        tokens, garnets = awards.get(seat, (0, 0))
        assert season_balance(game, user) == {"garnets": garnets, "tokens_of_life": tokens}
    last = my_view(game, seven[3])["attacks"][0]
    assert last["wounded_name"] == "ben" and last["passed_names"] == ([] if via is None else ["cleo"])
