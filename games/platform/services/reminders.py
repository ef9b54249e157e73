"""A host's "remind those missing": the reminder email, now, to each player who has not submitted."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from .. import enqueue, registry
from ..errors import StateChanged
from ..models import AuditLog, Game, Round, Submission
from .audit import audit
from .hosts import require_host
from .notify import wanting


@dataclass
class Reminded:
    """Who was missing from the round, who is emailed, and who switched reminders off."""

    round: Round
    emailed: list  # users (with their profiles: the console names them as they go by)
    unwilling: list

    @property
    def missing(self) -> list:
        return sorted(self.emailed + self.unwilling, key=lambda user: user.username)


def asked(game: Game, rnd: Round, seats) -> list:
    """The seats among `seats` the round asks anything of: in a round only some decide (the horse race's
    winner's choice), the others owe nothing and are not reminded of it."""
    deciding = registry.get(game.game_type).deciders(game, rnd)
    return list(seats) if deciding is None else [s for s in seats if s.number in deciding.seats]


@transaction.atomic
def reminder_send_now(*, game: Game, actor) -> Reminded:
    """Queue the reminder email (sent once the transaction commits) to every seat without a submission in the
    open round; players who switched reminders off are named, not emailed. The sweep's own reminder before
    the close still goes: this one is the host's, at a time of their choosing."""
    require_host(game, actor)
    rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
    if rnd is None:
        raise StateChanged("There is no open round: nobody has a submission to send.")
    submitted = Submission.objects.filter(round=rnd).values_list("seat_id", flat=True)
    # A seat the hosts excused from the round is not missing from it; only those who decide it are asked.
    missing = asked(
        game,
        rnd,
        game.seats.exclude(pk__in=submitted)
        .exclude(excused_rounds__round=rnd)
        .select_related("user__profile"),
    )
    willing = {uid for uid, *_ in wanting([s.user_id for s in missing], "reminder")}
    emailed = [s.user for s in missing if s.user_id in willing]
    unwilling = [s.user for s in missing if s.user_id not in willing]
    if emailed:
        # Each press is its own reminder (sent once, even if the task runs twice), apart from the sweep's.
        pressed = AuditLog.objects.filter(game=game, action="remind", detail__round=rnd.number).count()
        key = f"reminder:{rnd.pk}:host:{pressed + 1}"
        enqueue.send_reminder(rnd.pk, [s.user_id for s in missing if s.user_id in willing], key)
    # The log names accounts by username: what finds them in the admin, whatever they go by later.
    audit(
        action="remind",
        actor=actor,
        game=game,
        round=rnd.number,
        emailed=[u.username for u in emailed],
        unwilling=[u.username for u in unwilling],
    )
    return Reminded(round=rnd, emailed=emailed, unwilling=unwilling)
