from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0022_discord"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationpreference",
            name="email_digest",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="round",
            name="last_call_sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
