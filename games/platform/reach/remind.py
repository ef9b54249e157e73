"""A host's "remind those missing", sent by the press itself, inside its request, once its transaction has
committed, so the host reads what happened, not what was hoped: "eve: Discord direct message sent; ivy: no
way to reach them: no email address, … Tell them yourself." The reminder is owed all the same by the outbox
row services/reminders.py wrote in that transaction, not published at once: the press deletes it when
everyone was told, and a press that died, ran out of its time (REMIND_SECONDS) or met a way down for a
moment leaves the rest to the relay. Each way is claimed once per player (dispatch.py): nothing goes twice.
"""

from __future__ import annotations

import logging
import time
from functools import partial

from django.utils import timezone

from .. import outbox
from ..people import label
from ..services import deliveries
from ..services.reminders import Reminded
from . import dispatch, messages
from .note import Outcome

log = logging.getLogger(__name__)

REMIND_SECONDS = 10  # a host waits this long at most for the answer; the relay sends what is left


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
            told = dispatch.tell(reminded.key, [user.pk], "reminder", partial(messages.reminder, rnd))
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
    if not outcomes:
        return "chose no way this site has for reminders"
    names = {channel.NAME: channel.LABEL for channel in dispatch.CHANNELS}
    reached = [o for o in outcomes if o.reached]
    if reached:  # the ways passed by before it are the player's to mend (their account page says why)
        return f"{names.get(reached[0].channel, reached[0].channel).lower()} sent"
    failed = [f"{names.get(o.channel, o.channel)}: {o.why}" for o in outcomes]
    if dispatch.unreachable(user):
        ways = ", ".join(why for _, why in dispatch.ways_to(user))
        return f"no way to reach them: {ways}. Tell them yourself"
    return f"not reached ({'; '.join(failed)}), and they chose no other way for reminders"
