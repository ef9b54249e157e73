"""Discord's REST API (v10) as the site's bot: open a DM channel, send a message, add a player to the server.

Rate limits are Discord's, read from its answers and never guessed
(https://discord.com/developers/docs/topics/rate-limits): a bucket that answered X-RateLimit-Remaining: 0 is
left alone for X-RateLimit-Reset-After seconds, and a 429 is waited out for its `retry_after` (the JSON's, or
the Retry-After header), the whole bot's when it says it is global. What a bucket owes is kept in the
cache (Redis in production), so every worker process of the site waits for it, not just the one that was
told. A wait of up to DISCORD_MAX_WAIT_SECONDS is slept here; a longer one raises `RateLimited`, which the
outbox takes as "come back then" (a `deliveries.Held`): the task returns when Discord allows, not sooner.

Discord's answers sort in three:
- `Unreachable`: Discord will not carry a message to this user (50007 DMs closed, 50278 no server in common,
  10013 unknown user): permanent for now, with why in words, for the player's page and the host;
- `Refused`: any other 4xx (a wrong bot token, a missing permission): permanent too, the site's to fix;
- `Down`: 5xx and network errors: temporary, raised so the outbox retries.

The host is fixed (discord.com), so a plain requests session does: the webhook destinations' inside-address
checks (destinations.py) guard URLs a host types, which these are not.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime

import requests
from django.conf import settings
from django.core.cache import cache

from .services.deliveries import Held

log = logging.getLogger(__name__)

API = "https://discord.com/api/v10"
TRIES = 5  # 429s waited out in one call before it is left to the outbox's retry

# The codes that mean Discord will not carry a message to this one user, each as a host reads it
# (Outcome.why) and as the player reads it on their account page ("We could not DM you on Discord: …").
UNREACHABLE = {
    50007: ("their Discord DMs are closed to server members", "your DMs are closed to server members"),
    50278: (
        "they share no Discord server with the site's bot",
        "you are not in the community's Discord server (log in with Discord again to join it)",
    ),
    10013: ("Discord no longer knows their account", "Discord no longer knows your account"),
}


class Unreachable(Exception):
    """Discord will not carry a message to this user: `why` for a host, `yours` for the player."""

    def __init__(self, code: int, message: str = ""):
        self.code = code
        self.why, self.yours = UNREACHABLE[code]
        super().__init__(f"Discord {code}: {message or self.why}")


class Refused(Exception):
    """Discord refused the call for a reason that is the site's, not the player's (a bad token, a missing
    permission, a malformed request): not retried, logged for whoever runs the site."""

    def __init__(self, status: int, code: int | None, message: str):
        self.status, self.code = status, code
        super().__init__(f"Discord answered {status}" + (f" ({code}: {message})" if code else ""))


class Down(Exception):
    """Discord did not answer, or answered 5xx: temporary, so the outbox tries again later."""


class RateLimited(Held):
    """Discord asks for a wait longer than a task should sleep: the task comes back at `until`."""

    def __init__(self, until: datetime, route: str):
        Exception.__init__(self, f"Discord asks to wait until {until.isoformat()} for {route}")
        self.until = until


def configured() -> bool:
    """Discord DMs are on: the bot's token is set (DISCORD_BOT_TOKEN)."""
    return bool(settings.DISCORD_BOT_TOKEN)


def _number(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


class Client:
    """The bot's calls. `sleep` and `clock` (epoch seconds) are given by the tests, which then check that
    no call came sooner than Discord allowed without waiting for it."""

    def __init__(
        self,
        token: str,
        *,
        session: requests.Session | None = None,
        sleep=time.sleep,
        clock=time.time,
        max_wait: float | None = None,
        timeout: float = 10,
    ):
        self.token = token
        self.session = session or requests.Session()
        self.sleep, self.clock, self.timeout = sleep, clock, timeout
        self.max_wait = settings.DISCORD_MAX_WAIT_SECONDS if max_wait is None else max_wait

    # The three calls the site makes.

    def open_dm(self, user_id: str) -> str:
        """The DM channel between the bot and this Discord user (Discord gives the same one again)."""
        answer = self._call("POST", "/users/@me/channels", ("dm", ""), {"recipient_id": str(user_id)})
        return str(answer["id"])

    def send(self, channel_id: str, content: str, nonce: str = "") -> dict:
        """Post `content` to a channel, mentioning nobody. A `nonce` (at most 25 characters) makes Discord
        return the message it already created for it in the last minutes instead of creating another: a
        retry after a lost answer does not post twice."""
        body = {"content": content[:2000], "allowed_mentions": {"parse": []}}
        if nonce:
            body |= {"nonce": nonce[:25], "enforce_nonce": True}
        return self._call("POST", f"/channels/{channel_id}/messages", ("messages", channel_id), body)

    def add_member(self, guild_id: str, user_id: str, access_token: str) -> bool:
        """Add a user to a server with their OAuth2 access token (scope guilds.join). True: added now;
        False: they were a member already."""
        path = f"/guilds/{guild_id}/members/{user_id}"
        return self._call("PUT", path, ("members", guild_id), {"access_token": access_token}) is not None

    # How each call keeps Discord's limits.

    def _call(self, method: str, path: str, route: tuple[str, str], body: dict):
        """One call, waiting first for what the bucket owes and again after a 429; the answer's JSON, or
        None for 204 No Content."""
        name = f"{method}-{route[0]}"
        for _ in range(TRIES):
            self._wait_for(name, route)
            try:
                response = self.session.request(
                    method,
                    API + path,
                    data=json.dumps(body),
                    headers={
                        "Authorization": f"Bot {self.token}",
                        "Content-Type": "application/json",
                        # The form Discord asks of bots: DiscordBot (its URL, its version).
                        "User-Agent": f"DiscordBot ({settings.GENIUS_SITE_URL or 'https://localhost'}, 1)",
                    },
                    timeout=self.timeout,
                    allow_redirects=False,
                )
            except requests.RequestException as exc:
                raise Down(f"Discord could not be reached: {exc}") from exc
            self._note_bucket(name, route, response)
            if response.status_code != 429:
                return self._answer(response)
            self._note_429(name, route, response)
        raise Down(f"Discord answered 429 to {TRIES} tries of {name} in a row")

    def _keys(self, name: str, route: tuple[str, str]) -> tuple[str, str]:
        """The cache keys of this call's bucket (as Discord named it, once it has) and of the bot's global
        limit. A bucket is per top-level resource (the channel, the server), so its id is part of the key."""
        bucket = cache.get(f"discord:route:{name}") or name
        return f"discord:bucket:{bucket}:{route[1]}", "discord:global"

    def _wait_for(self, name: str, route: tuple[str, str]) -> None:
        bucket_key, global_key = self._keys(name, route)
        until = max(cache.get(bucket_key) or 0.0, cache.get(global_key) or 0.0)
        wait = until - self.clock()
        if wait <= 0:
            return
        if wait > self.max_wait:
            raise RateLimited(datetime.fromtimestamp(until, UTC), name)
        log.info("Discord: waiting %.2f s for %s", wait, name)
        self.sleep(wait)

    def _hold(self, key: str, seconds: float) -> None:
        until = self.clock() + seconds
        if until > (cache.get(key) or 0.0):
            cache.set(key, until, timeout=int(seconds) + 5)

    def _note_bucket(self, name: str, route: tuple[str, str], response: requests.Response) -> None:
        """Remember the bucket Discord named, and hold it until its reset when nothing remains in it."""
        bucket = response.headers.get("X-RateLimit-Bucket")
        if bucket:
            cache.set(f"discord:route:{name}", bucket, timeout=24 * 3600)
        remaining = _number(response.headers.get("X-RateLimit-Remaining"))
        reset_after = _number(response.headers.get("X-RateLimit-Reset-After"))
        if remaining is not None and remaining <= 0 and reset_after:
            self._hold(self._keys(name, route)[0], reset_after)

    def _note_429(self, name: str, route: tuple[str, str], response: requests.Response) -> None:
        try:
            answer = response.json()
        except ValueError:
            answer = {}
        retry_after = _number(answer.get("retry_after")) or _number(response.headers.get("Retry-After"))
        scope = response.headers.get("X-RateLimit-Scope", "")
        is_global = bool(answer.get("global")) or response.headers.get("X-RateLimit-Global") == "true"
        bucket_key, global_key = self._keys(name, route)
        log.warning("Discord answered 429 for %s: retry after %s s (%s)", name, retry_after, scope or "route")
        self._hold(global_key if is_global or scope == "global" else bucket_key, retry_after or 1.0)

    def _answer(self, response: requests.Response):
        status = response.status_code
        if status >= 500:
            raise Down(f"Discord answered {status}")
        try:
            answer = response.json() if response.content else None
        except ValueError:
            answer = None
        if status < 300:
            return answer
        code = answer.get("code") if isinstance(answer, dict) else None
        message = answer.get("message", "") if isinstance(answer, dict) else ""
        if code in UNREACHABLE:
            raise Unreachable(code, message)
        raise Refused(status, code, message)


def client(**kwargs) -> Client:
    """The bot of this site (DISCORD_BOT_TOKEN); ask `configured()` first."""
    return Client(settings.DISCORD_BOT_TOKEN, **kwargs)
