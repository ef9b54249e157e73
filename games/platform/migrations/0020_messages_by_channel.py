"""Each kind of message by the ways a player chose (issue 30): the five email switches become the email
column of `choices`; a kind switched off stays off by every way, as "I turned reminders off" meant."""

from django.db import migrations, models

KINDS = ("round_opened", "reminder", "results", "your_turn", "chat_message")
CHANNELS = ("discord", "push", "email")


def to_choices(apps, schema_editor):
    Preference = apps.get_model("platform", "NotificationPreference")
    for prefs in Preference.objects.all():
        choices = {}
        for kind in KINDS:
            on = getattr(prefs, f"old_{kind}")
            choices[kind] = {"email": True} if on else dict.fromkeys(CHANNELS, False)
        prefs.choices = choices
        prefs.save(update_fields=["choices"])


def to_switches(apps, schema_editor):
    Preference = apps.get_model("platform", "NotificationPreference")
    for prefs in Preference.objects.all():
        for kind in KINDS:
            default = kind not in ("your_turn", "chat_message")
            setattr(prefs, f"old_{kind}", bool(prefs.choices.get(kind, {}).get("email", default)))
        prefs.save()


class Migration(migrations.Migration):
    dependencies = [("platform", "0019_excused_round")]

    operations = [
        *(
            migrations.RenameField("notificationpreference", kind, f"old_{kind}")
            for kind in KINDS
        ),
        migrations.AddField(
            model_name="notificationpreference",
            name="choices",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(to_choices, to_switches),
        *(migrations.RemoveField("notificationpreference", f"old_{kind}") for kind in KINDS),
    ]
