"""A season's hosts as its form saves them: whoever adds or edits a season stays one of its hosts (a
superuser only if they chose to), and each co-host added is made a host of the site (staff, in Hosts:
services/host_role.py), audit-logged and named in the answer."""

from __future__ import annotations

from django.contrib import messages

from ..models import Season
from ..people import label
from ..services.host_role import season_hosts_changed


def hosts_saved(request, season: Season, before: set[int]) -> None:
    """After the form's hosts were saved over `before` (the hosts' ids as the form opened)."""
    user = request.user
    if not user.is_superuser and not season.hosts.filter(pk=user.pk).exists():
        # The form's hosts replace the season's: its maker or editor is put back, as on a game's form.
        season.hosts.add(user)
    for cohost in season_hosts_changed(season=season, before=before, actor=user):
        if cohost.pk != user.pk:
            messages.success(
                request, f"{label(cohost)} is now a host of {season.name}: they run it from /admin/ too."
            )
