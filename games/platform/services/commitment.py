"""Trust in the hosts' secrets: a published commitment to the hidden data at the start, checked at the end."""

from __future__ import annotations

import hashlib
import json
import secrets

from django.db import transaction

from .. import registry
from ..kit import Announce
from ..models import Game
from .audit import audit
from .events import events_write


def canonical(data) -> str:
    """One spelling of the data: sorted keys, no spaces, so anyone can recompute the hash."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(salt: str, data) -> str:
    return hashlib.sha256((salt + canonical(data)).encode()).hexdigest()


def commitment_publish(*, game: Game) -> Announce:
    """Called at the start, inside its transaction: fix the hash of the hidden data and announce it."""
    game.commitment_salt = secrets.token_hex(16)
    game.commitment = digest(game.commitment_salt, registry.get(game.game_type).hidden_data(game))
    game.save(update_fields=["commitment", "commitment_salt"])
    return Announce(
        f"The hosts' hidden data is committed: SHA-256 {game.commitment}. "
        "Its data and salt are revealed at the end, so anyone can check it was never changed.",
        {"commitment": game.commitment},
    )


def commitment_check(game: Game) -> dict | None:
    """After the end: the revealed data and salt, and whether they still hash to the published commitment."""
    if not game.commitment or game.status != Game.Status.FINISHED:
        return None
    data = registry.get(game.game_type).hidden_data(game)
    return {
        "commitment": game.commitment,
        "salt": game.commitment_salt,
        "data": canonical(data),
        "matches": digest(game.commitment_salt, data) == game.commitment,
    }


@transaction.atomic
def hidden_data_changed(*, game: Game, actor, reason: str) -> None:
    """A host insisted on fixing hidden data after the start: keep it on record and tell everyone."""
    audit(action="hidden_data_changed", actor=actor, game=game, reason=reason)
    events_write(
        game=game,
        events=[
            Announce(
                f"The hosts changed the hidden data after the start ({reason}). "
                "The commitment published at the start will no longer match."
            )
        ],
        actor=actor,
    )
