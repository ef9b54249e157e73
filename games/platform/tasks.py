"""Celery tasks: thin, they take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.core.mail import send_mass_mail

from .models import Round


@shared_task(name="games.platform.tasks.sweep")
def sweep() -> dict:
    from .services.rounds import sweep as run_sweep

    return run_sweep()


@shared_task(name="games.platform.tasks.resolve_round")
def resolve_round(round_id: int, early: bool = False) -> bool:
    from .services.rounds import round_resolve

    return round_resolve(round_id=round_id, early=early)


@shared_task(name="games.platform.tasks.notify_round_resolved")
def notify_round_resolved(round_id: int) -> int:
    rnd = Round.objects.select_related("game").get(pk=round_id)
    emails = rnd.game.seats.exclude(user__email="").values_list("user__email", flat=True)
    subject = f"{rnd.game.name}: Round {rnd.number} is resolved"
    body = "The results are in your inbox on the game page."
    return send_mass_mail([(subject, body, None, [e]) for e in emails])


@shared_task(name="games.platform.tasks.send_reminder")
def send_reminder(round_id: int, emails: list[str]) -> int:
    rnd = Round.objects.select_related("game").get(pk=round_id)
    subject = f"{rnd.game.name}: Round {rnd.number} closes soon"
    body = (
        f"You have not submitted for Round {rnd.number} yet. It closes at {rnd.closes_at:%Y-%m-%d %H:%M} UTC."
    )
    return send_mass_mail([(subject, body, None, [e]) for e in emails])


@shared_task(
    name="games.platform.tasks.deliver_webhook",
    bind=True,
    max_retries=6,
    retry_backoff=True,
    retry_backoff_max=600,
    retry_jitter=True,
)
def deliver_webhook(self, webhook_id: int, event_id: int) -> int:
    """Post one announcement to one webhook; a failure is retried with exponential backoff."""
    from .models import Event, Webhook
    from .services.webhooks import DeliveryFailed, webhook_deliver

    webhook = Webhook.objects.filter(pk=webhook_id, active=True).first()
    event = Event.objects.select_related("game__season").filter(pk=event_id).first()
    if webhook is None or event is None:
        return 0
    try:
        return webhook_deliver(webhook=webhook, event=event)
    except DeliveryFailed as exc:
        raise self.retry(exc=exc) from exc
