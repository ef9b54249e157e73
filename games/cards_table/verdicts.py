"""The host's judgement of heat indicator guesses: what waits for a verdict, and the verdict itself."""

from __future__ import annotations

from django.db import transaction

from games.platform.errors import NotAllowed
from games.platform.kit import RulesError
from games.platform.models import Game, Round
from games.platform.registry import Outcome
from games.platform.services.rounds import latest_submissions

from .models import HeatVerdict


def heat_guesses(game: Game, rnd: Round | None) -> list[dict]:
    """The heat guesses saved in the round's latest submissions, with the verdict given for that text."""
    if rnd is None:
        return []
    verdicts = {v.seat_id: v for v in HeatVerdict.objects.filter(game=game, round_number=rnd.number)}
    found = []
    for number, submission in sorted(latest_submissions(rnd, with_users=True).items()):
        text = (submission.payload or {}).get("heat_guess") or ""
        if not text:
            continue
        verdict = verdicts.get(submission.seat_id)
        found.append(
            {
                "seat": number,
                "player": submission.seat.user.username,
                "text": text,
                "correct": verdict.correct if verdict is not None and verdict.text == text else None,
            }
        )
    return found


def round_verdicts(game: Game, round_number: int) -> dict[int, HeatVerdict]:
    """The hosts' verdicts of a round by seat number, in one query however many players guessed."""
    rows = HeatVerdict.objects.filter(game=game, round_number=round_number).select_related("seat")
    return {v.seat.number: v for v in rows}


def verdict_for(verdicts: dict[int, HeatVerdict], seat_number: int, text: str) -> bool | None:
    """The verdict on this very guess text: a changed guess waits for a new one."""
    verdict = verdicts.get(seat_number)
    if verdict is None or verdict.text != text:
        return None
    return verdict.correct


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
    """The close waited for this last verdict (the round is overdue, or failed): resolve it once committed."""
    from django.utils import timezone

    from games.platform.services.rounds import round_resolve, round_retry

    if rnd.status == Round.Status.FAILED:
        round_id = rnd.pk

        def retry_then_resolve():
            round_retry(game=game, actor=host)
            round_resolve(round_id=round_id)

        transaction.on_commit(retry_then_resolve)
    elif rnd.closes_at <= timezone.now():
        transaction.on_commit(lambda: round_resolve(round_id=rnd.pk))
