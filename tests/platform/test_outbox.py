"""What a commit owes the outside is an outbox row of its own transaction, done exactly once (issue 28.1).

In these tests no commit happens (each runs inside a transaction that is rolled back), so the publish after
the commit never runs: that is a process that died right after its commit. What the relay then does, and
what each task does with its row and with the claims of its deliveries, is checked here on SQLite and
Postgres alike; tests/faults/test_outbox.py does the same against a live stack.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.platform import enqueue, outbox
from games.platform.models import Delivery, OutboxTask
from games.platform.services import deliveries
from games.platform.services.rounds import round_resolve
from games.platform.services.sweep import sweep
from games.platform.tasks import notify_round_resolved

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def resolved(tally):
    """Round 0 resolved early: its owed emails are an outbox row, never published (no commit comes)."""
    rnd = tally.rounds.get(number=0)
    round_resolve(round_id=rnd.pk, early=True)
    return rnd, OutboxTask.objects.get(name="notify_round_resolved")


def lease_ran_out(*rows: OutboxTask) -> None:
    OutboxTask.objects.filter(pk__in=[r.pk for r in rows]).update(
        due_at=timezone.now() - timedelta(seconds=1)
    )


def sent_to() -> list[tuple[str, str]]:
    return sorted((m.to[0], m.subject) for m in mail.outbox)


EMAILS = [
    ("alice@example.com", "Tally: Round 0 is resolved"),
    ("alice@example.com", "Tally: Round 1 is open"),
    ("bob@example.com", "Tally: Round 0 is resolved"),
    ("bob@example.com", "Tally: Round 1 is open"),
]


def test_what_a_commit_owes_is_written_in_its_transaction_or_not_at_all(tally):
    rnd = tally.rounds.get(number=0)
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue.notify_round_resolved(rnd.pk)
        raise RuntimeError("the change is rolled back")
    assert not OutboxTask.objects.exists()
    with transaction.atomic():
        enqueue.notify_round_resolved(rnd.pk)
    (owed,) = OutboxTask.objects.all()
    assert (owed.name, owed.args, owed.attempts) == ("notify_round_resolved", [rnd.pk], 0)
    assert owed.due_at > timezone.now()  # its lease: the fast path publishes it first


def test_after_a_crash_between_the_commit_and_the_publish_the_relay_sends_it_once_its_lease_ends(tally):
    rnd, owed = resolved(tally)
    assert outbox.relay() == 0  # not due yet: the commit's own publish has its lease to run it
    assert mail.outbox == []
    lease_ran_out(owed)
    assert outbox.relay() == 1
    assert sent_to() == EMAILS
    assert not OutboxTask.objects.exists()
    assert outbox.relay() == 0 and len(mail.outbox) == 4


def test_a_copy_of_a_task_whose_work_is_done_does_nothing(tally):
    rnd, owed = resolved(tally)
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    assert len(mail.outbox) == 4 and not OutboxTask.objects.exists()
    Delivery.objects.all().delete()  # even were its deliveries forgotten, a settled copy sends nothing
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    assert len(mail.outbox) == 4


def test_two_runs_at_once_send_each_email_once_and_the_task_comes_back_for_what_the_other_holds(tally, alice):
    rnd, owed = resolved(tally)
    alices = f"results:{rnd.pk}:{alice.pk}:email"
    other = deliveries.claim(alices)  # another run of the task is sending this one
    assert other.mine
    assert not deliveries.claim(alices).mine  # a second claim fails while it lives
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    assert sent_to() == [("bob@example.com", "Tally: Round 0 is resolved")]
    owed.refresh_from_db()  # kept, due when the other run's claim runs out
    assert owed.due_at == Delivery.objects.get(key=f"results:{rnd.pk}:{alice.pk}:email").claimed_until

    other.sent()  # the other run sent alice's
    lease_ran_out(owed)
    assert outbox.relay() == 1
    assert sent_to() == [e for e in EMAILS if e != ("alice@example.com", "Tally: Round 0 is resolved")]
    assert not OutboxTask.objects.exists()
    assert Delivery.objects.filter(sent_at__isnull=False).count() == 4


def test_an_email_whose_sender_died_mid_send_goes_again_with_the_same_message_id(tally, alice, settings):
    rnd, owed = resolved(tally)
    # Its sender was killed: never sent, never freed.
    dead = deliveries.claim(f"results:{rnd.pk}:{alice.pk}:email")
    Delivery.objects.filter(key=dead.key).update(claimed_until=timezone.now() - timedelta(seconds=1))
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    assert sent_to() == EMAILS
    (again,) = [m for m in mail.outbox if m.to == ["alice@example.com"] and "resolved" in m.subject]
    assert again.message()["Message-ID"] == deliveries.message_id(dead.uid)
    assert dead.uid == Delivery.objects.get(key=dead.key).uid
    ids = {m.message()["Message-ID"] for m in mail.outbox}
    assert len(ids) == 4 and all(i.endswith("@localhost>") for i in ids)  # GENIUS_SITE_URL's host


def test_a_failed_send_frees_its_claim_and_is_retried_by_the_relay_then_given_up(
    tally, monkeypatch, settings
):
    settings.GENIUS_NOTIFY_RETRY_SECONDS = 0
    rnd, owed = resolved(tally)
    sends = []

    def mail_server_down(message, *args, **kwargs):
        sends.append(message.to)
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", mail_server_down)
    notify_round_resolved.apply(args=[rnd.pk], task_id=f"outbox-{owed.pk}")
    owed.refresh_from_db()
    assert owed.attempts == 1 and "the mail server is down" in owed.last_error
    assert not Delivery.objects.filter(claimed_by__isnull=False).exists()  # the claim went back
    for _ in range(8):  # eight retries, each published by the relay
        assert outbox.relay() == 1
    owed.refresh_from_db()
    assert owed.attempts == 9 and owed.due_at is None  # gave up: kept with its error, never due again
    assert outbox.relay() == 0 and len(sends) == 9
    assert not Delivery.objects.filter(sent_at__isnull=False).exists()


def test_the_sweeps_reminder_is_owed_by_the_transaction_that_claims_it(tally, settings):
    settings.GENIUS_REMINDER_HOURS = 2  # the round closes within the hour
    assert sweep()["reminders"] == 1
    (owed,) = OutboxTask.objects.all()
    rnd = tally.rounds.get(number=0)
    assert owed.name == "send_reminder" and owed.args[0] == rnd.pk
    assert rnd.reminder_sent_at is not None
    assert sweep()["reminders"] == 0 and OutboxTask.objects.count() == 1


def test_the_relay_takes_each_due_row_once_and_gives_it_a_new_lease(tally, monkeypatch):
    _, owed = resolved(tally)
    lease_ran_out(owed)
    published = []
    monkeypatch.setattr(outbox, "_publish", lambda name, args, task_id=None: published.append(task_id))
    assert outbox.relay() == 1
    assert outbox.relay() == 0  # a new lease: not due again until it runs out
    assert published == [f"outbox-{owed.pk}"]
    owed.refresh_from_db()
    assert owed.due_at > timezone.now()


@pytest.mark.django_db(transaction=True)
def test_of_many_senders_claiming_one_delivery_at_once_exactly_one_wins():
    if connection.vendor != "postgresql":
        pytest.skip("Concurrent writers need PostgreSQL (SQLite's writers take turns by design).")
    start, won, errors = threading.Barrier(8), [], []

    def sender():
        try:
            start.wait()
            if deliveries.claim("results:1:1").mine:
                won.append(1)
        except Exception as exc:  # pragma: no cover - shown in the assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sender) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and won == [1]


def test_a_task_that_gave_up_is_shown_to_superusers_and_tried_again_from_the_admin(tally, hank, make_user):
    rnd, owed = resolved(tally)
    OutboxTask.objects.filter(pk=owed.pk).update(due_at=None, attempts=9, last_error="OSError: down")
    url = reverse("admin:platform_outboxtask_changelist")
    host = Client()
    host.force_login(hank)  # a host (staff), not a superuser: owed tasks name other games' rows
    assert host.get(url).status_code == 403
    root = Client()
    root.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert "OSError: down" in root.get(url).content.decode()
    answer = root.post(url, {"action": "try_again_now", "_selected_action": [owed.pk]}, follow=True)
    assert "1 owed tasks are due" in answer.content.decode()
    owed.refresh_from_db()
    assert owed.attempts == 0 and owed.due_at <= timezone.now()
    assert outbox.relay() == 1 and sent_to() == EMAILS
