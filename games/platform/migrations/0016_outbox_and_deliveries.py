"""The transactional outbox (issue 28): PendingTask becomes OutboxTask, NotificationSent becomes Delivery.

A task kept as a PendingTask was never sent: it becomes a row due at once, and the relay sends it. Every
NotificationSent key was sent: it becomes a Delivery marked sent when it was, with an idempotency key of
its own.
"""

import uuid

import django.utils.timezone
from django.db import migrations, models


def each_delivery_its_own_uid(apps, schema_editor):
    Delivery = apps.get_model("platform", "Delivery")
    for pk in Delivery.objects.values_list("pk", flat=True).iterator():
        Delivery.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0015_heartbeats"),
    ]

    operations = [
        migrations.RenameModel("PendingTask", "OutboxTask"),
        migrations.RenameField("OutboxTask", "queued_at", "created_at"),
        migrations.AddField(
            model_name="outboxtask",
            name="due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="outboxtask",
            name="due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.RenameModel("NotificationSent", "Delivery"),
        migrations.AlterModelOptions(name="delivery", options={"verbose_name_plural": "deliveries"}),
        migrations.AlterField(
            model_name="delivery",
            name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="delivery",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(each_delivery_its_own_uid, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="delivery",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False),
        ),
        migrations.AddField(
            model_name="delivery",
            name="claimed_by",
            field=models.UUIDField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="delivery",
            name="claimed_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
