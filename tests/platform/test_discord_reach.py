"""Discord DMs from the site's bot (issue 30.1), against a local stand-in for Discord's REST API: the calls
are checked there, its rate limits are kept (no call sooner than allowed, on the test's clock, never the
wall clock), its refusals become words a player and a host read, and nothing goes out without a bot token."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import responses

from games.platform import discord_api
from games.platform.reach.note import Note, Outcome
from tests.platform.discord_rest_standin import BOT_TOKEN, GUILD_ID, DiscordRest, configure

NELLY_ID = "80351110224678912"


@pytest.fixture
def discord(settings):
    configure(settings)
    stand_in = DiscordRest()
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        stand_in.mock = mock
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


# The Discord channel of games/platform/reach (issue 30.1).


@pytest.fixture
def nelly(make_user):
    from allauth.socialaccount.models import SocialAccount

    user = make_user("nelly")
    SocialAccount.objects.create(user=user, provider="discord", uid=NELLY_ID, extra_data={})
    return user


NOTE = Note(
    kind="reminder",
    subject="Tally: Round 2 closes at 18:00 CET",
    text="You have not picked yet. **Hurry** @everyone",
    link="https://genius.example/games/1/",
)


@pytest.mark.django_db
def test_a_note_reaches_a_player_by_dm_once_with_its_subject_text_and_link(discord, nelly):
    from games.platform.reach import discord as channel

    assert channel.can_reach(nelly) == ""
    outcome = channel.deliver(nelly, NOTE, uid="3f2a6c1e-0000-4000-8000-000000000001")
    assert outcome == Outcome("discord", True)
    again = channel.deliver(nelly, NOTE, uid="3f2a6c1e-0000-4000-8000-000000000001")
    assert again.reached
    ((to, body, _),) = discord.messages  # the retry's nonce made Discord return the first message
    assert to == DiscordRest.dm_channel(NELLY_ID)
    assert body["content"] == (
        "**Tally: Round 2 closes at 18:00 CET**\nYou have not picked yet. \\*\\*Hurry\\*\\* @everyone\n"
        "https://genius.example/games/1/"
    )
    assert len([c for c in discord.calls if c[1] == "/users/@me/channels"]) == 1, "the DM channel is kept"


@pytest.mark.django_db
def test_closed_dms_are_said_to_the_host_and_on_the_players_page_and_the_channel_stands_aside(discord, nelly):
    from games.platform.reach import discord as channel

    discord.closed.add(NELLY_ID)
    outcome = channel.deliver(nelly, NOTE, uid="u1")
    assert not outcome.reached and outcome.why == "their Discord DMs are closed to server members"
    page = "We could not DM you on Discord: your DMs are closed to server members"
    assert channel.last_problem(nelly) == page
    assert channel.can_reach(nelly) == "their Discord DMs are closed to server members"
    calls = len(discord.calls)
    assert not channel.deliver(nelly, NOTE, uid="u2").reached
    assert len(discord.calls) == calls, "no call to Discord while the refusal stands"
    # A fresh Discord login, and the DMs opened meanwhile: the next note goes, and the page forgets.
    channel.forget_problem(nelly)
    discord.closed.clear()
    assert channel.deliver(nelly, NOTE, uid="u3").reached
    assert channel.last_problem(nelly) == ""


@pytest.mark.django_db
def test_no_shared_server_is_said_in_words(discord, nelly):
    from games.platform.reach import discord as channel

    discord.strangers.add(NELLY_ID)
    assert channel.deliver(nelly, NOTE, uid="u1").why == "they share no Discord server with the site's bot"
    assert "not in the community's Discord server" in channel.last_problem(nelly)


@pytest.mark.django_db
def test_nothing_is_sent_without_a_bot_token_or_a_discord_account(discord, nelly, alice, settings):
    from games.platform.reach import discord as channel

    assert channel.can_reach(alice) == "no Discord account connected"
    assert not channel.deliver(alice, NOTE, uid="u1").reached
    settings.DISCORD_BOT_TOKEN = ""
    assert channel.can_reach(nelly) == "the site has no Discord bot"
    assert channel.deliver(nelly, NOTE, uid="u2") == Outcome("discord", False, "the site has no Discord bot")
    assert discord.calls == []


@pytest.mark.django_db
def test_discord_down_is_raised_for_the_outbox_to_retry_and_nothing_is_recorded(settings, nelly):
    from games.platform.reach import discord as channel

    configure(settings)
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, f"{discord_api.API}/users/@me/channels", status=503)
        with pytest.raises(discord_api.Down):
            channel.deliver(nelly, NOTE, uid="u1")
    assert channel.last_problem(nelly) == ""


def test_a_long_note_is_cut_keeping_its_link_whole():
    from games.platform.reach.discord import message

    text = message(Note("results", "S", "x" * 5000, "https://genius.example/games/1/results"))
    assert len(text) == 2000 and text.endswith("…\nhttps://genius.example/games/1/results")


# Joining the community's server on a Discord login (issue 30.1), with the OAuth stand-in.


@pytest.fixture
def oauth(settings, discord):
    """Discord's OAuth (discord_standin) beside its REST API (discord_rest_standin), on the same mock."""
    from tests.platform import discord_standin

    discord_standin.configure(settings)
    stand_in = discord_standin.Discord(user=dict(discord_standin.NELLY))
    stand_in.serve(discord.mock)
    discord.access_tokens[NELLY_ID] = "stand-in-access"  # the token the OAuth stand-in hands out
    return stand_in


def through_discord(client, oauth, **form):
    from django.urls import reverse

    start = client.post(reverse("discord_login"), form)
    assert "guilds.join" in start.url, "the login asks to join the community's server"
    return client.get(oauth.authorize(start.url))


@pytest.mark.django_db
def test_a_newcomer_who_signs_up_with_discord_joins_the_server_with_their_token(oauth, discord, season, hank):
    from allauth.socialaccount.models import SocialToken
    from django.test import Client
    from django.urls import reverse

    from games.platform.services.invitations import invitation_create

    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    client.get(reverse("join", args=[invitation.token]))
    assert through_discord(client, oauth).status_code == 302
    assert NELLY_ID in discord.members
    ((method, path, _),) = [c for c in discord.calls if c[0] == "PUT"]
    assert path == f"/guilds/{GUILD_ID}/members/{NELLY_ID}"
    assert not SocialToken.objects.exists(), "the token was used and dropped, not kept"


@pytest.mark.django_db
def test_connecting_discord_joins_the_server_and_a_later_login_clears_a_refusal(oauth, discord, alice):
    from allauth.socialaccount.models import SocialAccount
    from django.test import Client
    from django.urls import reverse

    from games.platform.reach import discord as channel

    client = Client()
    client.force_login(alice)
    through_discord(client, oauth, process="connect")
    client.post(reverse("account_reauthenticate"), {"password": "pw-alice"})
    assert SocialAccount.objects.get(provider="discord").user == alice
    assert NELLY_ID in discord.members
    discord.closed.add(NELLY_ID)
    assert not channel.deliver(alice, NOTE, uid="u1").reached
    assert channel.last_problem(alice)
    discord.closed.clear()
    assert through_discord(Client(), oauth).status_code == 302  # logs in with Discord again
    assert channel.last_problem(alice) == "" and channel.can_reach(alice) == ""
    puts = [c for c in discord.calls if c[0] == "PUT"]
    assert len(puts) == 2, "each Discord login joins (Discord answers 204 to a member)"


@pytest.mark.django_db
def test_a_discord_that_does_not_answer_does_not_stop_the_login(settings, season, hank):
    from django.test import Client
    from django.urls import reverse

    from games.platform.services.invitations import invitation_create
    from tests.platform import discord_standin

    configure(settings)
    discord_standin.configure(settings)
    oauth = discord_standin.Discord(user=dict(discord_standin.NELLY))
    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    client.get(reverse("join", args=[invitation.token]))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        oauth.serve(mock)
        mock.add(responses.PUT, f"{discord_api.API}/guilds/{GUILD_ID}/members/{NELLY_ID}", status=502)
        back = through_discord(client, oauth)
    assert back.status_code == 302 and client.session.get("_auth_user_id")


@pytest.mark.django_db
def test_without_a_bot_token_a_discord_login_calls_nothing_but_the_login(oauth, discord, settings, alice):
    from allauth.socialaccount.models import SocialAccount
    from django.test import Client

    settings.DISCORD_BOT_TOKEN = ""
    SocialAccount.objects.create(user=alice, provider="discord", uid=NELLY_ID, extra_data={})
    assert through_discord(Client(), oauth).status_code == 302
    assert discord.calls == []


def test_the_login_asks_guilds_join_only_when_a_server_is_set():
    import os
    import subprocess
    import sys

    read = "import genius.settings as s; print(s.SOCIALACCOUNT_PROVIDERS['discord']['SCOPE'])"
    env = {**os.environ, "DISCORD_GUILD_ID": GUILD_ID}
    given = subprocess.run([sys.executable, "-c", read], env=env, capture_output=True, text=True, check=True)
    assert given.stdout.strip() == "['identify', 'email', 'guilds.join']"
    env.pop("DISCORD_GUILD_ID")
    unset = subprocess.run([sys.executable, "-c", read], env=env, capture_output=True, text=True, check=True)
    assert unset.stdout.strip() == "['identify', 'email']"


@pytest.mark.django_db
def test_the_account_page_says_why_a_dm_could_not_reach_the_player(discord, nelly, settings):
    from django.test import Client
    from django.urls import reverse

    from games.platform.reach import discord as channel
    from tests.platform import discord_standin

    discord_standin.configure(settings)  # the Discord section shows when the login is set up
    client = Client()
    client.force_login(nelly)
    assert "We could not DM you" not in client.get(reverse("profile")).content.decode()
    discord.closed.add(NELLY_ID)
    channel.deliver(nelly, NOTE, uid="u1")
    page = client.get(reverse("profile")).content.decode()
    assert "We could not DM you on Discord: your DMs are closed to server members." in page


def test_a_call_that_meets_429_after_429_is_left_to_the_outbox(discord):
    client = bot(discord)
    for _ in range(discord_api.TRIES):
        discord.limit_next("dm", retry_after=0.5)
    with pytest.raises(discord_api.Down):
        client.open_dm(NELLY_ID)
    assert len(discord.calls) == discord_api.TRIES and discord.clock.slept == [0.5] * (discord_api.TRIES - 1)
