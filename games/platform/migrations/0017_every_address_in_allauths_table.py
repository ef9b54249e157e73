"""Every account made before (by the admin, the demo, createsuperuser) gets its address into allauth's
EmailAddress table, so allauth finds it taken and mails its resets to it (games/platform/addresses.py)."""

import logging

from django.conf import settings
from django.db import migrations


def file_addresses(apps, schema_editor):
    from games.platform.addresses import file_addresses as file_them

    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    shared = file_them(apps.get_model(app_label, model_name), apps.get_model("account", "EmailAddress"))
    if shared:
        logging.getLogger("games.platform").warning(
            "Accounts %s have the address of an older account: theirs stays off allauth's table.", shared
        )


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0016_outbox_and_deliveries"),
        ("account", "0009_emailaddress_unique_primary_email"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(file_addresses, migrations.RunPython.noop)]
