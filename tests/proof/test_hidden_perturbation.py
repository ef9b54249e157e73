"""No hidden field leaks, whatever its type: change what a viewer may not see, and nothing they get changes.

Strings can be planted as canaries (test_no_leaks); a board card, a movement value or a hand cannot. So each
game type says how to change everything of a running game that a seat may not see (`hidden_perturb`), and
this test requests every URL of the site that concerns the game as that seat, before and after, at one
frozen instant, and requires the same answers. The same for the spectators' side (an anonymous visitor, a
logged-in outsider, the host of another game) with everything hidden from spectators changed. The control:
the host's observation must change, so "no difference" means "not shown", not "nothing was changed".

The event stream (GET /events/) too: the perturbation is announced as a private change is
(`pagecache.private_changed`), and the viewer's stream must hear nothing of it and, opened again with v=0,
say the same as before: no `mine`, `chat` or `counts` of someone else's secret, and no public version moved
by it (spectators would count private events). The host's stream hearing `mine` is its control.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from django.utils import timezone

from games.platform import pagecache, registry
from games.platform.models import Game, Season
from games.platform.observation import observe
from games.platform.registry import Viewer
from games.platform.services import games as game_services
from games.platform.services.events import bump_version
from tests.proof.test_no_leaks import (
    MISSING_ID,
    World,
    _stream_close,
    _stream_open,
    _stream_read,
    _stream_rest,
    all_urls,
    client_for,
    htmx_targets,
    poisoning_order,
)
from tests.sitting import all_here
from tests.toy_game import Tally, TallyDuel

pytestmark = pytest.mark.django_db
SEED = 20261123


# What differs between two answers of the same page by design: the CSRF token is masked afresh on every
# render, the CSP nonce is per response, and the game's version moves when anything changes (the
# perturbation bumps it so no cache can hide a difference).
VOLATILE = [
    (re.compile(r"\b[A-Za-z0-9]{64}\b"), "<token>"),  # a masked CSRF token, wherever it is written
    (re.compile(r'(nonce=")[^"]+'), r"\1"),
    (re.compile(r"([?&;]v=)\d+"), r"\1"),
    (re.compile(r'("version": ?)\d+'), r"\1"),
    (re.compile(r'(data-version=")\d+'), r"\1"),
    (re.compile(r'(name="(?:initial-)?seed" value=")-?\d+'), r"\1"),  # the add form draws a fresh seed
    # The health checks' readings of time: this process's skew from the database's clock (which the tests'
    # time travel moves) and how long ago the background last showed it runs.
    (
        re.compile(
            r'("(?:clock_skew_seconds|sweep_seconds_ago|oldest_overdue_seconds|overdue_seconds)": ?)'
            r"(?:[-\d.e]+|null)"
        ),
        r"\1",
    ),
]


def every_type():
    kinds = {k.slug: k for k in registry.all_types()}
    kinds.setdefault("tally", Tally())
    kinds.setdefault("tally_duel", TallyDuel())
    return sorted(kinds)


def seats_for(kind) -> int:
    return min(kind.max_players, max(kind.min_players, 3))


def running_game(kind, make_user):
    hank = make_user("hank", is_staff=True)
    olga = make_user("olga", is_staff=True)
    season = Season.objects.create(name="Season 1")
    season.hosts.add(hank)
    other_season = Season.objects.create(name="Season 2")
    other_season.hosts.add(olga)
    players = [make_user(f"p{i}") for i in range(seats_for(kind))]
    game = game_services.game_create(
        season=season,
        game_type=kind.slug,
        name=f"Perturbed {kind.name}",
        hosts=[hank],
        actor=hank,
        seed=SEED,  # the same deal every run: a failure here can be replayed
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    kind.demo_prepare(game)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    world = World(games=[game], seasons=[season, other_season])
    world.hosts[game.id] = {hank.id}
    world.seats[game.id] = dict(game.seats.values_list("user_id", "number"))
    spectators = {"anonymous": None, "outsider": make_user("charlie"), "host of another game": olga}
    return game, hank, players, spectators, world


def game_urls(world: World, game: Game) -> list[str]:
    """Every URL of the site that may show something of `game`: its own routes and the site-wide pages."""
    urls, problems = all_urls(world)
    assert not problems, "\n".join(problems)
    return [
        url
        for route, url, owners, kind in urls
        if (game.id in owners or not owners) and str(MISSING_ID) not in url and route.name != "<404>"
    ]


GAME_PAGE = re.compile(r"^/games/\d+/$")


def answers(user, urls: list[str]) -> dict[str, str]:
    client = client_for(user)
    targets = htmx_targets()
    # Opening a game page marks its results read ("Results are in your inbox" leaves awaiting you): open
    # them first, so the crawl reads one state whatever the order of its URLs.
    for url in urls:
        if GAME_PAGE.match(url):
            client.get(url)
    out = {}
    for url in urls:
        variants = [{}]
        if "/admin/" not in url and not url.startswith("/api/"):
            variants += [{"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": t} for t in targets]
        for headers in variants:
            response = client.get(url, **headers)
            body = f"{response.status_code} {response.get('Location', '')}\n"
            body += response.content.decode("utf-8", "replace")
            for pattern, keep in VOLATILE:
                body = pattern.sub(keep, body)
            out[f"{url} {headers.get('HTTP_HX_TARGET', '')}".strip()] = body
    return out


def first_difference(before: dict[str, str], after: dict[str, str]) -> list[str]:
    found = []
    for where, body in before.items():
        if after.get(where) != body:
            old, new = body.splitlines(), after.get(where, "").splitlines()
            lines = [f"  - {a!r}\n  + {b!r}" for a, b in zip(old, new, strict=False) if a != b][:3]
            found.append(f"{where}:\n" + ("\n".join(lines) or "  (length differs)"))
    return found


def host_view(game: Game, hank) -> dict:
    """What the host knows: the observation (less its version) and the hidden data."""
    game = Game.objects.select_related("season").get(pk=game.pk)
    seen = observe(game, Viewer(role="host", user=hank))
    seen.pop("version")
    return {"observation": seen, "hidden": registry.get(game.game_type).hidden_data(game)}


async def _stream_until(response, news: str, seconds: float = 15) -> str:
    """What the stream sends up to the first chunk holding `news`, or within `seconds` (on a loaded machine
    far more than the push table's poll needs)."""
    out, until = [], time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0 and not (out and news in out[-1]):
        try:
            out.append((await asyncio.wait_for(anext(response.streaming_content), left)).decode())
        except (TimeoutError, StopAsyncIteration):
            break
    return "".join(out)


@async_to_sync
async def stream_around(game: Game, user, hank, perturb) -> tuple[object, dict[str, str]]:
    """`perturb()` while `user`'s stream of the game and its host's are open: what it returned, and what
    the user's stream said on connect (v=0) before it, heard during it and says on a new connect after it,
    and what the host's stream heard."""
    url = f"/events/?game={game.pk}&v=0"
    seen = await _stream_open(user, url)
    host = await _stream_open(hank, url)
    assert seen.status_code == host.status_code == 200, (seen.status_code, host.status_code)
    said = {"connect": await _stream_read(seen, 2)}  # retry:, then the version (v=0 is behind)
    await _stream_read(host, 2)
    changed = await sync_to_async(perturb)()
    # Every message of one commit is relayed in the order sent: users' `mine` before the hosts', the
    # version and `counts` before both. Once the host heard `mine`, anything sent to this viewer is queued.
    said["host heard"] = await _stream_until(host, "event: mine")
    said["heard"] = await _stream_rest(seen, 0.3)
    for response in (seen, host):
        await _stream_close(response)
    again = await _stream_open(user, url)
    said["connect again"] = await _stream_read(again, 2)
    await _stream_close(again)
    return changed, said


@pytest.mark.parametrize("slug", every_type())
def test_changing_what_a_viewer_may_not_see_changes_nothing_they_get(
    slug, make_user, settings, django_capture_on_commit_callbacks
):
    # The streams on the push table, whatever this run has (no Redis in `make test`): only the carrier
    # differs (live_push.py). Polled often, so a message is heard at once; pings only every few minutes.
    settings.GENIUS_PUSH_BACKEND = "database"
    settings.GENIUS_PUSH_POLL_SECONDS = 0.05
    settings.GENIUS_STREAM_PING_SECONDS = 300
    kind = registry.get(slug)
    game, hank, players, spectators, world = running_game(kind, make_user)
    urls = game_urls(world, game)
    assert len(urls) > 10
    looks = [(label, user, None) for label, user in spectators.items()]
    looks += [(user.username, user, world.seats[game.id][user.id]) for user in players]
    # Made before the first answers (a new user shows in the admin's lists); each is rolled back to a plain
    # user after its look.
    mallory = {label: make_user(f"mallory-{n}") for n, (label, _, _) in enumerate(looks)}
    differences, controls = [], []
    with time_machine.travel(timezone.now(), tick=False):
        for label, user, seat_number in looks:
            before = answers(user, urls)
            host_before = host_view(game, hank)
            with transaction.atomic():
                game.refresh_from_db()
                rng = random.Random(f"{slug}-{label}")
                # The seats whose secrets it changes: every seat's for spectators, the others' for a player.
                owners = [uid for uid, number in world.seats[game.id].items() if number != seat_number]

                def perturb(rng=rng, seat_number=seat_number, owners=owners):
                    with django_capture_on_commit_callbacks(execute=True):  # as if committed: announced
                        changed = kind.hidden_perturb(game, seat_number, rng)
                        pagecache.private_changed(game.pk, owners)
                    return changed

                changed, said = stream_around(game, user, hank, perturb)
                bump_version(game)
                # The page cache's slots are cold now: a user made superuser fills them first (17.1).
                poisoning_order([game], mallory[label])
                after = answers(user, urls)
                host_changed = host_view(game, hank) != host_before
                transaction.set_rollback(True)
            if changed and not host_changed:
                controls.append(f"{label}: the perturbation ({changed}) left the host's view as it was")
            differences += [f"{label} sees a change in {d}" for d in first_difference(before, after)]
            if "event: mine" not in said["host heard"]:
                controls.append(f"{label}: the host's stream did not hear the perturbation: {said}")
            if said["heard"] or said["connect again"] != said["connect"]:
                differences.append(
                    f"{label}'s stream of /events/ moves: heard {said['heard']!r}; connects with "
                    f"{said['connect']!r} before, {said['connect again']!r} after"
                )
    assert not controls, "\n".join(controls)
    assert not differences, "Hidden information shows:\n" + "\n".join(differences)
