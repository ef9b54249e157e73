"""Template words for seasons: `{{ user|hosts_season:season }}`, whether a game's console may show the
season console's buttons for its next step (they post to the season's routes, which only its hosts reach)."""

from __future__ import annotations

from django import template

from ..services.season import is_season_host

register = template.Library()


@register.filter
def hosts_season(user, season) -> bool:
    return season is not None and is_season_host(season, user)
