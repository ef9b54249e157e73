"""A local stand-in for Discord's OAuth2: its token and user endpoints answered by `responses` (no network),
and its authorize step played by the test (a browser route, or the test client following the redirect)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlparse

import responses

AUTHORIZE = "https://discord.com/api/oauth2/authorize"
TOKEN = "https://discord.com/api/oauth2/token"
ME = "https://discord.com/api/users/@me"
CLIENT_ID, CLIENT_SECRET = "stand-in-client", "stand-in-secret"


def configure(settings) -> None:
    """What DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET set in production (with DISCORD_GUILD_ID set, the
    login asks to join the community's server too)."""
    settings.SOCIALACCOUNT_PROVIDERS = {
        "discord": {
            "APPS": [{"client_id": CLIENT_ID, "secret": CLIENT_SECRET}],
            "SCOPE": ["identify", "email", "guilds.join"],
        }
    }


@dataclass
class Discord:
    """One Discord user; the codes this stand-in handed out and the token requests it answered."""

    user: dict
    codes: set = field(default_factory=set)
    token_requests: list = field(default_factory=list)

    def authorize(self, url: str) -> str:
        """Discord's consent page, accepted: where it sends the browser back (with a code and the state)."""
        query = parse_qs(urlparse(url).query)
        assert query["client_id"] == [CLIENT_ID] and query["response_type"] == ["code"]
        code = f"code-{len(self.codes)}"
        self.codes.add(code)
        back = query["redirect_uri"][0]
        return f"{back}?{urlencode({'code': code, 'state': query['state'][0]})}"

    def _token(self, request):
        form = parse_qs(request.body)
        self.token_requests.append(form)
        if form.get("code", [""])[0] not in self.codes or form.get("client_secret") != [CLIENT_SECRET]:
            return 400, {}, json.dumps({"error": "invalid_grant"})
        return (
            200,
            {},
            json.dumps({"access_token": "stand-in-access", "token_type": "Bearer", "expires_in": 600}),
        )

    def _me(self, request):
        if request.headers.get("Authorization") != "Bearer stand-in-access":
            return 401, {}, json.dumps({"message": "401: Unauthorized"})
        return 200, {}, json.dumps(self.user)

    def serve(self, mock: responses.RequestsMock) -> None:
        mock.add_callback(responses.POST, TOKEN, callback=self._token, content_type="application/json")
        mock.add_callback(responses.GET, ME, callback=self._me, content_type="application/json")


NELLY = {
    "id": "80351110224678912",
    "username": "nelly",
    "global_name": "Nelly the Great",
    "discriminator": "0",
    "avatar": None,
    "email": "nelly@example.com",
    "verified": True,
}
