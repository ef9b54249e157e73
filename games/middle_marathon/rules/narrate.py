"""The move log: every public line goes both to the events the site shows and to the state's own log."""

from __future__ import annotations

from typing import Any

from games.platform.kit import Announce, Reveal

from .state import State


def say(state: State, events: list, text: str, **data: Any) -> None:
    state.log.append(text)
    events.append(Announce(text, data))


def tell(events: list, to: int, text: str, **data: Any) -> None:
    """A line for one seat's inbox only."""
    events.append(Reveal(to, text, data))
