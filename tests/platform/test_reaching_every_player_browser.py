"""Issue 30's "Done means", in Chromium: ten players join a season from an invitation's link, three reachable
only by Discord, three only by push, three by email and one by nothing. A round's reminder (the sweep at its
lead) and the host's "Remind those missing" reach each of the nine by their way exactly once, checked where
it arrives: the Discord REST stand-in's DMs, the push stand-in's decrypted pushes, Django's mail outbox, and
the Delivery rows; running the relay and the task again sends nothing more. The answer to the host and the
console's seat table name the one the site cannot reach. Then a live match: the player watching its page is
told nothing of their turn, the other exactly once by their way.

The Discord players sign up with no email and press "Connect Discord" on their account page: the trip to
Discord's consent page is answered by the OAuth stand-in (tests/platform/discord_standin.py), as in
tests/platform/test_accounts_browser.py, and the bot's calls by the REST stand-in. The push players allow
notifications on their account page as tests/platform/test_web_push_browser.py does (the browser's subscribe
replaced by one answering the stand-in's device keys).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import timedelta

import pytest
import responses
import time_machine
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games.platform import outbox, presence, tasks
from games.platform.models import Delivery, OutboxTask
from games.platform.people import label
from games.platform.reach import vapid
from games.platform.services import games as game_services
from games.platform.services.invitations import invitation_create
from games.platform.services.leads import reminder_lead
from games.platform.services.live import action_apply
from tests.conftest import seat_of
from tests.platform import discord_standin
from tests.platform.discord_rest_standin import GUILD_ID, DiscordRest, configure
from tests.platform.push_standin import PushService
from tests.platform.test_season_from_an_empty_site_browser import PASSWORD
from tests.platform.test_web_push_browser import FAKE_SUBSCRIBE
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DISCORD = ("ann", "ben", "cat")
PUSH = ("dan", "eve", "fay")
EMAIL = ("gus", "hal", "joe")
NOBODY = "ivy"
PLAYERS = (*DISCORD, *PUSH, *EMAIL, NOBODY)
WAY = {**dict.fromkeys(DISCORD, "discord"), **dict.fromkeys(PUSH, "push"), **dict.fromkeys(EMAIL, "email")}


def joins(page, link: str, name: str, email: str) -> None:
    """As test_season_from_an_empty_site_browser.a_player_joins, the address given or left empty."""
    page.goto(link)
    page.click("text=Create an account and join")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=You are a player of Season 1")


def connects_discord(page, url: str, oauth: discord_standin.Discord, discord: DiscordRest, uid: str) -> None:
    """The account page's "Connect Discord", accepted at the stand-in as the Discord user `uid`."""
    oauth.user = {"id": uid, "username": f"discord-{uid[-1]}", "global_name": None, "discriminator": "0"}
    discord.access_tokens[uid] = "stand-in-access"  # the token the OAuth stand-in hands out
    page.goto(url + reverse("profile"))
    page.click("text=Connect Discord")
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    page.fill("input[name=password]", PASSWORD)
    page.click("form.card button[type=submit]")
    page.wait_for_selector("text=Connected to Discord as")


class Arrivals:
    """What reached whom, read where it arrived: {name: Counter of (way, subject)}."""

    def __init__(self, discord: DiscordRest, push: PushService):
        self.discord, self.push = discord, push
        self.ids = {SocialAccount.objects.get(user__username=n).uid: n for n in DISCORD}

    def now(self) -> dict[str, Counter]:
        got = {name: Counter() for name in PLAYERS}
        for channel, body, _ in self.discord.messages:
            got[self.ids[channel[1:]]]["discord", body["content"].split("\n")[0].strip("*")] += 1
        for push in self.push.received:
            got[push.device]["push", push.note["title"]] += 1
        for message in mail.outbox:
            got[message.to[0].split("@")[0]]["email", message.subject] += 1
        return got


def once_each(subject: str) -> dict[str, Counter]:
    """Each player but ivy, once by their way."""
    return {name: Counter({(WAY[name], subject): 1}) if name in WAY else Counter() for name in PLAYERS}


def test_every_player_is_reached_by_their_way_once_and_the_host_told_who_cannot_be(
    live_server, page_as, settings, season, hank
):
    url = live_server.url
    configure(settings)
    discord_standin.configure(settings)
    oauth = discord_standin.Discord(user={})
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid.new_pair()
    settings.VAPID_SUBJECT = "mailto:hosts@genius.example.org"
    discord = DiscordRest()
    push = PushService(settings.VAPID_PUBLIC_KEY)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add_passthru(url)
        discord.serve(mock)
        oauth.serve(mock)
        push.serve(mock)

        def consent(route):  # the browser's trip to Discord's consent page: accepted, straight back
            route.fulfill(status=302, headers={"Location": oauth.authorize(route.request.url)})

        # Ten players join from the invitation's link; only three give an address.
        link = url + reverse("join", args=[invitation_create(season=season, actor=hank).token])
        pages = {}
        for name in PLAYERS:
            pages[name] = page = page_as(None, width=390)
            page.route("https://discord.com/**", consent)
            if name in PUSH:
                page.context.grant_permissions(["notifications"], origin=url)
                page.add_init_script(FAKE_SUBSCRIBE % json.dumps(push.device(name).subscription()))
            joins(page, link, name, f"{name}@example.com" if name in EMAIL else "")
        users = {u.username: u for u in get_user_model().objects.filter(username__in=PLAYERS)}
        for n, name in enumerate(DISCORD):
            connects_discord(pages[name], url, oauth, discord, f"8035111022467891{n}")
        assert SocialAccount.objects.filter(user__username__in=DISCORD).count() == 3
        assert len(discord.members) == 3, "each joined the community's server, sharing it with the bot"
        assert all(path.startswith(f"/guilds/{GUILD_ID}/") for m, path, _ in discord.calls if m == "PUT")
        for name in PUSH:
            page = pages[name]
            page.goto(url + reverse("profile"))
            page.get_by_role("button", name="Allow notifications on this device").click()
            expect(page.locator("#push-state")).to_have_text("This device takes notifications.")
        assert sorted(m.to[0] for m in mail.outbox) == [f"{n}@example.com" for n in EMAIL]  # to confirm it
        mail.outbox.clear()
        arrivals = Arrivals(discord, push)

        # A day-long round of the ten: the sweep at its lead (3 h before it closes) reminds each once.
        game = game_services.game_create(
            season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank,
            settings={"window_minutes": 24 * 60},
        )  # fmt: skip
        for name in PLAYERS:
            game_services.game_seat(game=game, user=users[name], actor=hank)
        game_services.game_start(game=game, actor=hank)
        rnd = game.rounds.get(number=0)
        lead = reminder_lead(timedelta(hours=24))
        assert sweep(now=rnd.closes_at - lead - timedelta(minutes=1))["reminders"] == 0
        sweep(now=rnd.closes_at - lead)
        assert arrivals.now() == once_each("Tally: Round 0 closes soon")
        sweep(now=rnd.closes_at - lead + timedelta(minutes=5))  # the next sweep: told already
        assert arrivals.now() == once_each("Tally: Round 0 closes soon")

        # The host's "Remind those missing" on the game's console: each once more, and the answer says how.
        host = page_as(hank, width=1280)
        console = f"{url}/admin/platform/game/{game.pk}/change/"
        host.goto(console)
        expect(host.locator("tr", has_text=NOBODY).locator(".unreachable")).to_have_text(
            "the site has no way to reach them: tell them yourself"
        )
        assert host.locator(".unreachable").count() == 1, "only ivy is marked"
        host.get_by_role("button", name="Remind those missing").click()
        expect(host.locator(".messagelist")).to_contain_text(f"{NOBODY}: no way to reach them")
        said = host.locator(".messagelist").inner_text()
        named = {u.username: label(u) for u in get_user_model().objects.select_related("profile")}
        assert named["ann"] == "discord-0 (ann)", "named as they go by: the name Discord gave"
        how = {"discord": "discord direct message", "push": "push notification", "email": "email"}
        for name, way in WAY.items():
            assert f"{named[name]}: {how[way]} sent" in said, said
        nothing = "no Discord account connected, no device allows notifications, no email address"
        assert f"{NOBODY}: no way to reach them: {nothing}. Tell them yourself" in said, said
        got = arrivals.now()
        assert got == {n: c + c for n, c in once_each("Tally: Round 0 closes soon").items()}
        assert not OutboxTask.objects.exists(), "the press told everyone it could: nothing left owed"

        # A duplicate of each task, and the relay again: nothing more goes.
        ids = [users[n].pk for n in PLAYERS]
        pressed = f"reminder:{rnd.pk}:host:1"
        assert tasks.send_reminder(rnd.pk, ids, pressed) == 9
        assert tasks.send_reminder(rnd.pk, ids) == 9
        assert outbox.relay() == 0
        assert arrivals.now() == got
        # One Delivery per reminder, player and the way that reached them (the key is unique: never two).
        sent = Delivery.objects.filter(key__startswith=f"reminder:{rnd.pk}:", sent_at__isnull=False)
        assert set(sent.values_list("key", flat=True)) == {
            f"reminder:{rnd.pk}:{press}{users[name].pk}:{how}"
            for press in ("", "host:1:")
            for name, how in WAY.items()
        }
        assert not Delivery.objects.filter(sent_at=None).exists()

        # A live match: ann (Discord) watches its page, dan (push) does not.
        duel = game_services.game_create(
            season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
        )
        for name in ("ann", "dan"):
            game_services.game_seat(game=duel, user=users[name], actor=hank)
        game_services.game_start(game=duel, actor=hank)
        ann = pages["ann"]
        ann.goto(url + reverse("game", args=[duel.pk]))
        start = timezone.now()
        all_here(duel, now=start)  # ann's turn first
        ann.wait_for_function("() => document.visibilityState === 'visible'")
        for _ in range(50):
            if presence.watching(users["ann"].pk, duel.pk):
                break
            ann.wait_for_timeout(100)
        assert presence.watching(users["ann"].pk, duel.pk), "her page says it is in view"
        before = arrivals.now()

        def relay_after_the_delay(since):
            with time_machine.travel(since + timedelta(seconds=11), tick=False):
                outbox.relay()

        relay_after_the_delay(start)
        assert arrivals.now() == before, "ann watches: no 'your turn' for her"
        moved = timezone.now()
        action_apply(seat=seat_of(duel, users["ann"]), payload={"say": 1})
        relay_after_the_delay(moved)
        assert arrivals.now()["dan"] - before["dan"] == Counter({("push", "Duel: your turn"): 1})
        moved = timezone.now()
        action_apply(seat=seat_of(duel, users["dan"]), payload={"say": 1})  # ann's turn again
        relay_after_the_delay(moved)
        relay_after_the_delay(moved)
        after = arrivals.now()
        assert after["ann"] == before["ann"], "ann watches: nothing, however often her turn comes"
        assert after["dan"] - before["dan"] == Counter({("push", "Duel: your turn"): 1})
        assert {n: after[n] for n in PLAYERS if n not in ("ann", "dan")} == {
            n: before[n] for n in PLAYERS if n not in ("ann", "dan")
        }
        assert not OutboxTask.objects.filter(name="notify_your_turn").exists()
    assert push.problems == [] and discord.too_soon == []
