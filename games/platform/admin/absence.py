"""The console's absence forms (issue 29.5): give the seat of a player who left (or, at a live match, of one
absent at the start) to another player, and excuse a seat's missed round.

Both change what a player holds, so each asks first (confirm.py): the question names the seat, its player
and what follows, asked only of a press that would act (one naming no seat or no player the site knows is
answered at once). A refused press keeps what the host typed and puts the error beside its field: the
console answers by a redirect, so both wait in the session for the next rendering of this game's console
(`absence_forms`).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from ..kit import RulesError
from ..models import ExcusedRound, Game, Round, Seat
from ..observation import seats_with_players
from ..people import label
from ..services import absence
from ..services.seating import seat_refusal_check
from ..setting import ABSENT_AT_START, ABSENT_REPLACED, sitting
from .confirm import asks_first

KEPT = "console_absence_kept"  # the session's key of a refused press: what was typed, and the error


def absence_forms(request, game: Game, kind, rnd: Round | None) -> dict | None:
    """What the console's absence forms need, or None when the game offers neither now."""
    running = game.status == Game.Status.RUNNING
    replace = running and (
        kind.flow == "rounds"
        or (game.sitting_down and sitting(game.settings, ABSENT_AT_START) == ABSENT_REPLACED)
    )
    excuse = running and kind.flow == "rounds"
    kept = request.session.pop(KEPT, None)
    if kept is not None and kept.get("game") != game.pk:
        kept = None
    if not (replace or excuse):
        return None
    seats = [(seat.number, f"{seat.number + 1}: {label(seat.user)}") for seat in seats_with_players(game)]
    numbers = list(game.rounds.order_by("number").values_list("number", flat=True)) if excuse else []
    return {
        "replace": replace,
        "excuse": excuse,
        "seats": seats,
        "rounds": numbers,
        "round": rnd.number if rnd is not None else None,
        "kept": kept or {},
    }


def _keep(request, game: Game, action: str, exc: RulesError) -> None:
    request.session[KEPT] = {
        "game": game.pk,
        "action": action,
        "values": {key: request.POST.get(key, "") for key in ("seat", "username", "round")},
        "field": exc.field or "",
        "error": exc.message,
    }


def _number(request, key: str, words: str) -> int:
    value = (request.POST.get(key) or "").strip()
    if not value.lstrip("-").isdigit():
        raise RulesError(words, field=key)
    return int(value)


def _seat(game: Game, fields) -> Seat | None:
    number = (fields.get("seat") or "").strip()
    if not number.isdigit():
        return None
    return Seat.objects.select_related("user").filter(game=game, number=int(number)).first()


@asks_first("replace")
def _replace_question(game: Game, fields) -> str:
    seat = _seat(game, fields)
    user = get_user_model().objects.filter(username=(fields.get("username") or "").strip()).first()
    if seat is None or user is None:
        return ""  # nothing to give: the press is answered at once, beside its field
    try:
        seat_refusal_check(game, user, field="username")
    except RulesError:
        return ""  # a player who may not sit here: the press is answered at once, beside its field
    leaver, newcomer = label(seat.user), label(user)
    return (
        f"Give seat {seat.number + 1} to {newcomer}? {newcomer} takes {leaver}'s hand, saved submissions and "
        f"balances in {game.name}, and {leaver} sees them no more. Everyone is told."
    )


@asks_first("excuse")
def _excuse_question(game: Game, fields) -> str:
    seat = _seat(game, fields)
    number = (fields.get("round") or "").strip()
    rnd = game.rounds.filter(number=int(number)).first() if number.isdigit() else None
    if seat is None or rnd is None or ExcusedRound.objects.filter(seat=seat, round=rnd).exists():
        return ""  # nothing to excuse: the press is answered at once, beside its field
    return (
        f"Excuse {label(seat.user)}'s missed Round {rnd.number}? Everyone is told, and an excuse is not "
        "taken back."
    )


def replace(request, game: Game) -> str:
    """Give a seat to another player: the console's "Give the seat"."""
    try:
        number = _number(request, "seat", "Choose the seat to give.")
        username = (request.POST.get("username") or "").strip()
        if not username:
            raise RulesError("Type the username of the player who takes the seat.", field="username")
        before = Seat.objects.select_related("user").filter(game=game, number=number).first()
        seat = absence.seat_replace(game=game, seat_number=number, username=username, actor=request.user)
    except RulesError as exc:
        _keep(request, game, "replace", exc)
        raise
    played = f"{label(before.user)}'s seat is now played by {label(seat.user)}"
    return f"Seat {number + 1}: {played}. Everyone is told."


def excuse(request, game: Game) -> str:
    """Excuse a seat's missed round: the console's "Excuse the round"."""
    try:
        number = _number(request, "seat", "Choose the seat to excuse.")
        round_number = _number(request, "round", "Choose the round to excuse.")
        meaning = absence.round_excuse(
            game=game, seat_number=number, round_number=round_number, actor=request.user
        )
    except RulesError as exc:
        _keep(request, game, "excuse", exc)
        raise
    player = game.seats.select_related("user").get(number=number).user
    return f"Excused {label(player)}'s Round {round_number}. {meaning}"
