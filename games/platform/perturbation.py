"""What game types share in their `hidden_perturb` (the leak proof): other players' private messages."""

from __future__ import annotations

import re

from .models import Event, Game


def other_inboxes(game: Game, seat_number: int | None, rng, *, data_numbers: bool = False) -> int:
    """Give every private message not to `seat_number` (every one, with None) other numbers, or a mark where
    it has none; with `data_numbers`, the integers of its data too. Returns how many were changed."""
    reveals = Event.objects.filter(game=game, kind=Event.Kind.REVEAL)
    if seat_number is not None:
        reveals = reveals.exclude(seat__number=seat_number)
    reveals = list(reveals)
    for event in reveals:
        text = re.sub(r"\d+", lambda m: str(int(m.group()) + rng.randint(1, 3)), event.text)
        event.text = text if text != event.text else f"{text} (perturbed)"
        if data_numbers:
            event.data = {k: v + 1 if type(v) is int else v for k, v in event.data.items()}
        event.save(update_fields=["text", "data"])
    return len(reveals)
