"""A player who logs in with Discord, or connects it, joins the community's Discord server (DISCORD_GUILD_ID):
the bot can DM only someone it shares a server with, so this is what makes Discord DMs reach them.

Discord adds a user to a server with their own OAuth2 access token, granted with the scope guilds.join
(`PUT /guilds/{guild}/members/{user}`). The site keeps no Discord token (SOCIALACCOUNT_STORE_TOKENS stays
False: a kept token is one more secret to lose, for no other use). The token is at hand at the one moment it
is needed: allauth passes the login it just completed, `sociallogin.token` unsaved, with its signals, so the
join is made then, in that request, and the token is dropped with it. A task would have written the token
into its outbox row (and kept it there with its error after a failure), which is storing it. So the call is
short (a few seconds at most, no rate-limit wait: a limited or failed join is logged and made at the next
Discord login) and never stops the login.
"""

from __future__ import annotations

import logging

from allauth.account.signals import user_logged_in
from allauth.socialaccount.signals import social_account_added
from django.conf import settings

from . import discord_api
from .reach.discord import forget_problem

log = logging.getLogger(__name__)


def join_server(sociallogin) -> None:
    """Add the Discord account of this login to the community's server, with the token it came with."""
    if sociallogin is None or sociallogin.account.provider != "discord":
        return
    # They may have opened their DMs or joined the server meanwhile: the next note tries a DM again.
    forget_problem(sociallogin.user)
    token = getattr(getattr(sociallogin, "token", None), "token", "")
    if not (discord_api.configured() and settings.DISCORD_GUILD_ID and token):
        return
    bot = discord_api.client(max_wait=0, timeout=5)
    try:
        added = bot.add_member(settings.DISCORD_GUILD_ID, sociallogin.account.uid, token)
    except (discord_api.Down, discord_api.Refused, discord_api.Unreachable, discord_api.RateLimited) as exc:
        log.warning("Discord user %s was not added to the server: %s", sociallogin.account.uid, exc)
        return
    if added:
        log.info("Discord user %s joined the server", sociallogin.account.uid)


def on_logged_in(sender, request, user, sociallogin=None, **kwargs) -> None:
    join_server(sociallogin)


def on_connected(sender, request, sociallogin, **kwargs) -> None:
    join_server(sociallogin)


def connect() -> None:
    user_logged_in.connect(on_logged_in, dispatch_uid="genius-discord-join-login")
    social_account_added.connect(on_connected, dispatch_uid="genius-discord-join-connect")
