"""A host's "remind" for an Elimination Candidate who has not picked a Death Match opponent yet: a line in
their inbox on the Main Match's page, and a reminder by the ways they chose for reminders (reach/dispatch.py)
unless they turned reminders off.

The reminder is owed through the outbox (enqueue.send_pick_reminder), written in this transaction: a broker
away or a crash after the commit loses nothing, and each press is sent once, however often its task runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from genius.clock import site_now

from .. import enqueue
from ..errors import NotAllowed, StateChanged
from ..kit import Reveal
from ..models import AuditLog, DeathMatchPick
from ..wording import instant_ref
from ..zones import local_text
from .audit import audit
from .events import events_write
from .reminders import wants_reminders
from .season import is_season_host


@dataclass
class PickReminded:
    pick: DeathMatchPick
    emailed: bool  # sent by the ways they chose; False: they turned reminders off (the inbox line went)


@transaction.atomic
def pick_remind(*, pick: DeathMatchPick, actor, now=None) -> PickReminded:
    """Remind the pick's Elimination Candidate to pick by its deadline; only while the pick is open."""
    now = now or site_now()
    pick = (
        DeathMatchPick.objects.select_for_update(of=("self",))
        .select_related("main_match__season", "candidate__profile")
        .get(pk=pick.pk)
    )
    game = pick.main_match
    if not is_season_host(game.season, actor):
        raise NotAllowed("Only a host of this season may remind the Elimination Candidate.")
    if pick.status != DeathMatchPick.Status.OPEN:
        raise StateChanged("The opponent is already picked: nobody needs a reminder.")
    if pick.deadline <= now:
        raise StateChanged(f"The pick closed at {local_text(pick.deadline)}: set the opponent yourself.")
    seat = game.seats.filter(user=pick.candidate).first()
    if seat is not None:
        reminder = f"The hosts remind you: pick your Death Match opponent by {instant_ref(pick.deadline)}."
        events_write(game=game, events=[Reveal(seat.number, reminder)], actor=actor, public=False)
    emailed = wants_reminders(pick.candidate)
    if emailed:
        # Each press its own reminder (sent once even if its task runs twice), as the round reminders are.
        pressed = AuditLog.objects.filter(game=game, action="pick_remind").count()
        enqueue.send_pick_reminder(pick.pk, f"pick_reminder:{pick.pk}:{pressed + 1}")
    audit(action="pick_remind", actor=actor, game=game, candidate=pick.candidate.username, emailed=emailed)
    return PickReminded(pick=pick, emailed=emailed)
