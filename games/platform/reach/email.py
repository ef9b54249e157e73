"""Email, the way that needs only an address: the site's mail server takes the message, or raises (a
temporary failure: the outbox task tries again). The delivery's uid is the Message-ID, the same for every
send of one delivery, so a mail system that did get a first send drops the copy."""

from __future__ import annotations

import uuid

from django.core.mail import EmailMessage

from ..services.deliveries import message_id
from .note import Note, Outcome

NAME = "email"
LABEL = "Email"


def can_reach(user) -> str:
    return "" if user.email else "no email address"


def deliver(user, note: Note, uid: str) -> Outcome:
    why = can_reach(user)
    if why:
        return Outcome(NAME, False, why)
    headers = {"Message-ID": message_id(uuid.UUID(str(uid)))}
    EmailMessage(note.subject, f"{note.text}\n{note.link}", to=[user.email], headers=headers).send()
    return Outcome(NAME, True)
