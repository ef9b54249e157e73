"""A webhook of the kind "Discord channel" (issue 30.5): the admin form offers it and says where its URL comes
from, takes only a Discord webhook URL, and each public announcement goes to the channel in Discord's own
format (content, an embed linking to the game, mentions off), through the outbox, waiting as long as Discord
asks after a 429 (checked at the local stand-in for Discord). The signed JSON webhook stays for the rest."""

from __future__ import annotations

from datetime import timedelta

import pytest
import responses
import time_machine
from django.utils import timezone

from games.platform import outbox
from games.platform.models import Delivery, OutboxTask, Webhook
from games.platform.services.events import announcement_post
from tests.platform.discord_rest_standin import WEBHOOK_URL, DiscordRest

pytestmark = pytest.mark.django_db


@pytest.fixture
def discord(settings):
    settings.GENIUS_SITE_URL = "https://genius.example"
    stand_in = DiscordRest()
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        yield stand_in


def _admin_add(client, season, kind: str, url: str):
    return client.post(
        "/admin/platform/webhook/add/",
        {
            "season": season.id,
            "kind": kind,
            "url": url,
            "secret": "",
            "active": "on",
            "created_at_0": "2030-01-01",
            "created_at_1": "00:00:00",
        },
    )


def test_the_admin_form_offers_a_discord_channel_and_says_where_its_url_comes_from(client, hank):
    client.force_login(hank)
    page = client.get("/admin/platform/webhook/add/").content.decode()
    assert "Discord channel" in page and "Any other receiver (signed JSON)" in page
    assert "Integrations, Webhooks, New Webhook" in page and "Copy Webhook URL" in page


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.org/x",
        "https://discord.com/api/webhooks/123/abc",
        "https://discord.com.evil.example/api/webhooks/1180000000000000001/stand-in-webhook-token",
        "https://discord.com/channels/1180000000000000001/1180000000000000002",
    ],
)
def test_a_discord_webhook_takes_only_a_discord_webhook_url(client, hank, season, url):
    client.force_login(hank)
    response = _admin_add(client, season, "discord", url)
    assert response.status_code == 200
    assert "not a Discord channel webhook URL" in response.context["adminform"].form.errors["url"][0]
    assert not Webhook.objects.exists()


def test_the_admin_takes_a_discord_webhook_url(client, hank, season):
    client.force_login(hank)
    assert _admin_add(client, season, "discord", WEBHOOK_URL).status_code == 302
    assert Webhook.objects.get().kind == Webhook.Kind.DISCORD


def test_an_announcement_reaches_the_channel_in_discords_format(
    tally, discord, django_capture_on_commit_callbacks
):
    Webhook.objects.create(game=tally, kind=Webhook.Kind.DISCORD, url=WEBHOOK_URL, secret="ignored")
    with django_capture_on_commit_callbacks(execute=True):
        announcement_post(game=tally, text="Round 2 lasts 48 hours. @everyone", category="erratum")
    ((body, _),) = discord.webhook_posts  # the stand-in checked it holds only what Discord takes
    assert body["content"] == "Erratum: Round 2 lasts 48 hours. @everyone"
    assert body["allowed_mentions"] == {"parse": []}, "@everyone pings nobody"
    (embed,) = body["embeds"]
    assert embed["title"].startswith(tally.name)
    assert embed["url"] == f"https://genius.example/games/{tally.id}/"
    assert not OutboxTask.objects.exists()


def test_a_429_sends_the_post_back_to_the_outbox_for_exactly_the_wait_discord_asked(
    tally, discord, django_capture_on_commit_callbacks
):
    Webhook.objects.create(game=tally, kind=Webhook.Kind.DISCORD, url=WEBHOOK_URL)
    discord.limit_next("webhook", retry_after=30)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            announcement_post(game=tally, text="General: welcome.")
        (owed,) = OutboxTask.objects.all()
        assert owed.attempts == 0, "a wait Discord asked for is not a failure"
        assert owed.due_at == start + timedelta(seconds=30)
        assert Delivery.objects.get().claimed_by is None, "its claim is given back"
    assert discord.webhook_posts == []
    with time_machine.travel(start + timedelta(seconds=29), tick=False):
        assert outbox.relay() == 0, "not sooner than Discord allows"
    with time_machine.travel(start + timedelta(seconds=30), tick=False):
        assert outbox.relay() == 1
    assert len(discord.webhook_posts) == 1 and not OutboxTask.objects.exists()


def test_an_empty_bucket_holds_the_next_post_until_it_resets(
    tally, discord, django_capture_on_commit_callbacks
):
    discord.limit = 1  # Discord's headers say: nothing remains, reset after 2 s
    Webhook.objects.create(game=tally, kind=Webhook.Kind.DISCORD, url=WEBHOOK_URL)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        discord.clock.now = start.timestamp()
        with django_capture_on_commit_callbacks(execute=True):
            announcement_post(game=tally, text="One.")
            announcement_post(game=tally, text="Two.")
        assert len(discord.webhook_posts) == 1
        (owed,) = OutboxTask.objects.all()
        assert owed.due_at == start + timedelta(seconds=2)
    with time_machine.travel(start + timedelta(seconds=2), tick=False):
        discord.clock.now = (start + timedelta(seconds=2)).timestamp()
        assert outbox.relay() == 1
    assert [b["content"] for b, _ in discord.webhook_posts] == ["General: One.", "General: Two."]
    assert discord.too_soon == []


def test_the_signed_webhook_stays_for_other_receivers(tally, django_capture_on_commit_callbacks):
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, "https://hooks.example.org/x", status=204)
        Webhook.objects.create(game=tally, url="https://hooks.example.org/x", secret="s3cret")
        with django_capture_on_commit_callbacks(execute=True):
            announcement_post(game=tally, text="Hello.")
        (call,) = mock.calls
    assert call.request.headers["X-Genius-Signature"].startswith("sha256=")
    assert '"genius"' in call.request.body.decode(), "the site's own fields, for receivers that read them"


def test_a_webhook_already_pointed_at_discord_becomes_a_discord_channel(season):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.platform.migrations.0022_discord")
    to_discord = Webhook.objects.create(season=season, url=WEBHOOK_URL)
    elsewhere = Webhook.objects.create(season=season, url="https://hooks.example.org/discord")
    migration.discord_urls_are_discord_channels(apps, None)
    to_discord.refresh_from_db()
    elsewhere.refresh_from_db()
    assert to_discord.kind == Webhook.Kind.DISCORD and elsewhere.kind == Webhook.Kind.SIGNED
