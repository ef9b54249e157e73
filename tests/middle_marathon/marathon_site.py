"""The Middle Marathon site tests' table: alice (Blue) and bob (Red) seated, hank hosting, an API driver."""

from __future__ import annotations

from django.urls import reverse

from games.middle_marathon import rules
from games.platform.models import Game
from games.platform.services import games as game_services
from tests.api_support import api  # noqa: F401
from tests.sitting import all_here


def marathon_game(season, host, blue, red, *, settings=None, seed=2024, seated=True) -> Game:
    """Create, seat (seat 0 Blue, seat 1 Red) and start a Middle Marathon; with `seated`, both players say
    "I'm here" and the clocks run (else they wait, stopped)."""
    game = game_services.game_create(
        season=season,
        game_type="middle_marathon",
        name="Middle Marathon",
        hosts=[host],
        settings=settings or {},
        seed=seed,
        actor=host,
    )
    game_services.game_seat(game=game, user=blue, actor=host)
    game_services.game_seat(game=game, user=red, actor=host)
    game_services.game_start(game=game, actor=host)
    game.refresh_from_db()
    return all_here(game) if seated else game


def state_of(game) -> rules.State:
    game.refresh_from_db()
    return rules.state_from_json(game.state)


def put_state(game, state: rules.State) -> None:
    """Set up a hand-made position in a running game; the clock is moved on by the caller if it matters."""
    game.state = rules.state_to_json(state)
    game.save(update_fields=["state"])


def act(game, user, payload):
    return api(user).post(reverse("api-action", args=[game.id]), {"payload": payload}, format="json")


def observed(game, user) -> dict:
    return api(user).get(reverse("api-game", args=[game.id])).json()


def play_out(game, rng, limit: int = 400) -> None:
    """Random legal moves through the service (no HTTP) until the race ends: for tests of what follows."""
    from games.platform.services.live import action_apply

    seats = {seat.number: seat for seat in game.seats.all()}
    for _ in range(limit):
        state = state_of(game)
        if state.result is not None:
            return
        mover = rules.pending(state)["seat"]
        action_apply(seat=seats[mover], payload=rng.choice(rules.legal_actions(state, mover)))
    raise AssertionError("the game did not end")
