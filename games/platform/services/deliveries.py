"""Each single delivery (one email to one user, one announcement to one webhook) is claimed before it is
sent and marked sent after, by compare-and-set on its `Delivery` row (issue 28).

Checking, then sending, then recording let two runs of one task at once both send (a broker that delivered
a task twice, the relay publishing a task whose first run was slow). A claim is one UPDATE that succeeds
only on a row neither sent nor claimed by a live claim, so of two senders exactly one wins; the other
skips that delivery and the task's outbox row comes back for it when the winner's claim runs out
(`Held`). A send that fails gives its claim back. A sender killed mid-send leaves its claim to run out
(GENIUS_DELIVERY_LEASE_SECONDS, longer than any send may take); the delivery is then sent again with the
same `uid`, which the email carries as its Message-ID and the webhook post as its Idempotency-Key, so a
receiver that did get the first one can drop the copy.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from ..models import Delivery


class Held(Exception):
    """Another sender holds a claim on a delivery of this run: the task comes back when it runs out."""

    def __init__(self, until: datetime):
        super().__init__(f"a delivery is being sent by another run until {until.isoformat()}")
        self.until = until


@dataclass(frozen=True)
class Claim:
    """What `claim` found: ours to send (`mine`), sent already, or held by another sender until a time."""

    key: str
    uid: uuid.UUID | None = None
    token: uuid.UUID | None = None
    held_until: datetime | None = None

    @property
    def mine(self) -> bool:
        return self.token is not None

    def sent(self) -> None:
        """Recorded as sent (whoever's claim it holds now: it went out)."""
        Delivery.objects.filter(key=self.key).update(
            sent_at=timezone.now(), claimed_by=None, claimed_until=None
        )

    def release(self) -> None:
        """The send failed: the claim is given back, for the retry (unless another sender has it since)."""
        Delivery.objects.filter(key=self.key, claimed_by=self.token, sent_at__isnull=True).update(
            claimed_by=None, claimed_until=None
        )


def claim(key: str) -> Claim:
    """Claim the delivery named `key` for this sender, unless it went out or another sender's claim lives."""
    row, _ = Delivery.objects.get_or_create(key=key)
    now = timezone.now()
    token = uuid.uuid4()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lte=now)
    won = Delivery.objects.filter(free, key=key, sent_at__isnull=True).update(
        claimed_by=token, claimed_until=now + timedelta(seconds=settings.GENIUS_DELIVERY_LEASE_SECONDS)
    )
    if won:
        return Claim(key, uid=row.uid, token=token)
    sent_at, until = Delivery.objects.filter(key=key).values_list("sent_at", "claimed_until").get()
    return Claim(key) if sent_at is not None else Claim(key, held_until=until or now)


def message_id(uid: uuid.UUID) -> str:
    """An email's Message-ID: the same for every send of one delivery, so a mail system drops a copy."""
    return f"<{uid}@{urlsplit(settings.GENIUS_SITE_URL).hostname or 'localhost'}>"
