"""A host's "remind those missing": a reminder, now, to each player who has not submitted, by the ways each
chose for reminders, and an answer saying per player what reached them and what could not.

The press delivers it itself, inside its request, once its transaction has committed (`deliver_now`), so
the host reads what happened, not what was hoped: "eve: Discord direct message sent; ivy: no way to reach
them: no email address, … Tell them yourself." The reminder is owed all the same by an outbox row written in
that transaction but not published at once: the press deletes it when everyone was told, and a press that
died, ran out of its time (REMIND_SECONDS) or met a way down for a moment leaves it to the relay, which
sends the rest a lease later. Each way is claimed once per player (reach/dispatch.py): nothing goes twice.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from .. import enqueue, outbox, registry
from ..errors import StateChanged
from ..models import AuditLog, Game, Round, Submission
from ..people import label
from ..reach import dispatch
from ..reach.note import Outcome
from . import deliveries, notify
from .audit import audit
from .hosts import require_host

log = logging.getLogger(__name__)

REMIND_SECONDS = 10  # a host waits this long at most for the answer; the relay sends what is left


@dataclass
class Reminded:
    """Who was missing from the round, who is sent a reminder and who switched reminders off; once sent
    (`deliver_now`), what each way made of it per user id."""

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
    sent_to = [s.user for s in missing if dispatch.chosen(s.user, "reminder")]
    unwilling = [s.user for s in missing if not dispatch.chosen(s.user, "reminder")]
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


def deliver_now(reminded: Reminded, seconds: float = REMIND_SECONDS) -> Reminded:
    """Send the press's reminder from the request, after its commit, each player in turn until `seconds`
    have gone; the outbox row goes if everyone was told, else the relay sends the rest."""
    if not reminded.sent_to:
        return reminded
    rnd = reminded.round
    until = time.monotonic() + seconds
    for user in reminded.sent_to:
        if time.monotonic() > until:
            break
        try:
            told = dispatch.tell(reminded.key, [user.pk], "reminder", lambda u: notify.reminder(rnd, u))
        except deliveries.Held:
            continue  # another run is sending it: it is on its way
        except Exception:  # a way down for a moment: the relay's retry sends it
            log.exception(
                "The host's reminder %s to user %s failed; the relay retries it", reminded.key, user.pk
            )
            reminded.failed.append(user.pk)
            continue
        reminded.told.update(told)
    for pk in reminded.owed:
        if len(reminded.told) == len(reminded.sent_to):
            outbox.done(f"{outbox.PREFIX}{pk}")
        else:  # what is left goes at the relay's next tick, not a lease later
            outbox.due_again(f"{outbox.PREFIX}{pk}", timezone.now())
    return reminded


def what_reached(reminded: Reminded) -> str:
    """The answer to the host: per player, what reached them and what could not."""
    said = []
    for user in reminded.missing:
        said.append(f"{label(user)}: {_what_came(user, reminded)}")
    return "; ".join(said) + "."


def _what_came(user, reminded: Reminded) -> str:
    if user in reminded.unwilling:
        return "turned reminders off"
    outcomes: list[Outcome] = reminded.told.get(user.pk)
    if outcomes is None:
        if user.pk in reminded.failed:
            return "not sent yet: a way did not answer, and the site tries again in a minute"
        return "being sent"
    names = {channel.NAME: channel.LABEL for channel in dispatch.CHANNELS}
    reached = [o for o in outcomes if o.reached]
    failed = [f"{names.get(o.channel, o.channel)}: {o.why}" for o in outcomes if not o.reached]
    if reached:
        sent = f"{names.get(reached[0].channel, reached[0].channel).lower()} sent"
        return f"{sent} ({'; '.join(failed)})" if failed else sent
    if dispatch.unreachable(user):
        ways = ", ".join(why for _, why in dispatch.ways_to(user))
        return f"no way to reach them: {ways}. Tell them yourself"
    return f"not reached ({'; '.join(failed)}), and they chose no other way for reminders"
