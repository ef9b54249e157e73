"""Who is watching a game's page right now: a player with the page open and visible (issue 30.2).

The game page tells the site cheaply: every poll of its live part says whether the tab is visible
(`seen=1`), and the page sends a beacon the moment it is hidden or shown again (views.game_presence). A
visible page is remembered in the cache for GENIUS_PRESENCE_SECONDS (40 s: many polls, so one lost poll does
not end it); a hidden one is forgotten at once. Nothing goes to the database: a live match polls every
second, and presence is worth a glance, not a write.

Where the cache is shared (Redis: production, compose) every web process and worker reads the same
presence. With Django's local-memory cache (no REDIS_URL: `make run`, the tests) each process has its own:
a worker in another process finds nobody watching and sends the "your turn" it would send anyway, the
behaviour before presence. A Redis that does not answer is an empty cache (genius/cache.py): nobody is
watching, so nothing is held back by an outage.

A hidden tab's poll does not forget the page: another tab of the same game may be visible, and would be
forgotten at every poll of the hidden one. The hidden tab's beacon forgets it, and without one it runs out
with its time to live.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from genius.clock import site_now


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{int(game_id)}:{int(user_id)}"


def seen(user_id: int, game_id: int, visible: bool) -> None:
    """The user's page of the game reported in: visible (remembered a while) or hidden (forgotten now)."""
    if visible:
        # The time it was seen, on the site's clock: the cache's own expiry only clears the key away.
        cache.set(_key(user_id, game_id), site_now().timestamp(), settings.GENIUS_PRESENCE_SECONDS)
    else:
        cache.delete(_key(user_id, game_id))


def watching(user_id: int, game_id: int) -> bool:
    """The user has the game's page open and visible (seen within GENIUS_PRESENCE_SECONDS)."""
    at = cache.get(_key(user_id, game_id))
    return at is not None and site_now().timestamp() - at <= settings.GENIUS_PRESENCE_SECONDS
