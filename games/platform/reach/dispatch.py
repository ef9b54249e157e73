"""Telling players something: each by the ways they chose for that kind of message, the first that reaches
them carrying it, each way claimed once per message and player (services/deliveries.py).

`tell` runs inside an outbox task (tasks.py), as every email did: a way that fails for a while (the
network, a 5xx, the mail server) raises, and the task comes back for whoever was not told yet; a delivery
another run is sending right now is left to it (`deliveries.Held`). A way that cannot reach a player (no
address, Discord DMs closed) is passed by for the next one they chose, and said in the outcome, which a
host's "remind" shows them.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import prefetch_related_objects

from ..models import Delivery, NotificationPreference
from ..services import deliveries
from ..services.notify import DIGESTED
from .note import Note, Outcome


def _present(name: str) -> bool:
    return importlib.util.find_spec(f"{__package__}.{name}") is not None


# The ways, in the order tried. Each is a module of this package (NAME, LABEL, can_reach, deliver); Discord
# and push are written apart from this one and may be absent from a checkout, so a module that is not there
# is left out, while one that is there and fails to import raises as any import does.
CHANNELS = [
    importlib.import_module(f"{__package__}.{name}")
    for name in NotificationPreference.CHANNELS
    if _present(name)
]


def channel_named(name: str):
    return next((channel for channel in CHANNELS if channel.NAME == name), None)


def users(user_ids) -> list:
    """The users, with what composing and choosing need, in one query, and what each way reads to know
    whether it reaches them in one more per way."""
    people = list(
        get_user_model()
        .objects.filter(pk__in=list(user_ids))
        .select_related("profile", "notification_prefs")
        .order_by("pk")
    )
    reachable_read(people)
    return people


def reachable_read(people) -> None:
    """Fetch for all of `people` at once what the ways' can_reach read (each way's PREFETCH)."""
    related = [name for channel in CHANNELS for name in getattr(channel, "PREFETCH", ())]
    if related and people:
        prefetch_related_objects(list(people), *related)


def prefs_of(user) -> NotificationPreference:
    try:
        return user.notification_prefs
    except NotificationPreference.DoesNotExist:
        return NotificationPreference(user=user)


def chosen(user, kind: str, ways: tuple[str, ...] | None = None) -> list:
    """The ways `user` chose for `kind`, in the order tried; `ways` given, those ways whatever the choices
    (the digest, which its own tick asks for). A kind the daily digest carries goes by email only to those
    who did not choose the digest (notify.DIGESTED)."""
    if ways is not None:
        return [channel for channel in CHANNELS if channel.NAME in ways]
    prefs = prefs_of(user)
    digested = kind in DIGESTED and prefs.email_digest
    return [
        channel
        for channel in CHANNELS
        if prefs.wants(kind, channel.NAME) and not (digested and channel.NAME == "email")
    ]


def ways_to(user) -> list[tuple[str, str]]:
    """(channel label, why not) of every way, "" where it can reach `user` now."""
    return [(channel.LABEL, channel.can_reach(user)) for channel in CHANNELS]


def unreachable(user) -> bool:
    """No way at all reaches `user`: the console marks them, the host tells them."""
    return all(why for _, why in ways_to(user))


def unreachable_among(people) -> set[int]:
    """The ids of those among `people` no way reaches (the console's seat table marks them)."""
    people = list(people)
    reachable_read(people)
    return {person.pk for person in people if unreachable(person)}


def _sent_by(key: str, person_ids: list[int]) -> dict[int, str]:
    """The way each user was told under `key` by an earlier run, if they were."""
    keys = {
        f"{key}:{uid}:{channel}": (uid, channel)
        for uid in person_ids
        for channel in NotificationPreference.CHANNELS
    }
    # The bare `key:uid` is what an email was claimed under before there were other ways: one sent under it
    # before the change counts as this message told.
    keys.update({f"{key}:{uid}": (uid, "email") for uid in person_ids})
    sent = Delivery.objects.filter(key__in=list(keys), sent_at__isnull=False).values_list("key", flat=True)
    return dict(keys[k] for k in sent)


def tell(
    key: str, user_ids, kind: str, compose: Callable[[object], Note], ways: tuple[str, ...] | None = None
) -> dict[int, list[Outcome]]:
    """Tell each user `compose(user)` by the first way they chose for `kind` that reaches them, once under
    `key` (`results:<round>`): what each way made of it, per user id (an empty list: they chose no way).

    A user already told under `key` by an earlier run gets the way that carried it, as reached."""
    people = users(user_ids)
    sent = _sent_by(key, [person.pk for person in people])
    told: dict[int, list[Outcome]] = {}
    held = []
    for person in people:
        told[person.pk] = outcomes = []
        if person.pk in sent:
            outcomes.append(Outcome(sent[person.pk], True))
        else:
            _tell_one(key, person, kind, compose, outcomes, held, ways)
    if held:
        raise deliveries.Held(max(held))
    return told


def _tell_one(key: str, person, kind: str, compose, outcomes: list[Outcome], held: list, ways=None) -> None:
    note = None
    for channel in chosen(person, kind, ways):
        why = channel.can_reach(person)
        if why:
            outcomes.append(Outcome(channel.NAME, False, why))
            continue
        claim = deliveries.claim(f"{key}:{person.pk}:{channel.NAME}")
        if not claim.mine:
            if claim.held_until is not None:
                held.append(claim.held_until)  # another run is sending it: it finishes, or we come back
            else:
                outcomes.append(Outcome(channel.NAME, True))
            return
        try:
            note = note or compose(person)
            outcome = channel.deliver(person, note, str(claim.uid))
        except BaseException:
            claim.release()
            raise
        outcomes.append(outcome)
        if outcome.reached:
            claim.sent()
            return
        claim.release()  # not this way: the next one the player chose
