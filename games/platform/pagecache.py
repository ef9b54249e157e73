"""The rendered body of a game page, kept per game version and viewer, so a page view costs a few lookups.

A game page is read far more often than it changes. Its body (everything below the site's header) is a
function of what `observe` returns for the viewer, and that changes only when:
- the game's version moves (every event, action, resolution, pause, extension, seat, admin edit bumps it);
- a player saves a submission (their own seat's stamp moves) or their season ledger moves (their stamp in
  the season moves): both are private, so they must not bump the version every spectator polls.
The key holds all three, so a stale body is never served: a change writes a new key, and old keys expire.

Hosts' pages are never cached (they show every saved submission, which moves no version). What differs per
request stays out of the cached text: the CSRF token is written as a placeholder and filled on the way out,
countdowns carry their absolute deadline (the page's script counts from the server's clock in the
header, which is rendered afresh), and every time is a mark written in the viewer's zone as it is served
(`zones.fill_times`). A body that shows an open round's form is kept with the round's deadline
and never served after it: the deadline passes without moving the version, and past it the page says
"closed, results coming" until the resolution moves the version (issue 18.3).

Only a cache shared by every process (Redis) can hold the stamps, which the worker moves too: with the
per-process memory cache of a plain `make run`, the page cache is off unless GENIUS_PAGE_CACHE says
otherwise (the tests turn it on: they run in one process).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe

from genius.clock import site_now

from . import live_push
from .models import Game
from .registry import Viewer
from .zones import as_instant, fill_times

log = logging.getLogger(__name__)

CSRF_PLACEHOLDER = "\x00csrf-token\x00"
# A spectator who finds another rendering the body they want waits this long for it at most, looking every
# WAIT_STEP: a render takes tens of milliseconds; one that never comes (its process died) costs the wait once.
WAIT_SECONDS = 2.0
WAIT_STEP = 0.01


def enabled() -> bool:
    return settings.GENIUS_PAGE_CACHE


@dataclass
class Slot:
    """Where a body is kept, and the private stamps it must have been rendered under."""

    key: str
    stamps: tuple = ()


@dataclass
class Lookup:
    """What the cache knows of one viewer's page: where to keep it, the body if current, their role."""

    slot: Slot | None = None  # None: not to be cached (a host's page, or the cache is off)
    body: SafeString | None = None
    role: str | None = None  # None: not remembered for this version; ask the database
    along: dict = field(default_factory=dict)  # the keys the caller asked to read in the same round trip


def find(game, user, part: str, request, viewer: Viewer | None = None, along: tuple = ()) -> Lookup:
    """`part` of the game's page for `user` (None: not logged in), in one cache round trip, which also
    reads the keys `along` (what else the page asks the cache for: a logged-in user's only; `Lookup.along`).

    A logged-in user's role in the game is remembered per game version (seating and the hosts' list move
    the version), so a page served from the cache needs no query for it. A remembered role only finds a
    body: on a miss the caller asks the database and looks again with that `viewer`, and the slot it gets
    is the one of the role the body will be rendered for (a body kept under a remembered role that the
    database no longer gives would be served to everyone of that role). A player's body is stored with the
    stamps it was rendered under. A superuser hosts every game: nothing is remembered or kept for them, so
    a flag changed in the admin counts at once.
    """
    if not enabled() or (user is not None and user.is_superuser):
        return Lookup()
    base = _base_key(game, part)
    if user is None:
        slot = Slot(f"{base}:anonymous")
        kept = cache.get(slot.key)
        if kept is None or not _current(kept):
            return Lookup(slot, None, "spectator")
        return Lookup(slot, fill(kept[1], request), "spectator")
    role_key = f"role:{game.pk}:{game.version}:{user.pk}"
    stamp_keys = [f"stamp:seat:{game.pk}:{user.pk}", f"stamp:ledger:{game.season_id}:{user.pk}"]
    bodies = {"player": f"{base}:user{user.pk}", "spectator": f"{base}:spectator"}
    found = cache.get_many([role_key, *bodies.values(), *stamp_keys, *along])
    read_along = {key: found.get(key) for key in along}
    role = viewer.role if viewer is not None else found.get(role_key)
    if viewer is not None and found.get(role_key) != role:
        cache.set(role_key, role, timeout=settings.GENIUS_PAGE_CACHE_SECONDS)
    if role is None or role == "host":
        return Lookup(role=role, along=read_along)
    stamps: tuple = ()
    if role == "player":
        stamps = _stamps(stamp_keys, found)
    slot = Slot(bodies[role], stamps)
    kept = found.get(slot.key)
    if kept is None or kept[0] != stamps or not _current(kept):
        # Only the database's role picks where a new body goes.
        return Lookup(slot, None, role, read_along) if viewer is not None else Lookup(along=read_along)
    return Lookup(slot, fill(kept[1], request), role, read_along)


def _base_key(game, part: str) -> str:
    return f"page:{game.pk}:{game.version}:{part}"


def spectators_slot(game, part: str, logged_in: bool) -> Slot | None:
    """Where `part` of the game's page is kept for its spectators, logged in or visitors (as `find` says)."""
    if not enabled():
        return None
    return Slot(f"{_base_key(game, part)}:{'spectator' if logged_in else 'anonymous'}")


def kept_marked(slot: Slot | None) -> str | None:
    """The body kept in `slot` as it is kept (times as marks, the CSRF placeholder in), if still true."""
    if slot is None:
        return None
    kept = cache.get(slot.key)
    return kept[1] if kept is not None and _current(kept) else None


def _player_keys(game_id: int, season_id: int, user_id: int) -> list[str]:
    return [f"stamp:seat:{game_id}:{user_id}", f"stamp:ledger:{season_id}:{user_id}"]


def _hosts_key(game_id: int) -> str:
    return f"stamp:hosts:{game_id}"


def _stamps(keys: list[str], found: dict | None = None) -> tuple:
    """The stamps' values (`found`: what a lookup already read of them)."""
    found = dict(cache.get_many(keys) if found is None else found)
    for stamp in keys:
        if found.get(stamp) is None:
            # A stamp nobody has set (or one the cache dropped) starts from a fresh random value, never
            # from a value an older body may have been stored under.
            cache.add(stamp, secrets.token_hex(8), timeout=None)
            found[stamp] = cache.get(stamp)
    return tuple(found[stamp] for stamp in keys)


def _digest(stamps: tuple) -> str | None:
    if any(stamp is None for stamp in stamps):  # the cache did not answer: no token, every poll renders
        return None
    return hashlib.blake2s(repr(stamps).encode(), digest_size=8).hexdigest()


def poll_token(game, viewer: Viewer, look: Lookup | None = None) -> str:
    """What the live partial's `v` carries besides the public version, so a poll sees private news.

    The public version moves only with what spectators see (issue 17.7). A player's inbox, offers and
    balances move their own stamps, every inbox the hosts' stamp: "p" and the digest of the player's
    stamps, "h" and the digest of the hosts' stamp. Spectators carry nothing (their body is shared). With
    the cache off, private news moves the public version and nothing is carried.
    """
    if not enabled() or viewer.role == "spectator":
        return ""
    if viewer.role == "player":
        if look is not None and look.slot is not None and look.slot.stamps:
            stamps = look.slot.stamps  # the very stamps the body is kept under
        else:
            stamps = _stamps(_player_keys(game.pk, game.season_id, viewer.user.pk))
        digest = _digest(stamps)
        return f"p{digest}" if digest else ""
    digest = _digest(_stamps([_hosts_key(game.pk)]))
    return f"h{digest}" if digest else ""


def poll_current(game_id: int, season_id: int, token: str, user_id) -> bool:
    """Whether a live partial's token still names the stamps it was rendered under (then: "nothing new").

    `user_id` is the session's: a player's token is checked against their own stamps, so another's token
    tells nothing, and a host's against the game's hosts' stamp, which only a host's page has shown.
    """
    if not enabled() or not token:
        return False
    if token[0] == "h":
        keys = [_hosts_key(game_id)]
    elif token[0] == "p" and user_id:
        keys = _player_keys(game_id, season_id, user_id)
    else:
        return False
    found = cache.get_many(keys)
    if len(found) != len(keys):
        return False
    digest = _digest(tuple(found[key] for key in keys))
    return digest is not None and hmac.compare_digest(digest, token[1:])


def keep(slot: Slot | None, body: str, until: datetime | str | None = None) -> None:
    """Keep a rendered body. One that is true only `until` a deadline (an open round's form and countdown)
    is kept with it, and served only before it: a deadline passes without moving the game's version, and a
    body rendered before it must not be served after it (the key stays the same until a resolution)."""
    if slot is None:
        return
    timeout = settings.GENIUS_PAGE_CACHE_SECONDS
    ends = None
    if until is not None:
        ends = as_instant(until).timestamp()
        left = ends - site_now().timestamp()
        if left <= 0:
            return
        timeout = max(1, min(timeout, math.ceil(left)))  # Redis drops it then too: no dead body kept
    cache.set(slot.key, (slot.stamps, body, ends), timeout=timeout)


def render_once(look: Lookup, request, render: Callable[[], SafeString]) -> SafeString:
    """A spectators' body not kept yet, rendered by one request while the others asking for it wait.

    With server push, every spectator's page fetches the new version at the same moment (docs/live.md): each
    would find no body and render its own, N renders of one version. The first to find none claims the
    render (an ADD in the shared cache); the others wait for the body it keeps. A player's body is theirs
    alone, and renders at once. Should the claim's owner fail, or the cache not answer (no claim is then
    seen), a waiter renders itself: never later than without the claim, but for a dead owner's wait.
    """
    if look.slot is None or look.role != "spectator":
        return render()
    return _claimed(look.slot, render, lambda kept: fill(kept, request))


def render_once_marked(look: Lookup, render: Callable[[], str]) -> str:
    """As `render_once`, for a live stream: the body as it is kept (times as marks, the CSRF placeholder
    in), which `render` also returns. Web processes whose streams all want it render it once."""
    if look.slot is None:
        return render()
    return _claimed(look.slot, render, lambda kept: kept)


def _claimed(slot: Slot, render: Callable[[], str], served: Callable[[str], str]) -> str:
    claim = f"{slot.key}:rendering"
    if cache.add(claim, 1, timeout=math.ceil(WAIT_SECONDS)):
        try:
            return render()
        finally:
            cache.delete(claim)
    until = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < until:
        kept, rendering = _kept_and_claim(slot.key, claim)
        if kept is not None and _current(kept):
            return served(kept[1])
        if not rendering:  # done without keeping it (it failed, or its deadline had passed), or no cache
            break
        time.sleep(WAIT_STEP)
    return render()


def _kept_and_claim(key: str, claim: str) -> tuple:
    found = cache.get_many([key, claim])
    return found.get(key), claim in found


def _current(kept) -> bool:
    """A kept body that is still true: its deadline (if any) has not passed."""
    ends = kept[2] if len(kept) > 2 else None
    return ends is None or site_now().timestamp() < ends


def fill(body: str, request) -> SafeString:
    """The cached text (our own rendered template) with this request's CSRF token in its place, and its
    times in the viewer's zone (rendered in `zones.LATER`)."""
    if CSRF_PLACEHOLDER in body:
        body = body.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(fill_times(body))  # noqa: S308 - rendered by our templates, escaped there


def _renew(keys: list[str]) -> bool:
    """New values for the stamps; False when the cache did not take them (Redis away)."""
    if len(keys) == 1:  # a save's one stamp: a plain SET (a pipeline costs more to build than to send)
        return cache.set(keys[0], secrets.token_hex(8), timeout=None) is not False
    return not cache.set_many({key: secrets.token_hex(8) for key in keys}, timeout=None)


def _renew_safely(keys: list[str]) -> None:
    """Renew the stamps, and never raise: it runs after a commit, and a stored write must not be answered
    as a failure (issue 18.1). A stamp the cache dropped (Redis away) is no stale page later: the cache
    moves its generation when Redis answers again (genius/cache.py), and no body from before is read."""
    try:
        if not _renew(keys):
            log.warning("The cache dropped page stamps %s; its next generation forgets the old ones", keys)
    except Exception:
        log.exception("Renewing page stamps %s failed", keys)


def _renew_after_commit(keys: list[str]) -> None:
    # After the commit is what makes it right: a page read before the commit may still see the old data
    # and store it under the old stamp, which nobody asks for once it is renewed. Now as well only when this
    # transaction sits inside another (a caller's, or a test's, which never commits): reads in the outer
    # one already see the change. A save on its own, the hot path, writes once.
    if enabled():
        if len(transaction.get_connection().atomic_blocks) > 1:
            _renew_safely(keys)
        transaction.on_commit(lambda: _renew_safely(keys))


def private_changed(game_id: int, user_ids) -> None:
    """Something only `user_ids` (players) and the hosts may see moved (an inbox reveal, a trade offer):
    their pages and live partials are out of date, nobody else's. The public version stays, so spectators
    cannot count private events by it (issue 17.7). With the page cache off the polls have only the
    version: it moves."""
    user_ids = sorted(set(user_ids))
    if not enabled():  # no shared cache: versions.py keeps no number to raise either
        Game.objects.filter(pk=game_id).update(version=F("version") + 1)
    else:
        _renew_after_commit([*[f"stamp:seat:{game_id}:{uid}" for uid in user_ids], _hosts_key(game_id)])
    # Their pages fetch their part: told after the commit, and after the stamps above are renewed (on_commit
    # runs in order), or a fetch could still find the old stamps and answer "nothing new".
    live_push.mine(game_id, user_ids, hosts=True)


def own_changed(game_id: int, user_ids) -> None:
    """Something on only these players' own pages moved that the hosts' pages do not show (a pair chat's
    unread count): their stamps, nobody else's. With the page cache off nothing moves, not even the
    version: a spectator must not be able to count chat messages by it (each page renders afresh anyway)."""
    _renew_after_commit([f"stamp:seat:{game_id}:{uid}" for uid in sorted(set(user_ids))])
    live_push.mine(game_id, user_ids)  # after the renewal, as private_changed says


def seat_changed(seat) -> None:
    """A player's own saved submission moved: their cached pages are out of date."""
    _renew_after_commit([f"stamp:seat:{seat.game_id}:{seat.user_id}"])
    live_push.mine(seat.game_id, [seat.user_id])


def ledger_changed(season_id: int, user_ids) -> None:
    """Balances moved: the owners' cached pages in that season are out of date."""
    _renew_after_commit([f"stamp:ledger:{season_id}:{uid}" for uid in set(user_ids)])
    live_push.mine(None, user_ids, season_id=season_id)
