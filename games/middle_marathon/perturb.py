"""The leak proof's hook: change all of a running race that one seat (or the spectators) may not see."""

from __future__ import annotations

from games.platform.models import Event, Game

from .rules import perturb_hidden, told_discard
from .store import dump, load


def hidden_perturb(game: Game, seat_number: int | None, rng) -> list[str]:
    """Another hand for each seat but `seat_number`, and with secret discards other cards discarded:
    in the state and in the discarder's own inbox line, the one place outside the state that says them.
    """
    state = load(game)
    changed = perturb_hidden(state, seat_number, rng)
    game.state = dump(state)
    game.save(update_fields=["state"])
    for seat in {0, 1} - {seat_number}:
        discards = [d for d in state.discards if d["seat"] == seat]
        inbox = game.events.filter(kind=Event.Kind.REVEAL, seat__number=seat).order_by("id")
        told = [event for event in inbox if event.data.get("decision") == "discard"]
        for event, discard in zip(told, discards, strict=False):
            event.text = told_discard(discard["cards"])
            event.data = {**event.data, "choice": discard["cards"]}
            event.save(update_fields=["text", "data"])
    return changed
