"""The console's buttons that ask first: an early or destructive host action (Resolve now, Pause, replacing a
player, creating a Death Match, ending a season) answers its first press with a question naming what it will
do ("Close Round 3 now, 41 h early? 5 players have not submitted."), and acts only on a second press that
carries confirm=yes.

The question is a step of the page, not a script's dialog: the first POST redirects to the console with
?confirm=<action> (the other fields it carried along), and the console shows the question at its top with a
"Yes" button posting the same fields and confirm=yes, and a way back. So it works without JavaScript, a screen
reader reads it as a form like the others, and a request made by hand cannot skip it.

An action asks first by registering its question here: `@asks_first("resolve")` over a function
(game, fields) -> the question, or "" where, now, it would ask nothing (a round whose time is up closes
without a question). `fields` are the POSTed fields (a player to replace, say), as strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple
from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.urls import reverse

from ..models import Game


class Button(NamedTuple):
    """A console button: its action (the URL's last part), its words, and the question it asks first ("" if
    it acts at once). A button whose action asks first at all (even not now) looks like a danger: Resolve now
    never looks like Extend 24 h."""

    action: str
    words: str
    confirm: str = ""

    @property
    def danger(self) -> bool:
        return bool(self.confirm) or self.action in ASKS_FIRST


Question = Callable[[Game, Mapping[str, str]], str]

ASKS_FIRST: dict[str, Question] = {}

# Fields of a press that are the page's own machinery, never carried into the question's second step.
NOT_CARRIED = {"csrfmiddlewaretoken", "confirm", "do"}


def asks_first(action: str) -> Callable[[Question], Question]:
    def register(question: Question) -> Question:
        ASKS_FIRST[action] = question
        return question

    return register


def question(game: Game, action: str, fields: Mapping[str, str] | None = None) -> str:
    """What pressing `action` now asks first ("" if it acts at once)."""
    asks = ASKS_FIRST.get(action)
    return asks(game, fields or {}) if asks is not None else ""


def carried(data) -> dict[str, str]:
    """The fields of a press that its confirmation posts again (the first value of each)."""
    return {name: data.get(name) for name in data if name not in NOT_CARRIED}


def ask_first(request, game: Game, action: str) -> HttpResponseRedirect | None:
    """The answer to a press that must be confirmed and was not: the console, showing the question."""
    if request.POST.get("confirm") == "yes":
        return None
    fields = carried(request.POST)
    if not question(game, action, fields):
        return None
    query = urlencode({"confirm": action, **fields})
    return HttpResponseRedirect(f"{reverse('admin:platform_game_change', args=[game.pk])}?{query}#console")


def confirming(request, game: Game, buttons) -> dict | None:
    """The question the console shows at its top, when the page was asked for by a press to be confirmed:
    the action, its button's words, the question and the fields to post again. None if nothing is asked, or
    if the action no longer asks (its round closed meanwhile: its button then acts at once)."""
    action = request.GET.get("confirm")
    if not action or action not in ASKS_FIRST:
        return None
    fields = carried(request.GET)
    asked = question(game, action, fields)
    if not asked:
        return None
    words = next((b[1] for b in buttons if b[0] == action), action.replace("_", " ").capitalize())
    return {"action": action, "words": words, "question": asked, "fields": sorted(fields.items())}
