"""The Arms Race site tests' table: seven seated players, a host, a deal, and an API driver."""

from __future__ import annotations

import random

from django.urls import reverse

from games.arms_race import rules
from games.arms_race.models import Deal
from games.platform.models import Game
from games.platform.services import games as game_services
from tests.api_support import api  # noqa: F401
from tests.arms_race.arms_race_table import ORDERED_DEAL
from tests.sitting import all_here

NAMES = ["ana", "ben", "cleo", "dev", "eli", "fay", "gus"]


def arms_game(season, host, players, *, deal=ORDERED_DEAL, settings=None, seed=2024, seated=True) -> Game:
    """Create, seat, deal by hand (unless deal is None) and start an Arms Race game; with `seated`, every
    player says "I'm here" and the clocks run (else they wait, stopped)."""
    game = game_services.game_create(
        season=season,
        game_type="arms_race",
        name="Arms Race",
        hosts=[host],
        settings=settings or {},
        seed=seed,
        actor=host,
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=host)
    if deal is not None:
        Deal.objects.create(game=game, hands=[list(hand) for hand in deal[: len(players)]])
    game_services.game_start(game=game, actor=host)
    game.refresh_from_db()
    return all_here(game) if seated else game


def state_of(game) -> rules.State:
    game.refresh_from_db()
    return rules.state_from_json(game.state)


def deciding(game) -> dict | None:
    """The rules' open decision (whose it is), read the way the platform's clock reads it."""
    return rules.pending(state_of(game))


def act(game, user, payload):
    return api(user).post(reverse("api-action", args=[game.id]), {"payload": payload}, format="json")


def my_view(game, user) -> dict:
    return api(user).get(reverse("api-game", args=[game.id])).json()["state"]


def random_choice(rng: random.Random):
    """A player who picks among the options their own observation offers."""

    def choose(view: dict) -> dict:
        mine = view["my_decision"]
        options = mine["options"]
        if mine["kind"] == "wild_card":
            return {"type": "decline_wild"}
        if mine["kind"] == "attack":
            card = rng.choice([c for c in options["cards"] if c != "wild"])
            claim = card if rng.random() < 0.6 else rng.choice(options["claims"])
            return {"type": "attack", "card": card, "target": rng.choice(options["targets"]), "claim": claim}
        if mine["kind"] == "redirect":
            return {
                "type": "redirect",
                "target": rng.choice(options["targets"]),
                "claim": rng.choice(options["claims"]),
            }
        if options["pass"] and rng.random() < 0.4:
            return {"type": "pass"}
        return {"type": "challenge", "call": rng.choice(["truth", "lie"])}

    return choose


def drive(game, users, choose, *, until=None, limit=2000) -> int:
    """Play through the API: the deciding player reads their observation and posts their choice."""
    moves = 0
    while moves < limit:
        decision = deciding(game)
        if decision is None or (until is not None and until(state_of(game))):
            return moves
        user = users[decision["seats"][0]]
        view = my_view(game, user)
        response = act(game, user, choose(view))
        assert response.status_code == 200, response.json()
        moves += 1
    raise AssertionError("the game did not end")


def honest(view: dict) -> dict:
    """Every attacker tells the truth, every target calls it "truth" and is right: the attacker is wounded."""
    mine = view["my_decision"]
    if mine["kind"] == "wild_card":
        return {"type": "decline_wild"}
    if mine["kind"] == "attack":
        card = view["hand"][0]
        return {"type": "attack", "card": card, "target": mine["options"]["targets"][0], "claim": card}
    return {"type": "challenge", "call": "truth"}
