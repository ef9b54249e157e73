"""No hidden information leaks on any URL: canaries in every hidden place, every route requested as everyone.

The world: season 1 hosted by hank, with a running Tally game (three players) carrying canaries in its
hidden state, hidden data, submissions, inbox, pair chats and ledger, plus one running game of every
registered type (started through `demo_prepare`) with canaries in its inbox, chats and ledger, and, where the
type has them, in each seat's private values and the hosts' notes (set through `hidden_data_set`) and in each
seat's text answers to a form it publishes (`round_form_schema`): a host-run game's (a game's own hidden
fields, its cards and boards, have no generic place to plant a canary: the game types would need a hook for
it). Season 2 has
another host running another Tally game with canaries of its own. Then every URL pattern of the resolver is
filled from these objects and requested with GET by an anonymous spectator, a logged-in outsider, each
player, the host of the other game and (as the control that the canaries can be found at all) the host.
The event stream (GET /events/?game=G) is opened under ASGI by each of them for each game, and read on
connect and after a move that plants new canaries in private places.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.apps import apps
from django.contrib.admin import site as admin_site
from django.contrib.contenttypes.models import ContentType
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import AsyncClient, Client

from games.platform import pagecache, registry
from games.platform.admin.console import ACTIONS as CONSOLE_ACTIONS
from games.platform.kit import Reveal
from games.platform.models import Game, Invitation, PushSubscription, Season
from games.platform.services import games as game_services
from games.platform.services.chat import chat_post
from games.platform.services.events import bump_version, events_write
from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import submission_save
from tests.live_support import redis_for_push, stream_events
from tests.proof.crawl import Route, resolves_to, routes

pytestmark = pytest.mark.django_db

MISSING_ID = 987654


@dataclass
class Canary:
    """A secret string and who may read it while the game runs: hosts of `game`, and `seats` of it."""

    text: str
    game: Game
    seats: tuple[int, ...] = ()
    shown_to_hosts: bool = True  # False for what nobody reads before the end (the commitment's salt)


@dataclass
class World:
    games: list[Game] = field(default_factory=list)
    seasons: list[Season] = field(default_factory=list)
    canaries: list[Canary] = field(default_factory=list)
    viewers: dict = field(default_factory=dict)  # label -> user or None
    not_started: dict = field(default_factory=dict)  # game type slug -> why it did not start
    hosts: dict = field(default_factory=dict)  # game id -> set of host user ids
    seats: dict = field(default_factory=dict)  # game id -> {user id: seat number}


def players_for(kind) -> int:
    return min(kind.max_players, max(kind.min_players, 3))


def plant(world: World, game: Game, tag: str) -> None:
    """The canaries every game type can carry: inbox reveals, pair chats, ledger reasons, seed and salt."""
    seats = list(game.seats.select_related("user").order_by("number"))
    events_write(game=game, events=[Reveal(s.number, f"CANARY-INBOX-{tag}-{s.number}") for s in seats])
    for seat in seats:
        world.canaries.append(Canary(f"CANARY-INBOX-{tag}-{seat.number}", game, (seat.number,)))
        ledger_post(
            season=game.season,
            user=seat.user,
            what="points",
            delta=1,
            reason=f"CANARY-LEDGER-{tag}-{seat.number}",
            game=game,
        )
        # A ledger row is its owner's: the hosts of the season read it in the admin, nobody else.
        world.canaries.append(Canary(f"CANARY-LEDGER-{tag}-{seat.number}", game, (seat.number,)))
    if game.status == Game.Status.RUNNING:
        for a, b in combinations(seats, 2):
            text = f"CANARY-CHAT-{tag}-{a.number}-{b.number}"
            chat_post(game=game, author_seat=a, other_seat=b, text=text)
            world.canaries.append(Canary(text, game, (a.number, b.number)))
    game.refresh_from_db()
    # The seed draws every hidden card; the salt guards the commitment: both stay secret until the end.
    world.canaries.append(Canary(str(game.seed), game))
    if game.commitment_salt:
        world.canaries.append(Canary(game.commitment_salt, game, shown_to_hosts=False))


def plant_private(game: Game, kind, tag: str) -> list[Canary]:
    """Before the start: a type whose hidden data holds per-seat private values (`private`: {seat: {column:
    value}}, a host-run game's) and the hosts' `notes` gets canaries there, set the API's way
    (`hidden_data_set`): each seat's values are its own, the notes the hosts'."""
    data = kind.hidden_data(game)
    private, found = data.get("private"), []
    if not isinstance(private, dict) or not all(isinstance(v, dict) and v for v in private.values()):
        return []
    planted = {
        seat: {column: f"CANARY-PRIVATE-{tag}-{seat}-{i}" for i, column in enumerate(values)}
        for seat, values in private.items()
    }
    update = {"private": planted}
    found += [Canary(v, game, (int(seat),)) for seat, values in planted.items() for v in values.values()]
    if isinstance(data.get("notes"), str):
        update["notes"] = f"CANARY-NOTES-{tag}"
        found.append(Canary(update["notes"], game))
    kind.hidden_data_set(game, update)
    return found


def canary_payload(schema: dict, text: str) -> dict | None:
    """A valid payload of a round form's JSON Schema (GameType.round_form_schema) whose every text answer is
    `text`; None when the form takes no text."""
    payload, texts = {}, 0
    for key, spec in schema.get("properties", {}).items():
        types = spec.get("type") if isinstance(spec.get("type"), list) else [spec.get("type")]
        enum = [v for v in spec.get("enum", []) if v is not None]
        if "string" in types and not enum:
            payload[key], texts = text[: spec.get("maxLength", len(text))], texts + 1
        elif enum:
            payload[key] = enum[0]
        elif "integer" in types:
            payload[key] = spec.get("minimum", 0)
        elif "boolean" in types:
            payload[key] = True
        elif "array" in types:
            payload[key] = spec["items"].get("enum", [])[: spec.get("minItems", 1)]
    return payload if texts else None


def plant_submissions(game: Game, kind, tag: str) -> list[Canary]:
    """Each seat's submission to the open round, where the type publishes its form (a host-run game's), with
    a canary in every text answer: the seat's own and the hosts' until the end."""
    rnd = game.rounds.filter(status="open").order_by("-number").first()
    schema = kind.round_form_schema(game, rnd) if rnd is not None else None
    found = []
    for seat in game.seats.all() if schema else []:
        text = f"CANARY-SUB-{tag}-{seat.number}"
        payload = canary_payload(schema, text)
        if payload is None:
            break
        submission_save(seat=seat, round_number=rnd.number, payload=payload)
        found.append(Canary(text, game, (seat.number,)))
    return found


def tally_game(world, season, host, players, tag, public=True) -> Game:
    game = game_services.game_create(
        season=season,
        game_type="tally",
        name=f"Tally {tag}",
        hosts=[host],
        public=public,
        settings={"secret_word": f"CANARY-HIDDEN-WORD-{tag}"},
        actor=host,
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=host)
    game_services.game_start(game=game, actor=host)
    game.refresh_from_db()
    game.state = {**game.state, "secret": f"CANARY-TALLY-SECRET-{tag}"}
    game.save(update_fields=["state"])
    world.canaries.append(Canary(f"CANARY-TALLY-SECRET-{tag}", game))
    world.canaries.append(Canary(f"CANARY-HIDDEN-WORD-{tag}", game))
    for seat in game.seats.all():
        submission_save(
            seat=seat, round_number=0, payload={"number": 1, "secret_note": f"CANARY-SUB-{tag}-{seat.number}"}
        )
        world.canaries.append(Canary(f"CANARY-SUB-{tag}-{seat.number}", game, (seat.number,)))
    plant(world, game, tag)
    return game


def build_world(make_user) -> World:
    world = World()
    hank = make_user("hank", is_staff=True)
    other_host = make_user("olga", is_staff=True)
    players = [make_user(f"p{i}") for i in range(3)]
    outsider = make_user("charlie")
    season = Season.objects.create(name="Season 1")
    season.hosts.add(hank)
    season2 = Season.objects.create(name="Season 2")
    season2.hosts.add(other_host)
    world.seasons = [season, season2]
    Invitation.objects.create(season=season, note="crawl", created_by=hank)
    world.games.append(tally_game(world, season, hank, players, "T"))
    world.games.append(tally_game(world, season2, other_host, players[:2], "O", public=False))
    extra: list = []
    for kind in registry.all_types():
        if kind.slug == "tally":
            continue
        need = players_for(kind)
        while len(players) + len(extra) < need:
            extra.append(make_user(f"x{len(extra)}"))
        try:
            game = game_services.game_create(
                season=season, game_type=kind.slug, name=f"Crawl {kind.name}", hosts=[hank], actor=hank
            )
            for user in (players + extra)[:need]:
                game_services.game_seat(game=game, user=user, actor=hank)
            kind.demo_prepare(game)
            private_canaries = plant_private(game, kind, kind.slug.upper())
            game_services.game_start(game=game, actor=hank)
            game.refresh_from_db()
            world.canaries += private_canaries + plant_submissions(game, kind, kind.slug.upper())
        except Exception as exc:  # a type that cannot start is reported by its own test, not skipped
            world.not_started[kind.slug] = f"{type(exc).__name__}: {exc}"
            continue
        world.games.append(game)
        plant(world, game, kind.slug.upper())
    for game in world.games:
        world.hosts[game.id] = set(game.hosts.values_list("id", flat=True))
        world.seats[game.id] = dict(game.seats.values_list("user_id", "number"))
    world.viewers = {"anonymous": None, "outsider": outsider, "other host": other_host, "host": hank}
    for user in players + extra:
        world.viewers[user.username] = user
    return world


def may_read(world: World, user, canary: Canary) -> bool:
    if user is None:
        return False
    if user.id in world.hosts[canary.game.id]:
        return True
    return world.seats[canary.game.id].get(user.id, -1) in canary.seats


def admin_model(route: Route):
    literal = "".join(t for t in route.tokens if isinstance(t, str)).split("/")
    parts = [p for p in literal if p]
    for i in range(len(parts) - 1):
        try:
            return apps.get_model(parts[i], parts[i + 1])
        except (LookupError, ValueError):
            continue
    return None


def owner_game_ids(obj) -> set[int]:
    """The games an object belongs to, following the usual foreign keys."""
    if isinstance(obj, Game):
        return {obj.id}
    if isinstance(obj, Season):
        return set(obj.games.values_list("id", flat=True))
    for path in ("game", "round", "seat", "account", "season", "main_match"):
        related = getattr(obj, path, None)
        if related is not None and related is not obj:
            found = owner_game_ids(related)
            if found:
                return found
    return set()


def fill(route: Route, world: World) -> list[tuple[str, set[int], str]]:
    """Concrete URLs for a route: (url, ids of the games its objects belong to, what kind of object)."""
    params = set(route.params)
    if "id" in params and route.name.startswith("admin:"):
        # The admin's user password page names its object "id".
        params = params - {"id"} | {"object_id"}
        route = Route(
            route.name, [("param", "object_id") if t == ("param", "id") else t for t in route.tokens]
        )
    unknown = params - {"game_id", "a", "b", "name", "season_id", "object_id", "app_label", "content_type_id"}
    # action: a button of the host console (admin/.../game/<id>/host/<action>/); token: an invitation's link;
    # key, uidb36: allauth's emailed links; slug: a game type's rules page.
    unknown -= {"url", "action", "token", "key", "uidb36", "slug"}
    unknown -= {"device_id"}  # a player's push device (tests/platform/test_web_push.py: the owner's alone)
    if unknown:
        raise LookupError(f"{route.name}: no filler for path parameters {sorted(unknown)}")
    out = []
    if "game_id" in params:
        for game in [*world.games, None]:
            gid = game.id if game else MISSING_ID
            owners = {gid} if game else set()
            pairs = [{}]
            if {"a", "b"} & params:
                numbers = sorted(world.seats[gid].values()) if game else [0, 1]
                pairs = [{"a": a, "b": b} for a, b in combinations(numbers, 2)]
            names = [{}]
            if "name" in params:
                ops = list(registry.get(game.game_type).operations()) if game else []
                names = [{"name": n} for n in [*ops, "no-such-operation"]]
            for pair in pairs:
                for name in names:
                    kind = "chat" if pair else "game"
                    out.append((route.build({"game_id": gid, **pair, **name}), owners, kind))
        return out
    if "season_id" in params:
        for season in [*world.seasons, None]:
            sid = season.id if season else MISSING_ID
            owners = set(season.games.values_list("id", flat=True)) if season else set()
            out.append((route.build({"season_id": sid}), owners, "season"))
        return out
    if "object_id" in params and "content_type_id" in params:
        game_type = ContentType.objects.get_for_model(Game)
        for game in world.games:
            url = route.build({"content_type_id": game_type.id, "object_id": game.id})
            out.append((url, {game.id}, "admin object"))
        return out
    if "object_id" in params:
        model = admin_model(route)
        if model is None:
            raise LookupError(f"{route.name}: cannot tell which model its object_id names")
        actions = [{"action": a} for a in CONSOLE_ACTIONS] if "action" in params else [{}]
        for obj in model._default_manager.all()[:300]:
            for extra in actions:
                out.append((route.build({"object_id": obj.pk, **extra}), owner_game_ids(obj), "admin object"))
        out.append((route.build({"object_id": MISSING_ID, **actions[0]}), set(), "admin object"))
        return out
    if "app_label" in params:
        labels = sorted({m._meta.app_label for m in admin_site._registry})
        return [(route.build({"app_label": label}), set(), "index") for label in labels]
    if "device_id" in params:
        ids = [*PushSubscription.objects.values_list("pk", flat=True), MISSING_ID]
        return [(route.build({"device_id": pk}), set(), "page") for pk in ids]
    if "url" in params:
        return [(route.build({"url": "no-such-page/"}), set(), "error")]
    if "token" in params:
        # An invitation's page names its season, nothing of its games; and an unknown token says so.
        tokens = [*Invitation.objects.values_list("token", flat=True), "no-such-invitation"]
        return [(route.build({"token": token}), set(), "page") for token in tokens]
    if "slug" in params:
        # The rules of every game type (public text, the same for everyone) and of one that does not exist.
        slugs = [*(kind.slug for kind in registry.all_types()), "no-such-game"]
        return [(route.build({"slug": slug}), set(), "page") for slug in slugs]
    if {"key", "uidb36"} & params:
        # allauth's emailed links (a reset, an email check) with keys nobody was sent.
        return [(route.build({"key": "no-such-key", "uidb36": "0"}), set(), "error")]
    return [(route.build({}), set(), "page")]


def htmx_targets() -> list[str]:
    """The partial targets the views answer (`request.htmx.target == "..."`), found in every app's code."""
    targets: set[str] = set()
    for config in apps.get_app_configs():
        if not config.name.startswith("games."):
            continue
        for path in Path(config.path).rglob("*.py"):
            targets |= set(re.findall(r"htmx\.target\s*==\s*[\"']([\w-]+)[\"']", path.read_text()))
    return sorted(targets)


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def poisoning_order(games, user) -> None:
    """Issue 17.1's order: `user` polls each game's live partial as an outsider (the page cache remembers
    the role), is made superuser (no version moves), and opens each page while its slots are cold. A cache
    that keeps a body under the remembered role instead of the rendered one now serves the host's page to
    every spectator: the crawl that follows must find nothing."""
    client = client_for(user)
    for game in games:
        client.get(f"/games/{game.id}/live/")
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])
    for game in games:
        for url in (f"/games/{game.id}/", f"/games/{game.id}/live/"):
            assert client.get(url).status_code == 200


def all_urls(world: World):
    found, problems = routes()
    urls = []
    for route in found:
        try:
            filled = fill(route, world)
        except LookupError as exc:
            problems.append(str(exc))
            continue
        for url, owners, kind in filled:
            if not resolves_to(url, route):
                problems.append(f"{route.name}: {url} does not resolve back to its own view")
                continue
            urls.append((route, url, owners, kind))
    urls.append((Route(name="<404>"), "/no-such-page-at-all/", set(), "error"))
    return urls, problems


def test_every_url_pattern_is_filled_by_the_crawler(make_user):
    world = build_world(make_user)
    urls, problems = all_urls(world)
    assert not problems, "URL patterns the crawler cannot fill (teach tests/proof/test_no_leaks.fill):\n" + (
        "\n".join(problems)
    )
    assert len(urls) > 50


def test_every_registered_type_starts_with_demo_data(make_user):
    world = build_world(make_user)
    assert not world.not_started, f"Game types that could not start for the crawl: {world.not_started}"
    # The host-run game's demo holds private values, notes and a form with a text answer: all carry canaries.
    texts = {c.text for c in world.canaries}
    for prefix in ("CANARY-PRIVATE-HOST_RUN-0-0", "CANARY-NOTES-HOST_RUN", "CANARY-SUB-HOST_RUN-2"):
        assert prefix in texts


def foreign(route: Route, url: str, owners: set[int], kind: str, world: World, user) -> bool:
    """Whether this URL names an object the viewer has no business opening (it must be 403 or 404)."""
    if not owners:
        return False
    hosts = set().union(*(world.hosts[g] for g in owners if g in world.hosts))
    if user is not None and user.id in hosts:
        return False
    if route.name.startswith("admin:"):
        # Another host's objects in the admin must not open (a 302 back to the index counts as not found).
        return kind == "admin object"
    if kind == "chat":
        match = re.search(r"/chats/(\d+)-(\d+)/", url)
        seat = world.seats[next(iter(owners))].get(getattr(user, "id", None))
        return seat is None or seat not in {int(match.group(1)), int(match.group(2))}
    if route.name in {"game-history", "game-export", "chat-list", "api-submission"}:
        # The history of a running game is the hosts'; chat lists and saved versions are the players'.
        if route.name in {"chat-list", "api-submission"}:
            return all(getattr(user, "id", None) not in world.seats[g] for g in owners)
        return True
    return False


def test_no_canary_on_any_url_for_anyone_but_its_owner(make_user):
    world = build_world(make_user)
    urls, problems = all_urls(world)
    assert not problems, "\n".join(problems)
    targets = htmx_targets()
    poisoning_order(world.games, make_user("mallory"))
    leaks, opened, errors = [], [], []
    seen_by_host: set[str] = set()
    for label, user in world.viewers.items():
        client = client_for(user)
        forbidden = [c for c in world.canaries if not may_read(world, user, c)]
        for route, url, owners, kind in urls:
            variants = [{}]
            if not route.name.startswith(("admin:", "api-")):
                variants += [{"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": t} for t in targets]
            for headers in variants:
                response = client.get(url, **headers)
                body = response.content.decode("utf-8", "replace") + response.get("Location", "")
                where = f"{label} GET {url}" + (f" (htmx {headers['HTTP_HX_TARGET']})" if headers else "")
                if response.status_code >= 500:
                    errors.append(f"{where} -> {response.status_code}")
                for canary in forbidden:
                    if canary.text in body:
                        leaks.append(f"{where} shows {canary.text!r} of game {canary.game.name}")
                if user is not None:
                    seen_by_host |= {
                        c.text for c in world.canaries if user.id in world.hosts[c.game.id] and c.text in body
                    }
                if (
                    not headers
                    and response.status_code == 200
                    and foreign(route, url, owners, kind, world, user)
                ):
                    opened.append(f"{where} -> 200 ({route.name}, object of game(s) {sorted(owners)})")
    # The control: every canary shows somewhere to the host of its game, so "not found" means "not shown".
    unseen = [c.text for c in world.canaries if c.shown_to_hosts and c.text not in seen_by_host]
    report = []
    if leaks:
        report.append("Canaries shown to viewers who may not see them:\n" + "\n".join(sorted(set(leaks))))
    if opened:
        report.append("Objects of others answered 200 (want 403/404):\n" + "\n".join(sorted(set(opened))))
    if errors:
        report.append("Server errors during the crawl:\n" + "\n".join(sorted(set(errors))))
    if unseen:
        report.append(f"Canaries the host never saw anywhere (the crawl cannot reach them): {unseen}")
    assert not report, "\n\n".join(report)


@pytest.mark.parametrize("who", ["player", "other host", "outsider"])
def test_host_operations_of_a_game_refuse_everyone_but_its_hosts(make_user, who):
    world = build_world(make_user)
    game = world.games[0]
    user = {"player": world.viewers["p0"], "other host": world.viewers["other host"]}.get(
        who, world.viewers["outsider"]
    )
    client = client_for(user)
    version = Game.objects.get(pk=game.pk).version
    found, _ = routes()
    names = [
        r for r in found if r.name.startswith("api-host-") or r.name in {"api-pick-override", "api-grant"}
    ]
    assert names, "no host routes found in the URL list"
    answers = {}
    for route in names:
        url = route.build({"game_id": game.id, "season_id": game.season_id})
        body = {
            "text": "x",
            "minutes": 5,
            "username": "p0",
            "muted": True,
            "what": "garnets",
            "delta": 5,
            "reason": "r",
            "opponent": "p1",
        }
        answers[url] = client.post(url, body, content_type="application/json").status_code
    assert all(code in (403, 404) for code in answers.values()), answers
    assert Game.objects.get(pk=game.pk).version == version


# --- the event stream (GET /events/) ----------------------------------------------------------------------
# Under the test client (WSGI) the crawl above gets /events/'s 204. Here the streams themselves, under ASGI
# (as tests/platform/test_live_push.py opens them): for each game, every viewer's stream, read on connect
# and after a move that plants a new canary somewhere private.


async def _stream_open(user, url: str):
    client = AsyncClient()
    if user is not None:
        await client.aforce_login(user)
    return await client.get(url)


async def _stream_read(response, chunks: int) -> str:
    """The stream's next `chunks` chunks (15 s each at most, which a loaded machine never needs)."""
    return "".join(
        [(await asyncio.wait_for(anext(response.streaming_content), 15)).decode() for _ in range(chunks)]
    )


async def _stream_rest(response, seconds: float) -> str:
    """What the stream sends within `seconds`; the last read of a stream (a read timed out ends it)."""
    out, until = [], time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0:
        try:
            out.append((await asyncio.wait_for(anext(response.streaming_content), left)).decode())
        except (TimeoutError, StopAsyncIteration):
            break
    return "".join(out)


async def _stream_close(response) -> None:
    await response._iterator.aclose()
    request_finished.disconnect(close_old_connections)  # the test's database connection stays open
    try:
        await sync_to_async(response.close)()
    finally:
        request_finished.connect(close_old_connections)


def private_move(game: Game, on_commit) -> tuple[list[str], int]:
    """A move of `game` with new canaries in private places: a reveal to its first seat, a pair chat of its
    first two; the version moves too, so every stream has something to say. The canaries it planted, and
    the game's version after it."""
    seats = list(game.seats.order_by("number"))
    planted = [f"CANARY-STREAM-REVEAL-{game.pk}", f"CANARY-STREAM-CHAT-{game.pk}"]
    with on_commit(execute=True):
        events_write(game=game, events=[Reveal(seats[0].number, planted[0])])
        pagecache.private_changed(game.pk, [seats[0].user_id])
        bump_version(game)
    if len(seats) > 1 and game.status == Game.Status.RUNNING:
        with on_commit(execute=True):
            chat_post(game=game, author_seat=seats[0], other_seat=seats[1], text=planted[1])
    return planted, Game.objects.get(pk=game.pk).version


@async_to_sync
async def streams_of(game: Game, viewers: dict, on_commit):
    """Every viewer's stream of `game`, read on connect and after `private_move`: what each open one heard
    on connect and after, each one's status, the canaries the move planted and the version after it."""
    opened, connect, statuses = {}, {}, {}
    for label, user in viewers.items():
        response = await _stream_open(user, f"/events/?game={game.pk}&v=0")
        statuses[label] = response.status_code
        if response.status_code == 200:
            opened[label] = response
            connect[label] = await _stream_read(response, 2)  # retry:, then the version (v=0 is behind)
    planted, version = await sync_to_async(private_move)(game, on_commit)
    after = await asyncio.gather(*(_stream_rest(response, 1.5) for response in opened.values()))
    for response in opened.values():
        await _stream_close(response)
    return connect, dict(zip(opened, after, strict=True)), statuses, planted, version


@pytest.mark.services
def test_no_stream_carries_a_canary_or_anything_but_ids_and_numbers(
    make_user, settings, django_capture_on_commit_callbacks
):
    settings.GENIUS_PUSH_URL = redis_for_push()
    settings.GENIUS_PUSH_PREFIX = f"test-{uuid.uuid4().hex[:10]}:"
    world = build_world(make_user)
    problems = []
    for game in world.games:
        connect, after, statuses, planted, version = streams_of(
            game, world.viewers, django_capture_on_commit_callbacks
        )
        seated, hosts = world.seats[game.pk], world.hosts[game.pk]
        for label, user in world.viewers.items():
            page = client_for(user).get(f"/games/{game.pk}/").status_code
            want = 404 if page == 404 else 200  # a game closed to them: a 404, as its page answers
            if statuses[label] != want:
                problems.append(f"{label} /events/?game={game.pk} -> {statuses[label]}, want {want}")
        for label, text in after.items():
            user = world.viewers[label]
            where = f"{label}'s stream of {game.name}"
            if f'"v":{version}' not in text:  # the control: the stream was still listening, and heard it
                problems.append(f"{where} did not hear the move's version {version}: {text!r}")
            text = connect[label] + text
            forbidden = [c.text for c in world.canaries if not may_read(world, user, c)] + planted
            problems += [f"{where} carries {secret!r}" for secret in forbidden if secret in text]
            spectator = user is None or (user.id not in seated and user.id not in hosts)
            for kind, body in stream_events(text):
                # A spectator's stream carries the public live part (checked for canaries above); nothing
                # else carries more than ids and numbers.
                if kind == "part" and spectator:
                    body = {k: v for k, v in body.items() if k != "html"}
                if not (set(body) <= {"game", "v", "season"} and all(type(v) is int for v in body.values())):
                    problems.append(f"{where} carries {kind} {body!r}")
            if spectator:
                # Spectators cannot count private events: nothing but the version reaches them.
                news = set(re.findall(r"^event: (mine|chat|counts)$", text, re.MULTILINE))
                if news:
                    problems.append(f"{where} heard another user's news: {sorted(news)}")
    assert not problems, "\n".join(problems)
