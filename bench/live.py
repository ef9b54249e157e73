"""A live move reaching the opponent: from a Middle Marathon move's POST to the opponent's poll that shows it.

Each match is a Middle Marathon game made through the API by the benchmark's host, with two of the seeded
players, who both say "I'm here" before the first move (the clocks wait for them). Both players' pages poll
the live partial (`/games/<id>/live/?v=<version>`) as htmx does, at the game's own poll interval: on a
schedule that starts again from each answer that brings news (htmx swaps the element, and the new one polls on
its own timer). The player the game waits on thinks for a random moment (so a move lands anywhere between two
of the opponent's polls), picks a legal move at random and POSTs it to the action API; the time counted runs
from that POST until the opponent's poll first answers with the version the move made, or a later one. A
finished game is replaced by a new one.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import sys
import time

from wire import HOST, call, processes, request_bytes, send

GAME_TYPE = "middle_marathon"
VERSION_IN_BODY = re.compile(rb"/live/\?v=(\d+)")
SEEN_WITHIN_S = 15.0  # a move its opponent has not seen by then is counted as lost
TOO_MANY_ERRORS = 20  # then the run stops and reports them


class Poller:
    """One player's page: polls the live partial, and remembers the newest version seen and when."""

    def __init__(self, port: int, game_id: int, cookie: str, version: int, interval: float):
        self.port, self.game_id, self.interval = port, game_id, interval
        self.cookie, self.version = cookie, version
        self.arrivals: list[tuple[int, float]] = []  # (a newer version shown, when its answer arrived)
        self.seen = asyncio.Condition()
        self.stopped = False
        self.errors: list[str] = []

    async def run(self) -> None:
        due = time.monotonic() + random.uniform(0, self.interval)  # pages open at different moments
        while not self.stopped:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            raw = request_bytes(
                "GET",
                f"/games/{self.game_id}/live/?v={self.version}",
                {"Cookie": self.cookie, "HX-Request": "true"},
            )
            try:
                status, _, body = await send(self.port, raw)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                self.errors.append(type(exc).__name__)
                due += self.interval
                continue
            arrived = time.monotonic()
            found = VERSION_IN_BODY.search(body) if status == 200 else None
            if status == 200 and found:
                async with self.seen:
                    shown = int(found.group(1))
                    if shown > self.version:
                        self.version = shown
                        self.arrivals.append((shown, arrived))
                    self.seen.notify_all()
                due = arrived + self.interval  # the swapped element starts its own timer
            elif status in (200, 286):  # 286: htmx's "stop polling" (the game is over)
                self.stopped = True
            else:
                if status != 204:
                    self.errors.append(f"status {status}")
                due += self.interval

    async def until(self, version: int) -> float:
        """The moment this page's poll first answered with `version` or a later one."""
        async with self.seen:
            await self.seen.wait_for(lambda: self.version >= version)
        return min(arrived for shown, arrived in self.arrivals if shown >= version)


async def new_match(port: int, world: dict, pair: tuple[int, int], number: int) -> dict:
    host = {"Authorization": f"Token {world['host_token']}"}
    name = f"Live bench {number}"
    status, game = await call(
        port, "POST", "/api/games/", host, {"season": world["season_id"], "type": GAME_TYPE, "name": name}
    )
    if status != 201:
        raise RuntimeError(f"creating a match answered {status}: {game}")
    for player in pair:
        username = world["player_names"][player]
        status, answer = await call(
            port, "POST", f"/api/games/{game['id']}/host/seat/", host, {"username": username}
        )
        if status != 200:
            raise RuntimeError(f"seating {username} answered {status}: {answer}")
    status, game = await call(port, "POST", f"/api/games/{game['id']}/host/start/", host, {})
    if status != 200:
        raise RuntimeError(f"starting the match answered {status}: {game}")
    # The clocks wait for the players to sit down (issue 20.1): each says "I'm here"; the last answer is the
    # game with its clocks running.
    for player in pair:
        token = {"Authorization": f"Token {world['player_tokens'][player]}"}
        status, game = await call(port, "POST", f"/api/games/{game['id']}/here/", token, {})
        if status != 200:
            raise RuntimeError(f"sitting down answered {status}: {game}")
    return game


async def play(
    port: int, world: dict, pair: tuple[int, int], record: dict, wanted: int, think: tuple
) -> None:
    """Play matches with the players `pair` until `record` holds `wanted` timed moves (of every match)."""
    cookie = world["cookie_name"]
    moves, errors = record["moves"], record["errors"]
    number = 0
    while len(moves) < wanted and len(errors) < TOO_MANY_ERRORS:
        number += 1
        game = await new_match(port, world, pair, pair[0] * 1000 + number)
        gid, interval = game["id"], float(game["poll_seconds"])
        record["poll_seconds"].add(interval)
        seat_player = {p["seat"]: pair[i] for i, p in enumerate(game["players"])}
        pages = {
            seat: Poller(port, gid, f"{cookie}={world['player_cookies'][p]}", game["version"], interval)
            for seat, p in seat_player.items()
        }
        polling = [asyncio.ensure_future(page.run()) for page in pages.values()]
        try:
            while len(moves) < wanted:
                seat = game["state"]["pending"]["seat"]
                made = await move_at_random(port, world["player_tokens"][seat_player[seat]], gid, think)
                if made is None:
                    break
                mine, posted, status, game = made
                answered = time.monotonic()
                if status != 200:
                    errors.append(f"move answered {status}: {str(game)[:120]}")
                    break
                opponent = pages[1 - seat]
                try:
                    # `mine` was read just before the move and nothing else moves the game meanwhile: the
                    # first version above it is the move's. (The move's own answer may carry the version
                    # as the move read it, before its events were counted.)
                    seen = await asyncio.wait_for(opponent.until(mine["version"] + 1), SEEN_WITHIN_S)
                except TimeoutError:
                    errors.append(f"the opponent's page did not show the move in {SEEN_WITHIN_S} s")
                    continue
                moves.append({"post_ms": 1000 * (answered - posted), "seen_ms": 1000 * (seen - posted)})
                if game["status"] != "running":
                    break
        finally:
            for page in pages.values():
                page.stopped = True
            await asyncio.gather(*polling, return_exceptions=True)
            for page in pages.values():
                errors.extend(f"poll: {e}" for e in page.errors)


async def move_at_random(port: int, api_token: str, gid: int, think: tuple):
    """The player on move thinks a random moment, then POSTs a random legal move: (the game as read before
    it, when it was posted, the answer's status and body); None when the game has no move to make."""
    token = {"Authorization": f"Token {api_token}"}
    status, mine = await call(port, "GET", f"/api/games/{gid}/", token)
    legal = (mine or {}).get("state", {}).get("legal_actions") or []
    if status != 200 or mine["status"] != "running" or not legal:
        return None
    await asyncio.sleep(random.uniform(*think))
    posted = time.monotonic()
    status, game = await call(
        port, "POST", f"/api/games/{gid}/action/", token, {"payload": random.choice(legal)}
    )
    return mine, posted, status, game


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(port: int, world: dict, *, moves: int = 200, matches: int = 4, think=(0.2, 1.8)) -> dict:
    """p50 and p95 of the time a move takes to reach its opponent's page, over at least `moves` moves."""
    pairs = [(2 * i, 2 * i + 1) for i in range(min(matches, len(world["player_names"]) // 2))]
    record: dict = {"moves": [], "errors": [], "poll_seconds": set()}

    async def everything():
        await asyncio.gather(*(play(port, world, pair, record, moves, think) for pair in pairs))

    began = time.monotonic()
    asyncio.run(everything())
    timed, errors = record["moves"], record["errors"]
    interval = max(record["poll_seconds"], default=1.0)  # the game's own: 1 s for Middle Marathon
    row = {
        "game_type": GAME_TYPE,
        "matches_at_once": len(pairs),
        "moves": len(timed),
        "seconds": round(time.monotonic() - began, 1),
        "errors": len(errors),
        "error_sample": sorted(set(errors))[:3],
        "poll_interval_ms": 1000 * interval,
        "target_p95_ms": 1000 * interval + 250,
    }
    if timed:
        seen = [m["seen_ms"] for m in timed]
        row.update(
            {
                "seen_p50_ms": round(statistics.median(seen), 1),
                "seen_p95_ms": round(percentile(seen, 0.95), 1),
                "seen_max_ms": round(max(seen), 1),
                "post_p50_ms": round(statistics.median(m["post_ms"] for m in timed), 1),
                "post_p95_ms": round(percentile([m["post_ms"] for m in timed], 0.95), 1),
            }
        )
        row["met"] = row["seen_p95_ms"] <= row["target_p95_ms"] and not errors
    return row


# --- Server push against polling: many viewers of one match (issue 32) ---
#
# One live Middle Marathon, N screens on it: its two players (their own cookies) and spectators, half of them
# logged-in non-players (the other seeded players' cookies), half visitors with no cookie. A pushed screen
# holds GET /events/?game=G&v=N on the stream server (uvicorn) and does what static/js/site.js does: a
# spectator takes the part its stream carries; a player, on an event that concerns her, fetches her live part
# (/games/G/live/?v=...) from the pages' server (gunicorn); either fetches when a ping says it is behind, and
# polls at the game's interval only once its stream has been silent GENIUS_STREAM_SAFETY_POLL_SECONDS. A
# polled screen fetches the same part every poll interval, as the page did before. The players move at random
# through the API; each move is timed from its POST until every screen has the version it made.

# A player's `v` carries its private stamps after a dash.
LIVE_V = re.compile(rb'/live/\?v=(\d+(?:-[^"&\s]*)?)')
GIVE_UP_AFTER = 3  # moves some screen did not show within SEEN_WITHIN_S: the count is given up
OPENING_AT_ONCE = 200  # streams being opened at the same moment (browsers arrive over time, not all at once)


class Screen:
    """One viewer's live part of the game page: its `v`, and when each newer version arrived."""

    def __init__(self, port: int, game_id: int, role: str, cookie: str | None, v: str):
        self.port, self.game_id, self.role, self.v = port, game_id, role, v
        self.headers = {"HX-Request": "true", **({"Cookie": cookie} if cookie else {})}
        self.version = int(v.partition("-")[0])
        self.arrivals: list[tuple[int, float]] = []
        self.requests = 0
        self.heard: dict[str, int] = {}  # events heard on the stream, by kind
        self.errors: list[str] = []
        self.last_fetch = time.monotonic()
        self.fetching: asyncio.Task | None = None
        self.again = False  # an event came while a fetch was out: fetch once more after it
        self.last_heard = time.monotonic()  # the stream's last event or ping

    async def fetch(self) -> None:
        self.requests += 1
        self.last_fetch = time.monotonic()
        raw = request_bytes("GET", f"/games/{self.game_id}/live/?v={self.v}", self.headers)
        try:
            status, _, body = await send(self.port, raw)
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
            self.errors.append(f"fetch: {type(exc).__name__}")
            return
        arrived = time.monotonic()
        found = LIVE_V.search(body) if status == 200 else None
        if found:
            self.v = found.group(1).decode()
            shown = int(self.v.partition("-")[0])
            if shown > self.version:
                self.version = shown
                self.arrivals.append((shown, arrived))
        elif status not in (204, 286):
            self.errors.append(f"fetch: status {status}")

    def refresh(self) -> None:
        """htmx's `refresh` on the part: fetch now, or right after the fetch already out."""
        if self.fetching is not None and not self.fetching.done():
            self.again = True
            return
        self.fetching = asyncio.ensure_future(self._fetch_until_settled())

    async def _fetch_until_settled(self) -> None:
        while True:
            self.again = False
            await self.fetch()
            if not self.again:
                return

    def seen(self, version: int) -> float | None:
        return min((at for shown, at in self.arrivals if shown >= version), default=None)

    async def poll(self, interval: float) -> None:
        """Today's page: every `interval`, timed again from each answer that brought news (htmx swaps)."""
        due = time.monotonic() + random.uniform(0, interval)
        while True:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            before = self.version
            await self.fetch()
            due = time.monotonic() + interval if self.version > before else due + interval

    async def push(self, stream_port: int, opened: asyncio.Event, interval: float, safety: float) -> None:
        """The page with its event stream: fetches on an event, and its safety poll while the stream is up."""
        path = f"/events/?game={self.game_id}&v={self.version}"
        headers = {
            "Accept": "text/event-stream",
            **({"Cookie": self.headers["Cookie"]} if "Cookie" in self.headers else {}),
        }
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, stream_port), 30)
        except (TimeoutError, OSError) as exc:
            self.errors.append(f"stream: {type(exc).__name__}")
            opened.set()
            return
        safety_poll = None
        try:
            writer.write(request_bytes("GET", path, headers))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
            status = int(head.split(b" ", 2)[1])
            opened.set()
            if status != 200:
                self.errors.append(f"stream: status {status}")
                return
            self.last_heard = time.monotonic()
            safety_poll = asyncio.ensure_future(self._safety(interval, safety))
            buffer = b""
            async for data in _body(reader, b"transfer-encoding: chunked" in head.lower()):
                buffer += data
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    self._heard(event)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.errors.append(f"stream: {type(exc).__name__}")
        except Exception as exc:  # the driver's own mistake: counted, never a silently closed stream
            self.errors.append(f"stream: {type(exc).__name__}: {exc}")
        finally:
            opened.set()
            if safety_poll is not None:
                safety_poll.cancel()
            writer.close()

    def _heard(self, event: bytes) -> None:
        self.last_heard = time.monotonic()
        if event.startswith(b"id: ") and b"\nevent: part\n" in event[:40]:
            # A spectator's part: the screen has it now (the browser's parse and swap happen on the viewer's
            # machine, not this one's). Its id is the version it shows; its `v` is that version.
            self.heard["part"] = self.heard.get("part", 0) + 1
            shown = int(event[4 : event.index(b"\n")])
            if shown > self.version:
                self.v, self.version = str(shown), shown
                self.arrivals.append((shown, self.last_heard))
            return
        fields = dict(line.split(": ", 1) for line in event.decode().split("\n") if ": " in line)
        kind, data = fields.get("event"), json.loads(fields.get("data") or "{}")
        self.heard[kind or "other"] = self.heard.get(kind or "other", 0) + 1
        if (
            kind in ("version", "ping")
            and data.get("game") == self.game_id
            and data.get("v", 0) > self.version
        ):
            self.refresh()  # a ping saying a newer version than the page's: an event was missed
        elif kind == "ping" and "t" in data and data["t"] != self.v.partition("-")[2]:
            self.refresh()  # a player's token moved: her own news was missed
        elif kind == "mine" and data.get("game") == self.game_id and self.role == "player":
            self.refresh()

    async def _safety(self, interval: float, safety: float) -> None:
        """The page's own poll ticks on, as site.js lets it: while the stream is heard not at all (every
        ping says the game's version, and a player's token); a stream silent for longer than `safety`
        seconds is taken for dead, and the page polls at its own interval."""
        while True:
            await asyncio.sleep(interval)
            if time.monotonic() - self.last_heard > safety:
                self.refresh()


async def _body(reader: asyncio.StreamReader, chunked: bool):
    """The answer's body as it comes, chunk by chunk (uvicorn streams with chunked transfer encoding)."""
    while True:
        if not chunked:
            data = await reader.read(65536)
            if not data:
                return
            yield data
            continue
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            return
        yield (await reader.readexactly(size + 2))[:-2]


def screens_for(
    port: int, world: dict, game: dict, pair: tuple[int, int], count: int, logged_in: bool = True
) -> list[Screen]:
    """The match's two players, then spectators: logged-in non-players and visitors in turn (or visitors
    only, without `logged_in`)."""
    cookie, gid, v = world["cookie_name"], game["id"], str(game["version"])
    others = [i for i in range(len(world["player_cookies"])) if i not in pair]
    screens = [Screen(port, gid, "player", f"{cookie}={world['player_cookies'][p]}", v) for p in pair]
    for index in range(max(0, count - len(pair))):
        if logged_in and index % 2 == 0:
            who = others[(index // 2) % len(others)]
            screens.append(Screen(port, gid, "spectator", f"{cookie}={world['player_cookies'][who]}", v))
        else:
            screens.append(Screen(port, gid, "visitor", None, v))
    return screens


def _heard(screens: list[Screen]) -> dict[str, int]:
    total: dict[str, int] = {}
    for screen in screens:
        for kind, n in screen.heard.items():
            total[kind] = total.get(kind, 0) + n
    return total


def cpu_of(roots: list[int]) -> float:
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in processes(roots):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def rss_of(roots: list[int]) -> int:
    """Resident bytes of these servers' processes, summed."""
    total = 0
    for pid in processes(roots):
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total


def spread(values: list[float]) -> dict:
    if not values:
        return {"screens_seen": 0}
    return {
        "screens_seen": len(values),
        "p50_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
        "max_ms": round(max(values), 1),
    }


async def _level(
    mode: str,
    port: int,
    stream_port: int | None,
    world: dict,
    count: int,
    *,
    number: int,
    moves: int,
    idle_seconds: float,
    safety: float,
    site: list[int],
    streams: list[int],
    think: tuple,
    logged_in: bool,
) -> dict:
    pair = (0, 1)
    game = await new_match(port, world, pair, 90_000 + number)
    gid, interval = game["id"], float(game["poll_seconds"])
    screens = screens_for(port, world, game, pair, count, logged_in)
    row: dict = {"mode": mode, "viewers": len(screens), "game_id": gid, "poll_interval_s": interval}
    row["logged_in_spectators"] = logged_in
    rss_before = rss_of(streams) if streams else 0
    began = time.monotonic()
    tasks = []
    if mode == "push":
        gate = asyncio.Semaphore(OPENING_AT_ONCE)

        async def open_one(screen: Screen) -> None:
            opened = asyncio.Event()
            async with gate:
                tasks.append(asyncio.ensure_future(screen.push(stream_port, opened, interval, safety)))
                await opened.wait()

        await asyncio.gather(*(open_one(s) for s in screens))
    else:
        tasks = [asyncio.ensure_future(s.poll(interval)) for s in screens]
        await asyncio.sleep(interval)  # every poller has started
    row["opened_in_s"] = round(time.monotonic() - began, 2)
    refused = sum(1 for s in screens if any(e.startswith("stream") for e in s.errors))
    row["streams_refused"] = refused
    # What opening caused settles first: a stream sends the version at once if it is above the page's.
    await asyncio.sleep(1.0)
    await asyncio.gather(*(s.fetching for s in screens if s.fetching is not None), return_exceptions=True)
    # The idle window: screens open, nothing moving; the site's CPU (both servers) and the screens' requests.
    cpu_before, asked_before = cpu_of(site), sum(s.requests for s in screens)
    heard_before = _heard(screens)
    await asyncio.sleep(idle_seconds)
    cpu_spent, asked = cpu_of(site) - cpu_before, sum(s.requests for s in screens) - asked_before
    heard = {k: n - heard_before.get(k, 0) for k, n in _heard(screens).items() if n > heard_before.get(k, 0)}
    per_minute = 60.0 / idle_seconds / len(screens)
    row["idle"] = {
        "seconds": idle_seconds,
        "site_cpu_s": round(cpu_spent, 3),
        "site_cpu_ms_per_viewer_per_minute": round(1000 * cpu_spent * per_minute, 4),
        "requests": asked,
        "requests_per_viewer_per_minute": round(asked * per_minute, 3),
        "events_heard": heard,
    }
    if streams:
        rss_after = rss_of(streams)
        row["stream_server_rss_mb"] = [round(rss_before / 2**20, 1), round(rss_after / 2**20, 1)]
        row["rss_kb_per_stream"] = round((rss_after - rss_before) / 1024 / max(1, len(screens) - refused), 1)
    timed: dict[str, list[float]] = {"player": [], "spectator": []}
    lost, failed, errors, played, answered = 0, 0, [], 0, []
    try:
        while played < moves:
            seat = game["state"]["pending"]["seat"]
            made = await move_at_random(port, world["player_tokens"][pair[seat]], gid, think)
            if made is None:
                break
            mine, posted, status, game = made
            answered.append(1000 * (time.monotonic() - posted))
            if status != 200:
                errors.append(f"move answered {status}: {str(game)[:120]}")
                break
            played += 1
            target = mine["version"] + 1  # as in `play`: the first version above the one read before the move
            deadline = posted + SEEN_WITHIN_S
            while time.monotonic() < deadline and any(s.version < target for s in screens):
                await asyncio.sleep(0.02)
            missed = 0
            for screen in screens:
                seen = screen.seen(target)
                if seen is None:
                    missed += 1
                else:
                    timed["player" if screen.role == "player" else "spectator"].append(1000 * (seen - posted))
            if missed:
                lost += missed
                failed += 1
                if failed >= GIVE_UP_AFTER:  # this count does not hold: 15 s a move tells nothing more
                    break
            if game["status"] != "running":
                break
    except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:  # the site did not keep up
        errors.append(f"move: {type(exc).__name__}")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        fetches = [s.fetching for s in screens if s.fetching is not None]
        await asyncio.gather(*fetches, return_exceptions=True)
    every = timed["player"] + timed["spectator"]
    errors += [e for s in screens for e in s.errors]
    row.update(
        {
            "moves": played,
            "players": spread(timed["player"]),
            "spectators": spread(timed["spectator"]),
            "all": spread(every),
            "move_post": spread(answered),  # the move's own answer, which every screen's time includes
            "screens_lost": lost,  # a screen that had not the move's version SEEN_WITHIN_S after its POST
            "errors": len(errors),
            "error_sample": sorted(set(errors))[:3],
        }
    )
    return row


def compare(
    port: int,
    world: dict,
    *,
    mode: str,
    counts: list[int],
    stream_port: int | None = None,
    site: list[int],
    streams: list[int] | None = None,
    moves: int = 30,
    idle_seconds: float = 50.0,
    safety: float = 45.0,
    think=(0.2, 1.0),
    first_number: int = 0,
    logged_in: bool = True,
) -> list[dict]:
    """Each count of viewers in turn, on a new match each: pushed (mode "push") or polling (mode "poll")."""

    async def levels():
        rows = []
        for i, count in enumerate(counts):
            rows.append(
                await _level(
                    mode,
                    port,
                    stream_port,
                    world,
                    count,
                    number=first_number + i,
                    moves=moves,
                    idle_seconds=idle_seconds,
                    safety=safety,
                    site=site,
                    streams=streams or [],
                    think=think,
                    logged_in=logged_in,
                )
            )
            row = rows[-1]
            print(
                f"{mode} {row['viewers']} viewers: {row['moves']} moves, p95 {row['all'].get('p95_ms')} ms,"
                f" lost {row['screens_lost']}, errors {row['errors']} {row['error_sample']}",
                file=sys.stderr,
                flush=True,
            )
            if row["screens_lost"] or row["errors"]:
                break  # this count did not hold: more viewers would not either
            await asyncio.sleep(1)  # the closed streams are released before the next count opens
        return rows

    try:
        import uvloop  # the driver costs the shared cores less (installed with uvicorn[standard])

        return uvloop.run(levels())
    except ImportError:
        return asyncio.run(levels())


def held(rows: list[dict], p95_ms: float) -> int:
    """The most viewers a mode served with every screen's p95 within `p95_ms`, nothing lost, no error."""
    fine = [
        r["viewers"]
        for r in rows
        if r.get("all", {}).get("p95_ms") is not None
        and r["all"]["p95_ms"] <= p95_ms
        and not r["screens_lost"]
        and not r["errors"]
    ]
    return max(fine, default=0)
