"""The audit log of host actions."""

from __future__ import annotations

from ..models import AuditLog


def audit(*, action: str, actor=None, game=None, season=None, **detail) -> AuditLog:
    if game is not None and season is None:
        season = game.season
    return AuditLog.objects.create(game=game, season=season, actor=actor, action=action, detail=detail)
