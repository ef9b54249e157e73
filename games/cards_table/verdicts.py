"""The hosts' verdicts on heat indicator guesses: which guesses wait for one, and the verdict on a guess.

The hosts give them through the operation "judge_heat" (operations.py)."""

from __future__ import annotations

from games.platform.models import Game, Round
from games.platform.people import shown_name
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
                "player": shown_name(submission.seat.user),
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
