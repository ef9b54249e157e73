"""The instant moves of a round window: flip a card, declare the action, pay a garnet to see last round."""

from __future__ import annotations

from django.utils import timezone

from games.platform.errors import NotAllowed, StateChanged
from games.platform.kit import Ledger, RulesError
from games.platform.models import Game, Round
from games.platform.registry import Outcome

from .rules import apply_action
from .store import dump, load, with_names
from .verdicts import judge_heat


def _cell_number(payload: dict, key: str) -> int:
    """A row or column as the page (text) or the API (a number) sends it."""
    value = payload.get(key)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RulesError(
            "Name a card by its row and column, each a number from 1 to 5.", field="cell"
        ) from None


def _open_round(game: Game, state) -> Round:
    """The window the move happens in: open, not paused, not past its close, and the rules' current round."""
    if game.paused_at:
        raise StateChanged("The hosts paused the game; cards wait for the resume.")
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None or rnd.number != state.round or state.phase.value != "playing":
        raise StateChanged("No round is open for turning cards over.")
    if rnd.closes_at <= timezone.now():
        raise StateChanged(f"Round {rnd.number} has closed; wait for the next round.")
    return rnd


def _player_move(game: Game, viewer, action: dict, *, garnet_reason: str | None = None) -> Outcome:
    if viewer.role != "player":
        raise NotAllowed("Only a player of this game turns cards over.")
    state = load(game)
    _open_round(game, state)
    state, events = apply_action(state, viewer.seat.number, action)
    if garnet_reason:
        # Debited in the same outcome: the season ledger refuses an overdraft and everything rolls back.
        events = [Ledger(viewer.seat.number, "garnets", -1, garnet_reason), *events]
    return Outcome(state=dump(state), events=with_names(game, events))


def flip(game: Game, viewer, payload: dict) -> Outcome:
    """Operation "flip" {row, col, action?}: turn a card over, final; the player is told it at once."""
    action = {"type": "flip", "row": _cell_number(payload, "row"), "col": _cell_number(payload, "col")}
    if payload.get("action"):
        action["action"] = payload["action"]
    return _player_move(game, viewer, action)


def declare(game: Game, viewer, payload: dict) -> Outcome:
    """Operation "declare" {action}: Nullify, Replace or Scout for the second card of this round."""
    return _player_move(game, viewer, {"type": "declare", "action": payload.get("action")})


def peek(game: Game, viewer, payload: dict) -> Outcome:
    """Operation "peek" {row, col}: 1 garnet buys a look at that card of the previous round (Rounds 2-3)."""
    row, col = _cell_number(payload, "row"), _cell_number(payload, "col")
    state = load(game)
    reason = f"Round {state.round}: a look at R{row}C{col} of Round {state.round - 1}"
    return _player_move(game, viewer, {"type": "peek", "row": row, "col": col}, garnet_reason=reason)


OPERATIONS = {"flip": flip, "declare": declare, "peek": peek, "judge_heat": judge_heat}
