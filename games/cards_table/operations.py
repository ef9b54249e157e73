"""The operations players and hosts run through the site during a round window: flip a card, declare the
action, pay a garnet to see last round (players), and judge a heat indicator guess (hosts)."""

from __future__ import annotations

from django.db import transaction

from games.platform.errors import NotAllowed, StateChanged
from games.platform.kit import Ledger, RulesError
from games.platform.models import Game, Round
from games.platform.registry import Outcome
from games.platform.services.rounds import round_resolve, round_retry
from genius.clock import site_now

from .models import HeatVerdict
from .names import with_names
from .rules import apply_action
from .store import dump, load
from .verdicts import heat_guesses


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
    if rnd.closes_at <= site_now():
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


def _truth(value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "right", "correct"):
        return True
    if text in ("0", "false", "no", "wrong", "incorrect"):
        return False
    raise RulesError("Say whether the guess is right or wrong.", field="correct")


def judge_heat(game: Game, viewer, payload: dict) -> Outcome:
    """Operation "judge_heat" {seat, correct}: a host's verdict on the guess a seat saved this round."""
    if viewer.role != "host":
        raise NotAllowed("Only a host of this game judges heat indicator guesses.")
    rnd = game.rounds.filter(status__in=[Round.Status.OPEN, Round.Status.FAILED]).order_by("-number").first()
    try:
        seat_number = int(payload.get("seat"))
    except (TypeError, ValueError):
        raise RulesError("Name the seat whose guess you judge.", field="seat") from None
    correct = _truth(payload.get("correct"))
    guess = next((g for g in heat_guesses(game, rnd) if g["seat"] == seat_number), None)
    if guess is None:
        raise RulesError("That player has no heat indicator guess waiting this round.", field="seat")
    seat = game.seats.get(number=seat_number)
    HeatVerdict.objects.update_or_create(
        game=game,
        seat=seat,
        round_number=rnd.number,
        defaults={"text": guess["text"], "correct": correct, "judged_by": viewer.user},
    )
    if all(g["correct"] is not None for g in heat_guesses(game, rnd)):
        _resolve_if_waiting(game, rnd, viewer.user)
    return Outcome(state=game.state)


def _resolve_if_waiting(game: Game, rnd: Round, host) -> None:
    """The close waited for this last verdict: resolve the round as soon as the verdict is committed.

    It waited when the round is overdue, or failed, or when it was asked to close early (a host's "resolve
    now", or every player final) and answered that it waits: `last_error` then says for what. Such a round
    closes now, early, as it was asked to; one whose window simply runs on closes at its deadline.
    """
    round_id = rnd.pk
    if rnd.status == Round.Status.FAILED:

        def retry_then_resolve():
            round_retry(game=game, actor=host)
            round_resolve(round_id=round_id)

        transaction.on_commit(retry_then_resolve)
    elif rnd.closes_at <= site_now():
        transaction.on_commit(lambda: round_resolve(round_id=round_id))
    elif rnd.last_error:
        transaction.on_commit(lambda: round_resolve(round_id=round_id, early=True, actor=host))


OPERATIONS = {"flip": flip, "declare": declare, "peek": peek, "judge_heat": judge_heat}
