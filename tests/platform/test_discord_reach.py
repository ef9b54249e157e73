"""Discord DMs from the site's bot (issue 30.1), against a local stand-in for Discord's REST API: the calls
are checked there, its rate limits are kept (no call sooner than allowed, on the test's clock, never the
wall clock), its refusals become words a player and a host read, and nothing goes out without a bot token."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import responses

from games.platform import discord_api
from tests.platform.discord_rest_standin import BOT_TOKEN, GUILD_ID, DiscordRest, configure

NELLY_ID = "80351110224678912"


@pytest.fixture
def discord(settings):
    configure(settings)
    stand_in = DiscordRest()
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        yield stand_in


def bot(discord: DiscordRest, **kwargs) -> discord_api.Client:
    return discord_api.Client(BOT_TOKEN, sleep=discord.clock.sleep, clock=discord.clock, **kwargs)


def test_a_dm_is_opened_and_sent_mentioning_nobody(discord):
    client = bot(discord)
    channel = client.open_dm(NELLY_ID)
    client.send(channel, "**Round 2 is open**\n@everyone look", nonce="a" * 40)
    ((to, body, _),) = discord.messages
    assert to == DiscordRest.dm_channel(NELLY_ID)
    assert body["allowed_mentions"] == {"parse": []} and body["nonce"] == "a" * 25 and body["enforce_nonce"]


def test_the_same_nonce_twice_makes_one_message(discord):
    client = bot(discord)
    channel = client.open_dm(NELLY_ID)
    client.send(channel, "Your turn", nonce="delivery-1")
    client.send(channel, "Your turn", nonce="delivery-1")
    assert len(discord.messages) == 1


def test_an_empty_bucket_is_waited_out_and_no_call_comes_sooner_than_discord_allows(discord):
    client = bot(discord)
    channel = client.open_dm(NELLY_ID)
    for n in range(12):
        client.send(channel, f"message {n}")
    assert len(discord.messages) == 12
    assert discord.too_soon == [], "every call came after its bucket's reset"
    assert len(discord.clock.slept) == 2, "two waits: after the 5th and the 10th message"
    times = [at for _, _, at in discord.messages]
    assert times[5] - times[0] >= discord.window and times[10] - times[5] >= discord.window


def test_a_429_is_waited_out_for_its_retry_after_then_sent_once(discord):
    client = bot(discord)
    channel = client.open_dm(NELLY_ID)
    discord.limit_next("messages", retry_after=1.5)
    before = discord.clock()
    client.send(channel, "hello")
    assert discord.clock.slept == [1.5]
    ((_, _, sent_at),) = discord.messages
    assert sent_at - before >= 1.5


def test_a_global_429_holds_every_route(discord):
    client = bot(discord)
    discord.limit_next("dm", retry_after=2.0, is_global=True)
    channel = client.open_dm(NELLY_ID)  # waits 2 s, then opens
    assert discord.clock.slept == [2.0]
    discord.limit_next("messages", retry_after=3.0, is_global=True)
    client.send(channel, "x")
    assert discord.clock.slept == [2.0, 3.0]


def test_a_wait_longer_than_a_task_should_sleep_sends_it_back_to_the_outbox_until_then(discord):
    from games.platform.services.deliveries import Held

    client = bot(discord, max_wait=5)
    channel = client.open_dm(NELLY_ID)
    discord.limit_next("messages", retry_after=60)
    with pytest.raises(Held) as held:
        client.send(channel, "x")
    assert held.value.until == datetime.fromtimestamp(discord.clock() + 60, UTC)
    assert discord.messages == [] and discord.clock.slept == []
    # Another process (the cache is shared) asks nothing of Discord before then either.
    calls = len(discord.calls)
    with pytest.raises(discord_api.RateLimited):
        bot(discord, max_wait=5).send(channel, "x")
    assert len(discord.calls) == calls


@pytest.mark.parametrize(
    ("where", "code", "words"),
    [("closed", 50007, "DMs are closed"), ("strangers", 50278, "no Discord server")],
)
def test_discords_refusals_become_words(discord, where, code, words):
    getattr(discord, where).add(NELLY_ID)
    client = bot(discord)
    with pytest.raises(discord_api.Unreachable) as refused:
        client.send(client.open_dm(NELLY_ID), "x")
    assert refused.value.code == code and words in refused.value.why
    assert refused.value.yours.startswith("you")


def test_a_5xx_or_no_answer_is_temporary(settings):
    configure(settings)
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, f"{discord_api.API}/users/@me/channels", status=502)
        with pytest.raises(discord_api.Down):
            discord_api.client().open_dm(NELLY_ID)
    with responses.RequestsMock():  # nothing answers
        with pytest.raises(discord_api.Down):
            discord_api.client().open_dm(NELLY_ID)


def test_a_wrong_bot_token_is_refused_not_retried(settings):
    settings.DISCORD_BOT_TOKEN = "wrong"
    with responses.RequestsMock() as mock:
        mock.add(
            responses.POST,
            f"{discord_api.API}/users/@me/channels",
            status=401,
            json={"code": 0, "message": "401: Unauthorized"},
        )
        with pytest.raises(discord_api.Refused):
            discord_api.client().open_dm(NELLY_ID)


def test_adding_a_member_with_their_access_token(discord):
    discord.access_tokens[NELLY_ID] = "their-token"
    client = bot(discord)
    assert client.add_member(GUILD_ID, NELLY_ID, "their-token") is True
    assert client.add_member(GUILD_ID, NELLY_ID, "their-token") is False, "a member already: 204"
    assert NELLY_ID in discord.members


def test_without_a_bot_token_discord_is_off(settings):
    settings.DISCORD_BOT_TOKEN = ""
    assert not discord_api.configured()
