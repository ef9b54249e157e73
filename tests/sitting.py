"""Sitting down in tests: a live match's clocks wait for every seat's "I'm here" (issue 20.1).

Tests that start a live match to play it at once seat its players first: `all_here(game)` says "I'm here"
for every seat through the service, so the clocks start as they do when the last player sits down.
"""

from __future__ import annotations

from django.utils import timezone

from games.platform.models import Game
from games.platform.services.sitting import here_say


def all_here(game: Game, now=None) -> Game:
    """Every seated player says "I'm here" (the last one starts the clocks); the game is read again."""
    now = now or timezone.now()
    for seat in game.seats.order_by("number"):
        here_say(seat=seat, now=now)
    game.refresh_from_db()
    return game


def start_and_sit(game: Game, actor, now=None) -> Game:
    """Start a live match and seat everyone present: its clocks run from `now`, as before sitting down."""
    from games.platform.services.games import game_start

    game_start(game=game, actor=actor, now=now)
    return all_here(game, now=now)


def sit_down_in(page, url: str) -> None:
    """A player's browser opens the game's page and presses "I'm here" (the live part is swapped in place)."""
    page.goto(url)
    page.get_by_role("button", name="I'm here").click()
    page.wait_for_selector("#here-form", state="detached")
