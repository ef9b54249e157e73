"""Events and pair chat messages get a random ref, shown in place of their global id (issue 17.7)."""

from django.db import migrations, models

import games.platform.models


def fill_refs(apps, schema_editor):
    for name in ("Event", "ChatMessage"):
        model = apps.get_model("platform", name)
        rows = list(model.objects.filter(ref__isnull=True).only("pk"))
        for row in rows:
            row.ref = games.platform.models.new_ref()
        model.objects.bulk_update(rows, ["ref"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0010_accounts"),
    ]

    operations = [
        migrations.AddField(model_name="event", name="ref", field=models.CharField(max_length=12, null=True)),
        migrations.AddField(model_name="chatmessage", name="ref", field=models.CharField(max_length=12, null=True)),
        migrations.RunPython(fill_refs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="ref",
            field=models.CharField(
                default=games.platform.models.new_ref, editable=False, max_length=12, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="chatmessage",
            name="ref",
            field=models.CharField(
                default=games.platform.models.new_ref, editable=False, max_length=12, unique=True
            ),
        ),
    ]
