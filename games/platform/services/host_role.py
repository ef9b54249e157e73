"""Hosts are a role the site knows: the "Hosts" group, whose members may make seasons in the admin.

What a host sees and runs is still decided row by row, by each season's and game's `hosts` (scoping.py): the
group gives only what no row can, the right to add a season, and the model permissions of what hosts add and
change there (seasons, games, invitations), each admin of which shows a host only their own. It holds no
permission on a model whose admin is not scoped to the host's seasons (a season's players, webhooks): such a
permission would show every season's rows.

A host is staff (the admin lets in only staff) and in Hosts: `make_host` makes one of any user, the first-run
page the site's first, and a season's host makes a co-host by adding them to the season's hosts.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from ..models import Season
from .audit import audit

HOSTS = "Hosts"

# (app label, codename): the same list as the migration that made the group (0018_hosts_group), which keeps
# its own copy as migrations do.
HOSTING_PERMISSIONS = (
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


def hosts_group() -> Group:
    """The Hosts group with exactly its permissions (made by the migration; made again if a flush took it)."""
    group, created = Group.objects.get_or_create(name=HOSTS)
    if created:
        perms = [
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in HOSTING_PERMISSIONS
        ]
        group.permissions.set(perms)
    return group


def is_hosts_member(user) -> bool:
    return user.groups.filter(name=HOSTS).exists()


@transaction.atomic
def make_host(user, *, actor=None, season: Season | None = None) -> list[str]:
    """Make `user` a host: staff, so the admin lets them in, and in Hosts. Returns what changed, in words
    ("made staff", "put in Hosts"): nothing when they were one already."""
    changed = []
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        changed.append("made staff")
    group = hosts_group()
    if not user.groups.filter(pk=group.pk).exists():
        user.groups.add(group)
        changed.append(f"put in {HOSTS}")
    if changed:
        audit(action="host_made", actor=actor, season=season, user=user.username, changed=changed)
    return changed


def season_hosts_changed(*, season: Season, before: set[int], actor) -> list:
    """After a season's hosts were saved: each new co-host made a host (staff, in Hosts) and each change
    audit-logged. Returns the co-hosts added."""
    now = set(season.hosts.values_list("pk", flat=True))
    added = list(get_user_model().objects.filter(pk__in=now - before).order_by("username"))
    removed = list(get_user_model().objects.filter(pk__in=before - now).order_by("username"))
    for user in added:
        make_host(user, actor=actor, season=season)
        audit(action="season_host_add", actor=actor, season=season, user=user.username)
    for user in removed:
        audit(action="season_host_remove", actor=actor, season=season, user=user.username)
    return added


def site_is_empty() -> bool:
    """No account at all: the first-run page asks for the first host."""
    return not get_user_model().objects.exists()


class SiteHasUsers(Exception):
    """The first-run page was sent after someone else's made the first account."""


@transaction.atomic
def first_host_create(*, username: str, email: str, password: str):
    """The site's first account, a host. Only while there is no user at all: the Hosts group's row is written
    first, so a second first-run sent at the same moment waits for this one's commit and then finds a user
    (SiteHasUsers) instead of making a second host."""
    # The lock, first thing in the transaction: the row's lock on Postgres, the database's write lock on
    # SQLite (taken before any read, so SQLite waits for it rather than refusing a reader's upgrade).
    Group.objects.filter(name=HOSTS).update(name=HOSTS)
    group = hosts_group()
    User = get_user_model()
    if User.objects.exists():
        raise SiteHasUsers
    user = User.objects.create_user(username=username, email=email, password=password, is_staff=True)
    user.groups.add(group)
    audit(action="host_made", actor=None, user=user.username, changed=["first host", "made staff"])
    return user
