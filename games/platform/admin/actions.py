"""An admin action's answer, for the games', the seasons' and the picks' admins: each selected row's service
runs on its own and is answered in words, a message per row."""

from __future__ import annotations

import logging

from django.contrib import messages

from ..errors import NotAllowed, RoundClosed, StateChanged
from ..kit import RulesError

log = logging.getLogger(__name__)


def run_service(request, label, fn):
    """One game of an action on the selected games. Each service is a transaction of its own: one that
    fails keeps nothing of its game, and those before it stay done, so the answer names each game's outcome
    instead of a 500 for the whole selection (issue 28.3)."""
    try:
        fn()
        messages.success(request, f"{label}: done.")
    except (RulesError, StateChanged, NotAllowed, RoundClosed) as exc:
        messages.error(request, f"{label}: {exc.message}")
    except Exception as exc:
        log.exception("%s failed", label)
        failed = f"failed ({type(exc).__name__}); nothing of it was kept. The traceback is in the log."
        messages.error(request, f"{label}: {failed}")
