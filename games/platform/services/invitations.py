"""Invitations: a season's host hands out a link; whoever opens it in time joins the season as a player.

The link's token is the whole secret (32 random bytes). An invitation counts its uses under a row lock, so
the last place of a limited one goes to one person only; opening it again as a member uses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import Invitation, Season, SeasonPlayer
from ..wording import instant_ref, plain
from .audit import audit
from .membership import season_join
from .season import is_season_host

MAX_DAYS = 90
# More places than a season could ever fill: a number past it is a slip (or a probe), refused in words before
# it reaches the database's integer column.
MAX_USES = 10_000
TOO_MANY_USES = f"An invitation lets at most {MAX_USES} people join; leave it empty for no limit."


@dataclass(frozen=True)
class Standing:
    """Whether an invitation can still be used, and if not, why, in words for the person holding it (its time
    a reference: `wording.Told` on the page, in the visitor's own zone)."""

    usable: bool
    problem: str = ""


def invitation_standing(invitation: Invitation | None, now: datetime | None = None) -> Standing:
    now = now or timezone.now()
    if invitation is None:
        return Standing(False, "This invitation link is not valid. Ask the season's hosts for a new one.")
    if now >= invitation.expires_at:
        return Standing(
            False,
            f"This invitation to {invitation.season.name} expired on {instant_ref(invitation.expires_at)}. "
            "Ask the season's hosts for a new one.",
        )
    if invitation.max_uses is not None and invitation.uses >= invitation.max_uses:
        return Standing(
            False,
            f"This invitation to {invitation.season.name} has been used up "
            f"({invitation.max_uses} of {invitation.max_uses} places taken). "
            "Ask the season's hosts for a new one.",
        )
    return Standing(True)


def invitation_find(token: str) -> Invitation | None:
    if not token or len(token) > 64:
        return None
    return Invitation.objects.select_related("season").filter(token=token).first()


@transaction.atomic
def invitation_create(
    *, season: Season, actor, hours: float | None = None, max_uses: int | None = None, note: str = ""
) -> Invitation:
    if not is_season_host(season, actor):
        raise NotAllowed("Only a host of this season may invite players to it.")
    hours = 24 * 14 if hours is None else hours
    if not 0 < hours <= 24 * MAX_DAYS:
        raise RulesError(f"An invitation lasts from a moment to {MAX_DAYS} days.", field="hours")
    if max_uses is not None and max_uses < 1:
        raise RulesError("Let at least one person use it, or leave the number empty.", field="max_uses")
    if max_uses is not None and max_uses > MAX_USES:
        raise RulesError(TOO_MANY_USES, field="max_uses")
    invitation = Invitation.objects.create(
        season=season,
        expires_at=timezone.now() + timedelta(hours=hours),
        max_uses=max_uses,
        note=note[:120],
        created_by=actor,
    )
    audit(action="invitation_create", actor=actor, season=season, invitation=invitation.pk, max_uses=max_uses)
    return invitation


def invitation_text(invitation: Invitation, address: str) -> str:
    """A few lines a host pastes into Discord with the link. The time is Discord's timestamp markup,
    `<t:1764100800:f>`, which Discord shows to each reader in their own zone (a time written out would be in
    one zone for everyone)."""
    until = f"<t:{int(invitation.expires_at.timestamp())}:f>"
    places = ""
    if invitation.max_uses is not None:
        left = max(invitation.max_uses - invitation.uses, 0)
        places = f", for {left} {'person' if left == 1 else 'people'}"
    return (
        f"You are invited to play {invitation.season.name}!\n"
        f"Open this link, make your account (or log in) and you are a player of the season: {address}\n"
        f"The link works until {until}{places}."
    )


@transaction.atomic
def invitation_accept(*, token: str, user) -> SeasonPlayer:
    """`user` joins the invitation's season as a player, with its starting balances (a member already:
    nothing is used)."""
    invitation = Invitation.objects.select_for_update().select_related("season").filter(token=token).first()
    if invitation is not None:
        member = SeasonPlayer.objects.filter(season=invitation.season, user=user).first()
        if member is not None:
            return member
    standing = invitation_standing(invitation)
    if not standing.usable:
        raise StateChanged(plain(standing.problem, {}))
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    member = season_join(season=invitation.season, user=user)
    audit(action="invitation_accept", actor=user, season=invitation.season, invitation=invitation.pk)
    return member
