"""The Hosts group: its members may make seasons in the admin (games/platform/services/host_role.py says what
the role is; HOSTING_PERMISSIONS there is this list, which a migration keeps as it was). The staff who host a
season or a game already are put in it: they keep hosting, and may now make seasons too."""

from django.conf import settings
from django.db import migrations
from django.db.models import Q

HOSTS = "Hosts"
PERMISSIONS = (
    ("platform", "add_season"),
    ("platform", "change_season"),
    ("platform", "view_season"),
    ("platform", "add_game"),
    ("platform", "change_game"),
    ("platform", "view_game"),
    ("platform", "add_invitation"),
    ("platform", "change_invitation"),
    ("platform", "view_invitation"),
)


def make_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # On a new database the permissions are made after the last migration (post_migrate): make them now.
    config = apps.get_app_config("platform")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=HOSTS)
    group.permissions.set(
        [Permission.objects.get(content_type__app_label=app, codename=code) for app, code in PERMISSIONS]
    )
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    hosting = Q(hosted_seasons__isnull=False) | Q(hosted_games__isnull=False)
    group.user_set.add(*User.objects.filter(hosting, is_staff=True).distinct())


def drop_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=HOSTS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0017_every_address_in_allauths_table"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(make_group, drop_group)]
