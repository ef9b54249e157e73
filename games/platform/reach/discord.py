"""Discord direct messages from the site's bot, to players who log in with Discord or connected it.

The bot can DM a player only when they share a server with it (a player who logs in with Discord joins the
community's server: discord_join.py) and their settings let members of that server DM them. When Discord
says it cannot, the player's account page says why (`last_problem`) and this channel stands aside for a day
(`RETRY_AFTER`), or until they log in with Discord again; then it is tried again, since they may have opened
their DMs meanwhile. A DM carries only the player's own note: nobody else reads a DM.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from allauth.socialaccount.models import SocialAccount
from django.db.models import Prefetch
from django.utils import timezone

from .. import discord_api
from ..models import DiscordDM
from .note import Note, Outcome

log = logging.getLogger(__name__)

NAME = "discord"
LABEL = "Discord direct message"
RETRY_AFTER = timedelta(days=1)
UNKNOWN_CHANNEL = 10003


# What can_reach reads of a player, fetched for many at once by the dispatch (one query each, not one per
# player); a player not read this way is read afresh each time.
PREFETCH = (
    Prefetch(
        "socialaccount_set",
        queryset=SocialAccount.objects.filter(provider="discord").order_by("pk"),
        to_attr="discord_accounts",
    ),
    Prefetch("discord_dm", to_attr="discord_dm_read"),
)


def _account(user) -> SocialAccount | None:
    accounts = getattr(user, "discord_accounts", None)
    if accounts is not None:
        return accounts[0] if accounts else None
    return SocialAccount.objects.filter(user=user, provider="discord").order_by("pk").first()


def _row(user, account: SocialAccount) -> DiscordDM:
    """The player's DM record for this Discord account: a different account than last time starts over."""
    row, _ = DiscordDM.objects.get_or_create(user=user, defaults={"discord_id": account.uid})
    if row.discord_id != account.uid:
        row.discord_id, row.channel_id, row.problem, row.problem_at = account.uid, "", None, None
        row.save()
    return row


def _standing_problem(user) -> DiscordDM | None:
    if hasattr(user, "discord_dm_read"):
        row = user.discord_dm_read
    else:
        row = DiscordDM.objects.filter(user=user).first()
    recent = row is not None and row.problem_at is not None and timezone.now() - row.problem_at < RETRY_AFTER
    return row if recent and row.problem in discord_api.UNREACHABLE else None


def can_reach(user) -> str:
    """ "" when a DM can go to this player now, else why not, in words for a host."""
    if not discord_api.configured():
        return "the site has no Discord bot"
    if _account(user) is None:
        return "no Discord account connected"
    if row := _standing_problem(user):
        return discord_api.UNREACHABLE[row.problem][0]
    return ""


def last_problem(user) -> str:
    """What the player's account page says when the last DM could not reach them; "" when it did."""
    row = DiscordDM.objects.filter(user=user, problem__in=discord_api.UNREACHABLE).first()
    return f"We could not DM you on Discord: {discord_api.UNREACHABLE[row.problem][1]}" if row else ""


def forget_problem(user) -> None:
    """A fresh Discord login (which joins the server again): the next note tries a DM again."""
    DiscordDM.objects.filter(user=user).update(problem=None, problem_at=None)


_MARKUP = re.compile(r"([\\*_~|`])")
_LINE_START = re.compile(r"^([#>-])", re.MULTILINE)


def escaped(text: str) -> str:
    """Text Discord shows as it is written: no bold, strike, spoiler, code, heading or quote from a name."""
    return _LINE_START.sub(r"\\\1", _MARKUP.sub(r"\\\1", text))


def message(note: Note) -> str:
    """The subject in bold, the text, the link: at most Discord's 2000 characters, the link always whole."""
    head = f"**{escaped(note.subject)}**\n"
    tail = f"\n{note.link}" if note.link else ""
    body = escaped(note.text)
    room = 2000 - len(head) - len(tail)
    if len(body) > room:
        body = body[: room - 1].rstrip("\\") + "…"
    return head + body + tail


def nonce(uid) -> str:
    """Discord's nonce (at most 25 characters) from the delivery's id: a resend in the next minutes of the
    same delivery is returned by Discord, not posted again."""
    return str(uid).replace("-", "")[:25]


def deliver(user, note: Note, uid) -> Outcome:
    """DM the note. Discord's refusals for this player are an Outcome with why (and kept for their page);
    Down and RateLimited (temporary) are raised for the outbox to retry."""
    why = can_reach(user)
    if why:
        return Outcome(NAME, False, why)
    account = _account(user)
    row = _row(user, account)
    bot = discord_api.client()
    try:
        try:
            if not row.channel_id:
                row.channel_id = bot.open_dm(account.uid)
                row.save(update_fields=["channel_id"])
            bot.send(row.channel_id, message(note), nonce=nonce(uid))
        except discord_api.Refused as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise
            # The channel kept from before is gone on Discord's side: open it again, once.
            row.channel_id = bot.open_dm(account.uid)
            row.save(update_fields=["channel_id"])
            bot.send(row.channel_id, message(note), nonce=nonce(uid))
    except discord_api.Unreachable as exc:
        row.problem, row.problem_at = exc.code, timezone.now()
        row.save(update_fields=["problem", "problem_at"])
        return Outcome(NAME, False, exc.why)
    except discord_api.Refused as exc:
        log.error("Discord refused the bot's DM to user %s: %s", user.pk, exc)
        return Outcome(NAME, False, "the site's Discord bot was refused (its admin sees why in the log)")
    if row.problem is not None:
        row.problem, row.problem_at = None, None
        row.save(update_fields=["problem", "problem_at"])
    return Outcome(NAME, True)
