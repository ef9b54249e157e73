"""A saved submission in the game's own words for the hosts' console, and the heat verdicts given there."""

from __future__ import annotations

from games.platform.models import Game, Round
from games.platform.registry import Verdict

from .names import seat_names
from .verdicts import heat_guesses


def _board_words(grid) -> str:
    if not grid:
        return "no board guess"
    named = sum(1 for row in grid for number, colour in row if number or colour)
    return f"board guess of {named} card{'s' * (named != 1)}"


def describe(game: Game, payload: dict) -> str:
    """'board guess of 18 cards; top of the last round: ann; heat guess "…"', or the loser's choice."""
    payload = payload or {}
    names = seat_names(game)
    if "loser" in payload:
        return f"chooses {names.get(payload['loser'], payload['loser'])} as the elimination candidate"
    parts = [_board_words(payload.get("board_guess"))]
    if payload.get("top_guess") is not None:
        parts.append(f"top of the last round: {names.get(payload['top_guess'], payload['top_guess'])}")
    if payload.get("heat_guess"):
        parts.append(f"heat guess “{payload['heat_guess']}”")
    return "; ".join(parts)


def heat_verdicts(game: Game) -> list[Verdict]:
    """Each heat guess of the round the hosts judge, with its verdict if given (operation "judge_heat")."""
    rnd = game.rounds.filter(status__in=[Round.Status.OPEN, Round.Status.FAILED]).order_by("-number").first()
    return [
        Verdict(
            seat_number=guess["seat"],
            player=guess["player"],
            question=f"Heat indicator guess: “{guess['text']}”",
            operation="judge_heat",
            answers={
                "Right": {"seat": guess["seat"], "correct": True},
                "Wrong": {"seat": guess["seat"], "correct": False},
            },
            given=None if guess["correct"] is None else ("Right" if guess["correct"] else "Wrong"),
        )
        for guess in heat_guesses(game, rnd)
    ]
