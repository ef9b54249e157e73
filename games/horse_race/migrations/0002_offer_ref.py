"""A trade offer gets a random ref: the players name it by that, never by its global id (issue 17.7)."""

from django.db import migrations, models

import games.platform.models


def fill_refs(apps, schema_editor):
    model = apps.get_model("horse_race", "TradeOffer")
    rows = list(model.objects.filter(ref__isnull=True).only("pk"))
    for row in rows:
        row.ref = games.platform.models.new_ref()
    model.objects.bulk_update(rows, ["ref"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("horse_race", "0001_initial"),
    ]

    operations = [
        migrations.AddField(model_name="tradeoffer", name="ref", field=models.CharField(max_length=12, null=True)),
        migrations.RunPython(fill_refs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tradeoffer",
            name="ref",
            field=models.CharField(
                default=games.platform.models.new_ref, editable=False, max_length=12, unique=True
            ),
        ),
    ]
