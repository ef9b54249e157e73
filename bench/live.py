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
import random
import re
import statistics
import time

from wire import call, request_bytes, send

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
                token = {"Authorization": f"Token {world['player_tokens'][seat_player[seat]]}"}
                status, mine = await call(port, "GET", f"/api/games/{gid}/", token)
                legal = (mine or {}).get("state", {}).get("legal_actions") or []
                if status != 200 or mine["status"] != "running" or not legal:
                    break
                await asyncio.sleep(random.uniform(*think))
                posted = time.monotonic()
                status, game = await call(
                    port, "POST", f"/api/games/{gid}/action/", token, {"payload": random.choice(legal)}
                )
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
