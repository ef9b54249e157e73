"""The console's absence forms (issue 29.5): give the seat of a player who left (or, at a live match, of one
absent at the start) to another player, and excuse a seat's missed round.

Both change what a player holds, so each asks to confirm: a box to tick, worded in CONFIRM, checked by the
server (a press without it changes nothing and says so). A refused press keeps what the host typed and puts
the error beside its field: the console answers by a redirect, so both wait in the session for the next
rendering of this game's console (`absence_forms`).
"""

from __future__ import annotations

from ..kit import RulesError
from ..models import Game, Round, Seat
from ..observation import seats_with_players
from ..people import label
from ..services import absence
from ..setting import ABSENT_AT_START, ABSENT_REPLACED, sitting

# What each action asks the host to confirm, in the words of its consequence.
CONFIRM = {
    "replace": (
        "The new player takes this seat with its hand, its saved submissions and its balances in this game; "
        "the player who had it sees them no more. Everyone is told."
    ),
    "excuse": "The round is excused for this seat as the game's rules allow. Everyone is told.",
}

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
        "confirm": CONFIRM,
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


def _confirmed(request) -> None:
    if not request.POST.get("confirm"):
        raise RulesError("Tick the box to confirm: nothing was changed.", field="confirm")


def replace(request, game: Game) -> str:
    """Give a seat to another player: the console's "Give the seat"."""
    try:
        number = _number(request, "seat", "Choose the seat to give.")
        username = (request.POST.get("username") or "").strip()
        if not username:
            raise RulesError("Type the username of the player who takes the seat.", field="username")
        _confirmed(request)
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
        _confirmed(request)
        meaning = absence.round_excuse(
            game=game, seat_number=number, round_number=round_number, actor=request.user
        )
    except RulesError as exc:
        _keep(request, game, "excuse", exc)
        raise
    player = game.seats.select_related("user").get(number=number).user
    return f"Excused {label(player)}'s Round {round_number}. {meaning}"
