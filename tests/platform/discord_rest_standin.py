"""A local stand-in for Discord's REST API (v10) as the site's bot uses it, answered by `responses` (no
network): DM channels, messages, adding a member to the server, and channel webhooks.

It checks every call as Discord would (the bot's "Bot <token>" header, JSON bodies, mentions switched off),
keeps per-bucket rate limits on a clock the test controls, sending X-RateLimit-* headers, and notes each call
that came while its bucket was empty (`too_soon`): a client that honours the headers leaves that list empty.
It answers 429 with `retry_after` when a test asks (`limit_next`), and Discord's refusals for users whose DMs
are closed (50007) or who share no server with the bot (50278). It records what was sent (`messages`,
`webhook_posts`) with the time of the test clock.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import responses

API = "https://discord.com/api/v10"
BOT_TOKEN = "stand-in-bot-token"
GUILD_ID = "613425648685547541"
WEBHOOK_URL = "https://discord.com/api/webhooks/1180000000000000001/stand-in-webhook-token"


def configure(settings) -> None:
    """What DISCORD_BOT_TOKEN and DISCORD_GUILD_ID set in production."""
    settings.DISCORD_BOT_TOKEN = BOT_TOKEN
    settings.DISCORD_GUILD_ID = GUILD_ID


@dataclass
class Clock:
    """The test's time: `sleep` moves it on at once, and every sleep asked for is kept."""

    now: float = 1_800_000_000.0
    slept: list = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@dataclass
class Bucket:
    limit: int
    window: float
    used: int = 0
    resets_at: float = 0.0


@dataclass
class DiscordRest:
    clock: Clock = field(default_factory=Clock)
    limit: int = 5  # calls per bucket per window, as Discord's headers say
    window: float = 2.0
    closed: set = field(default_factory=set)  # user ids whose DMs are closed to server members (50007)
    strangers: set = field(default_factory=set)  # user ids sharing no server with the bot (50278)
    members: set = field(default_factory=set)  # user ids in GUILD_ID
    access_tokens: dict = field(default_factory=dict)  # user id -> the OAuth access token Discord gave
    calls: list = field(default_factory=list)  # (method, path, time)
    messages: list = field(default_factory=list)  # (channel id, body, time)
    webhook_posts: list = field(default_factory=list)  # (body, time)
    too_soon: list = field(default_factory=list)  # calls made while their bucket was empty
    buckets: dict = field(default_factory=dict)
    scripted: dict = field(default_factory=dict)  # route -> [(retry_after, global)]
    nonces: dict = field(default_factory=dict)

    def limit_next(self, route: str, retry_after: float, is_global: bool = False) -> None:
        """The next call of `route` ("dm", "messages", "members", "webhook") answers 429."""
        self.scripted.setdefault(route, []).append((retry_after, is_global))

    @staticmethod
    def dm_channel(user_id: str) -> str:
        return f"9{user_id}"

    # Discord's side of each call.

    def _check(self, request, bot: bool = True) -> dict:
        if bot:
            assert request.headers.get("Authorization") == f"Bot {BOT_TOKEN}", "Bot <token>"
        assert request.headers.get("Content-Type") == "application/json"
        if bot:
            assert request.headers.get("User-Agent", "").startswith("DiscordBot ("), "Discord's form for bots"
        return json.loads(request.body)

    def _limited(self, route: str, key: str, method: str, path: str):
        """The rate-limit headers for this call, or a 429 answer when it came too soon or was scripted."""
        now = self.clock()
        self.calls.append((method, path, now))
        bucket = self.buckets.setdefault(key, Bucket(self.limit, self.window))
        if now >= bucket.resets_at:
            bucket.used, bucket.resets_at = 0, now + bucket.window
        if self.scripted.get(route):
            retry_after, is_global = self.scripted[route].pop(0)
            return self._429(retry_after, is_global, bucket)
        if bucket.used >= bucket.limit:
            self.too_soon.append((method, path, now))
            return self._429(bucket.resets_at - now, False, bucket)
        bucket.used += 1
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.limit - bucket.used),
            "X-RateLimit-Reset-After": f"{bucket.resets_at - now:.3f}",
            "X-RateLimit-Bucket": f"bucket-{route}",
        }

    @staticmethod
    def _429(retry_after: float, is_global: bool, bucket: Bucket):
        scope = "global" if is_global else "user"
        headers = {"Retry-After": str(int(retry_after + 0.999)), "X-RateLimit-Scope": scope}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return 429, headers, json.dumps(body)

    def _open_dm(self, request):
        body = self._check(request)
        limited = self._limited("dm", "dm", "POST", "/users/@me/channels")
        if isinstance(limited, tuple):
            return limited
        user = body["recipient_id"]
        channel = {"id": self.dm_channel(user), "type": 1, "recipients": [{"id": user}]}
        return 200, limited, json.dumps(channel)

    def _message(self, request):
        body = self._check(request)
        channel = re.search(r"/channels/(\d+)/messages", request.url).group(1)
        limited = self._limited("messages", f"messages:{channel}", "POST", f"/channels/{channel}/messages")
        if isinstance(limited, tuple):
            return limited
        assert body.get("allowed_mentions") == {"parse": []}, "a DM mentions nobody"
        assert 0 < len(body["content"]) <= 2000
        user = channel[1:]
        if user in self.closed:
            return 403, limited, json.dumps({"code": 50007, "message": "Cannot send messages to this user"})
        if user in self.strangers:
            message = "Cannot send messages to this user due to having no mutual guilds"
            return 403, limited, json.dumps({"code": 50278, "message": message})
        if body.get("enforce_nonce") and (channel, body.get("nonce")) in self.nonces:
            return 200, limited, json.dumps(self.nonces[(channel, body["nonce"])])
        self.messages.append((channel, body, self.clock()))
        answer = {"id": str(len(self.messages)), "channel_id": channel, "content": body["content"]}
        if body.get("nonce"):
            assert len(str(body["nonce"])) <= 25, "Discord's nonces are at most 25 characters"
            self.nonces[(channel, body["nonce"])] = answer
        return 200, limited, json.dumps(answer)

    def _member(self, request):
        body = self._check(request)
        guild, user = re.search(r"/guilds/(\d+)/members/(\d+)", request.url).groups()
        limited = self._limited("members", f"members:{guild}", "PUT", f"/guilds/{guild}/members/{user}")
        if isinstance(limited, tuple):
            return limited
        assert guild == GUILD_ID
        if body.get("access_token") != self.access_tokens.get(user):
            return 403, limited, json.dumps({"code": 50025, "message": "Invalid OAuth2 access token"})
        if user in self.members:
            return 204, limited, ""
        self.members.add(user)
        return 201, limited, json.dumps({"user": {"id": user}, "roles": []})

    def _webhook(self, request):
        body = self._check(request, bot=False)
        assert "Authorization" not in request.headers, "a webhook's token is in its URL"
        limited = self._limited("webhook", "webhook", "POST", "/webhooks")
        if isinstance(limited, tuple):
            return limited
        assert body.get("allowed_mentions") == {"parse": []}, "an announcement mentions nobody"
        assert set(body) <= {"content", "embeds", "allowed_mentions", "username"}, f"not Discord's: {body}"
        assert body.get("content") or body.get("embeds")
        self.webhook_posts.append((body, self.clock()))
        return 204, limited, ""

    def serve(self, mock: responses.RequestsMock) -> None:
        api = re.escape(API)
        mock.add_callback(responses.POST, f"{API}/users/@me/channels", callback=self._open_dm)
        mock.add_callback(responses.POST, re.compile(rf"{api}/channels/\d+/messages"), callback=self._message)
        mock.add_callback(responses.PUT, re.compile(rf"{api}/guilds/\d+/members/\d+"), callback=self._member)
        hook = re.compile(r"https://discord\.com/api/webhooks/\d+/[\w-]+")
        mock.add_callback(responses.POST, hook, callback=self._webhook)
