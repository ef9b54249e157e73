"""The round form on a game page: the open round's form, a player's save, and the words around it.

No save is lost silently. A save that fails a check comes back with the player's input, a summary of its
problems ("Not saved: 2 problems") and each problem next to its field. A save that arrives after its round
closed (the page was left open, the round moved on) comes back too: refused, in the player's words ("Round
2 closed at ...: this save came too late and was not saved. Your last save, at ..., counted."), with what
they typed kept on the page and the form of the round open now, if any.

The page's script keeps the form in step with the round (static/js/site.js): when a poll brings a new
round, an untouched form is replaced by the new round's with a notice (`closed_notice`), and a form the
player has typed into is kept, marked as not saved.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.utils.text import capfirst

from . import registry
from .errors import Busy, RoundClosed, StateChanged
from .kit import RulesError
from .models import Game, Round, Submission
from .observation import current_round, observe, reading
from .services import rounds
from .zones import local_text


def form_for(game, viewer, obs, data=None):
    """The current round's form for a seated player while the round is open, filled with what they saved."""
    rnd = obs["round"]
    if viewer.role != "player" or not rnd or rnd["status"] != "open" or game.status != Game.Status.RUNNING:
        return None
    kind = registry.get(game.game_type)
    saved = (obs.get("submission") or {}).get("payload")
    # The round `obs` shows: every caller reads the observation and the form in one reading.
    return kind.submission_form(game, viewer.seat, current_round(game), data=data, initial=saved)


@dataclass
class Refused:
    """A save shown again: `form` bound with its errors, or, for a save after its round closed, `late`.
    `conflict`: the game moved on under the save (HTTP 409), rather than the input being wrong (400).
    `retry_after`: seconds after which the same request may be sent again (the game was busy), if so."""

    form: object = None
    late: dict | None = None
    conflict: bool = False
    retry_after: int | None = None


def save(request, game, viewer) -> Refused | None:
    """Save the player's submission; None when saved (a message says so), else what to show again."""
    if viewer.role != "player":
        messages.error(request, "Only a player of this game can submit.")
        return None
    with reading(game):
        obs = observe(game, viewer)
        form = form_for(game, viewer, obs, data=request.POST)
        posted = _posted_round(request)
        open_number = obs["round"]["number"] if form is not None else None
        if posted is not None and posted != open_number:
            return _too_late(request, game, viewer, obs, posted, form)
    if form is None:
        messages.error(request, "No round is open for you; nothing was saved.")
        return None
    if not form.is_valid():
        return Refused(form=form)
    try:
        payload = registry.get(game.game_type).form_to_payload(form)
        rounds.submission_save(
            seat=viewer.seat, round_number=open_number, payload=payload, final="save_final" in request.POST
        )
    except RulesError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return Refused(form=form)
    except (RoundClosed, StateChanged) as exc:
        # Busy included: what the player typed comes back in the form, to send again in a moment.
        form.add_error(None, exc.message)
        return Refused(form=form, conflict=True, retry_after=retry_after(exc))
    final = " as final" if "save_final" in request.POST else ""
    messages.success(request, f"Saved{final}. You can change it until Round {open_number} closes.")
    return None


def retry_after(exc: Exception) -> int | None:
    """The Retry-After of a refusal that may simply be sent again (Busy), else None."""
    return exc.retry_after if isinstance(exc, Busy) else None


def _posted_round(request) -> int | None:
    try:
        return int(request.POST.get("round_number", ""))
    except ValueError:
        return None


def _too_late(request, game, viewer, obs, number: int, open_form) -> Refused | None:
    """A save for a round that is no longer open: refused in words, with what the player typed kept."""
    rnd = Round.objects.filter(game=game, number=number).first()
    if rnd is None:
        messages.error(request, f"Round {number} has not opened; nothing was saved.")
        return None
    late = obs["round"] and obs["round"]["number"] == number and obs["round"]["results_coming"]
    coming = ", results coming" if late else ""
    text = (
        f"Round {number} closed at {local_text(rnd.closes_at)}{coming}: this save came too late and was "
        f"not saved. {capfirst(_last_save(viewer.seat, rnd))}."
    )
    # The form the player typed into, if the game can still build that round's form; otherwise what they
    # typed goes into the open round's form where its boxes are the same, with the refusal at its top.
    typed = registry.get(game.game_type).submission_form(game, viewer.seat, rnd, data=request.POST)
    if typed is None and open_form is not None:
        open_form.is_valid()
        now_open = obs["round"]["number"]
        open_form.add_error(None, f"{text} What you typed is below, in Round {now_open}'s form.")
        return Refused(form=open_form, conflict=True)
    if typed is not None:
        typed.auto_id = "typed_%s"  # beside the open round's form: ids of its own
    return Refused(late={"number": number, "text": text, "typed": typed}, conflict=True)


def _last_save(seat, rnd: Round, it: str = "") -> str:
    latest = Submission.objects.filter(round=rnd, seat=seat).order_by("-created_at", "-id").first()
    if latest is None:
        return f"you saved nothing for {it or f'Round {rnd.number}'}"
    final = " (final)" if latest.final else ""
    return f"your last save, at {local_text(latest.created_at)}{final}, counted"


def closed_notice(game, viewer, number: int) -> str:
    """What the page says when it replaces the form of a round that closed: "Round 2 closed: ..."."""
    rnd = Round.objects.filter(game=game, number=number).first()
    if rnd is None or viewer.role != "player":
        return ""
    return f"Round {number} closed: {_last_save(viewer.seat, rnd, it='it')}."


def problems(form) -> list[dict]:
    """The summary of a refused save: each problem, linked to its field ("Space to spectate: ...")."""
    if form is None or not form.is_bound or not form.errors:
        return []
    found = [{"href": "", "text": str(error)} for error in form.non_field_errors()]
    for field in form:
        for error in field.errors:
            href = field.id_for_label or f"{field.auto_id}_0"  # a group of radios: its first
            found.append({"href": href, "text": f"{field.label}: {error}"})
    return found
