"""Errors a service raises for the faces to turn into words and status codes."""

from __future__ import annotations

import math

from django.conf import settings

from .kit import RulesError
from .zones import local_text

__all__ = [
    "RulesError",
    "RoundClosed",
    "StateChanged",
    "Busy",
    "NotResolved",
    "NotAllowed",
    "NotEnough",
    "NotReady",
]


class RoundClosed(Exception):
    """The round a submission was for is no longer open (HTTP 409)."""

    def __init__(self, closed_at=None, message: str | None = None, late: bool = False):
        self.closed_at = closed_at
        if message is None:
            # In the zone of whoever reads it (the request's, named): see zones.ZoneMiddleware.
            when = f" at {local_text(closed_at)}" if closed_at else ""
            coming = ", results coming" if late else ""
            message = f"The round closed{when}{coming}; this submission was not saved."
        super().__init__(message)
        self.message = message


class StateChanged(Exception):
    """The game moved on while the request was on its way (HTTP 409)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Busy(StateChanged):
    """Another change to the same game held its rows longer than a request may wait (HTTP 409, with
    Retry-After): nothing was kept, and the same request may be sent again."""

    def __init__(self, message: str = "Another change to this game is under way; try again in a moment."):
        super().__init__(message)

    @property
    def retry_after(self) -> int:
        """Seconds to wait before sending it again: as long as the request waited for the rows."""
        return max(1, math.ceil(settings.GENIUS_LOCK_WAIT_SECONDS))


class NotResolved(StateChanged):
    """A host asked to resolve a round and it was not resolved (HTTP 409): `outcome` says what happened."""

    def __init__(self, outcome: str, message: str):
        super().__init__(message)
        self.outcome = outcome


class NotAllowed(Exception):
    """The user may see this but may not do it (HTTP 403)."""

    def __init__(self, message: str = "You may not do that."):
        super().__init__(message)
        self.message = message


class NotEnough(RulesError):
    """A payment larger than the balance (HTTP 400): a balance never goes below zero."""


class NotReady(Exception):
    """A round cannot resolve yet (e.g. a host's verdict is missing): the sweep waits, counting no failure."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
