"""A host's "remind those missing": a reminder, now, to each player who has not submitted, by the ways each
chose for reminders. The press sends it itself once this transaction has committed and answers per player
(reach/remind.py); the outbox row written here, not published at once, is its safety net.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from .. import enqueue, registry
from ..errors import StateChanged
from ..models import AuditLog, Game, NotificationPreference, Round, Submission
from .audit import audit
from .hosts import require_host


@dataclass
class Reminded:
    """Who was missing from the round, who is sent a reminder and who switched reminders off; once sent
    (reach/remind.py), what each way made of it per user id."""

    round: Round
    sent_to: list  # users (with their profiles: the console names them as they go by)
    unwilling: list
    key: str = ""
    owed: list = field(default_factory=list)  # the outbox row that is the safety net
    told: dict = field(default_factory=dict)  # {user id: [Outcome]}; a user missing: left to the relay
    failed: list = field(default_factory=list)  # user ids a way failed for a moment: the relay retries

    @property
    def missing(self) -> list:
        return sorted(self.sent_to + self.unwilling, key=lambda user: user.username)


def asked(game: Game, rnd: Round, seats) -> list:
    """The seats among `seats` the round asks anything of: in a round only some decide (the horse race's
    winner's choice), the others owe nothing and are not reminded of it."""
    deciding = registry.get(game.game_type).deciders(game, rnd)
    return list(seats) if deciding is None else [s for s in seats if s.number in deciding.seats]


def wants_reminders(user) -> bool:
    """Reminders by some way (loaded with the user: `notification_prefs`); none chosen, the default."""
    try:
        return user.notification_prefs.reminder
    except NotificationPreference.DoesNotExist:
        return NotificationPreference(user=user).reminder


@transaction.atomic
def reminder_send_now(*, game: Game, actor) -> Reminded:
    """Owe the reminder (an outbox row, in this transaction) to every seat without a submission in the open
    round; players who switched reminders off by every way are named, not sent it. The sweep's own reminder
    before the close still goes: this one is the host's, at a time of their choosing."""
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
        .select_related("user__profile", "user__notification_prefs"),
    )
    sent_to = [s.user for s in missing if wants_reminders(s.user)]
    unwilling = [s.user for s in missing if not wants_reminders(s.user)]
    reminded = Reminded(round=rnd, sent_to=sent_to, unwilling=unwilling)
    if sent_to:
        # Each press is its own reminder (sent once, even if the task runs twice), apart from the sweep's.
        pressed = AuditLog.objects.filter(game=game, action="remind", detail__round=rnd.number).count()
        reminded.key = f"reminder:{rnd.pk}:host:{pressed + 1}"
        reminded.owed = enqueue.send_reminder(rnd.pk, [u.pk for u in sent_to], reminded.key, publish=False)
    # The log names accounts by username: what finds them in the admin, whatever they go by later.
    audit(
        action="remind",
        actor=actor,
        game=game,
        round=rnd.number,
        emailed=[u.username for u in sent_to],  # the name kept from when email was the only way
        unwilling=[u.username for u in unwilling],
    )
    return reminded
