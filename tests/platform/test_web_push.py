"""Web Push (issue 30.1): a player's devices subscribe from the account page, each push is encrypted to its
device and signed with the site's VAPID key, a device the push service calls gone is deleted, and without
VAPID keys nothing is sent. The pushes go to a local stand-in push service (push_standin.py) that checks the
VAPID header and decrypts each body with the device's own keys."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
import responses
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.platform.models import PushSubscription
from games.platform.reach import push, vapid
from games.platform.reach.note import Note
from games.platform.services.deliveries import Held
from games.platform.services.push_devices import device_save
from tests.platform.push_standin import PushService

pytestmark = pytest.mark.django_db

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile"
)


@pytest.fixture
def keys(settings):
    public, private = vapid.new_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:hosts@genius.example.org"
    return public


@pytest.fixture
def service(keys):
    standin = PushService(keys)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        standin.serve(mock)
        yield standin
    assert standin.problems == [], "the stand-in refused a push the site sent"


def logged_in(user, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def subscribed(user, device) -> PushSubscription:
    sub = device.subscription()
    return device_save(user=user, endpoint=sub["endpoint"], label="Firefox on Linux", **sub["keys"])


def note(
    kind="reminder", text="Round 2 of Horse Race closes at 18:00 (Europe/Berlin). You have not bid yet."
):
    return Note(
        kind=kind,
        subject="Horse Race: round 2 closes in 3 hours",
        text=text,
        link="https://g.example/games/7/",
    )


# The routes: only the logged-in player, only their own devices, CSRF-protected.


def test_the_page_script_subscribes_this_device_with_its_csrf_token(alice, service):
    device = service.device("alice-phone")
    client = logged_in(alice, csrf=True)
    page = client.get(reverse("profile"))
    assert "Allow notifications on this device" in page.content.decode()
    body = json.dumps(device.subscription())
    url = reverse("push-subscribe")
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403 and not PushSubscription.objects.exists(), "no CSRF token, no device"
    token = page.cookies["csrftoken"].value
    made = client.post(
        url, body, content_type="application/json", headers={"X-CSRFToken": token, "User-Agent": PHONE_UA}
    )
    assert made.status_code == 201, made.content
    saved = PushSubscription.objects.get()
    assert (saved.user, saved.endpoint, saved.label) == (alice, device.endpoint, "Chrome on Android")
    assert made.json() == {"id": saved.pk, "label": "Chrome on Android"}
    again = client.post(url, body, content_type="application/json", headers={"X-CSRFToken": token})
    assert again.status_code == 201 and PushSubscription.objects.count() == 1, (
        "the same browser is one device"
    )


def test_an_anonymous_visitor_subscribes_nothing_and_reaches_no_device(alice, service):
    device = service.device("alice-phone")
    mine = subscribed(alice, device)
    anonymous = Client()
    body = json.dumps(device.subscription())
    assert anonymous.post(reverse("push-subscribe"), body, content_type="application/json").status_code == 403
    gone = anonymous.post(
        reverse("push-unsubscribe"), json.dumps({"endpoint": device.endpoint}), "application/json"
    )
    assert gone.status_code == 403
    for name in ("push-remove", "push-test"):
        answer = anonymous.post(reverse(name, args=[mine.pk]))
        assert answer.status_code == 302 and answer.url.startswith(reverse("login"))
    assert PushSubscription.objects.filter(pk=mine.pk).exists() and service.received == []


def test_nobody_sees_tests_or_removes_another_players_device(alice, bob, service):
    alices = subscribed(alice, service.device("alice-phone"))
    bobs_page = logged_in(bob)
    for name in ("push-remove", "push-test"):
        assert bobs_page.post(reverse(name, args=[alices.pk])).status_code == 404
        assert (
            bobs_page.post(reverse(name, args=[alices.pk]), headers={"HX-Request": "true"}).status_code == 404
        )
    gone = bobs_page.post(
        reverse("push-unsubscribe"), json.dumps({"endpoint": alices.endpoint}), "application/json"
    )
    assert gone.status_code == 204 and PushSubscription.objects.filter(pk=alices.pk).exists()
    page = bobs_page.get(reverse("profile")).content.decode()
    assert "Firefox on Linux" not in page and f"push-device-{alices.pk}" not in page
    assert "No device of yours takes notifications yet." in page
    assert service.received == []


def test_the_account_page_lists_every_device_in_one_query(alice, service, django_assert_max_num_queries):
    subscribed(alice, service.device("alice-a"))
    client = logged_in(alice)
    client.get(reverse("profile"))
    with CaptureQueriesContext(connection) as one_device:
        client.get(reverse("profile"))
    for name in ("b", "c"):
        subscribed(alice, service.device(f"alice-{name}"))
    with django_assert_max_num_queries(len(one_device)):
        page = client.get(reverse("profile")).content.decode()
    assert page.count(">Send me a test</button>") == 3 and page.count(">Remove</button>") == 3
    assert 'aria-label="Remove Firefox on Linux"' in page, "each button names its device to a screen reader"


def test_an_address_the_server_must_not_post_to_is_refused_next_to_its_field(alice, service):
    client = logged_in(alice)
    sub = service.device("alice-phone").subscription()
    for endpoint in ("http://push.example.test/x", "https://127.0.0.1/x", "https://10.0.0.8/x", "not a url"):
        answer = client.post(
            reverse("push-subscribe"), json.dumps({**sub, "endpoint": endpoint}), "application/json"
        )
        assert answer.status_code == 400 and list(answer.json()) == ["endpoint"], endpoint
    bad_key = {**sub, "keys": {**sub["keys"], "p256dh": "AAAA"}}
    answer = client.post(reverse("push-subscribe"), json.dumps(bad_key), "application/json")
    assert answer.json() == {"p256dh": ["This browser's push key is not a P-256 public key."]}
    assert client.post(reverse("push-subscribe"), "[1]", "application/json").status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_player_has_at_most_twenty_devices(alice, service):
    for n in range(20):
        subscribed(alice, service.device(f"alice-{n}"))
    more = service.device("alice-one-more").subscription()
    answer = logged_in(alice).post(reverse("push-subscribe"), json.dumps(more), "application/json")
    assert answer.status_code == 400 and answer.json()["endpoint"] == [
        "20 of your devices take notifications already: remove one on your account page first."
    ]
    again = logged_in(alice).post(
        reverse("push-subscribe"), json.dumps(service.devices["alice-3"].subscription()), "application/json"
    )
    assert again.status_code == 201, "a device already listed subscribes again (new keys)"


def test_an_endpoint_that_leads_inside_the_network_is_not_posted_to(alice, keys):
    """Saved before the check, or a name that now resolves inside: the hardened session refuses to connect
    (no stand-in here: a request that did go out would fail to connect instead, and say so differently)."""
    sub = PushService(keys).device("x").subscription()["keys"]
    PushSubscription.objects.create(user=alice, endpoint="https://localhost:9/push", **sub)
    outcome = push.deliver(alice, note(), "uid-1")
    assert outcome.reached is False and "leads inside the server's network" in outcome.why


def test_a_browser_another_account_subscribes_stops_getting_the_first_ones_notes(alice, bob, service):
    laptop = service.device("shared-laptop")
    subscribed(alice, laptop)
    subscribed(bob, laptop)
    assert push.can_reach(alice) == "no device allows notifications"
    assert push.deliver(alice, note(), "uid-1").reached is False and service.received == []


def test_removing_a_device_and_unsubscribing_the_browser_drop_it(alice, service):
    phone, laptop = service.device("alice-phone"), service.device("alice-laptop")
    first, _ = subscribed(alice, phone), subscribed(alice, laptop)
    client = logged_in(alice)
    answer = client.post(reverse("push-remove", args=[first.pk]), headers={"HX-Request": "true"})
    text = answer.content.decode()
    assert answer.status_code == 200 and "Removed Firefox on Linux: it gets no more notifications" in text
    assert 'id="push-devices"' in text and f"push-device-{first.pk}" not in text
    gone = client.post(
        reverse("push-unsubscribe"), json.dumps({"endpoint": laptop.endpoint}), "application/json"
    )
    assert gone.status_code == 204 and not PushSubscription.objects.exists()


def test_a_subscription_the_browser_replaced_keeps_its_device_and_owner(alice, service):
    """static/sw.js on `pushsubscriptionchange`: no page, no CSRF token, the old endpoint names the device."""
    old, new = service.device("alice-phone"), service.device("alice-phone-renewed")
    subscribed(alice, old)
    worker = Client(enforce_csrf_checks=True)  # a service worker's fetch: no session needed, no token
    url = reverse("push-renew")
    body = {"old_endpoint": old.endpoint, "subscription": new.subscription()}
    assert worker.post(url, json.dumps(body), "application/json").status_code == 204
    device = PushSubscription.objects.get()
    assert (device.user, device.endpoint, device.label) == (alice, new.endpoint, "Firefox on Linux")
    assert push.deliver(alice, note(), "uid-1").reached
    assert [p.device for p in service.received] == ["alice-phone-renewed"], "decrypted with the new keys"


def test_renewing_needs_the_old_endpoint_and_a_usable_new_one(alice, service):
    phone = service.device("alice-phone")
    subscribed(alice, phone)
    stranger = service.device("stranger")
    worker, url = Client(enforce_csrf_checks=True), reverse("push-renew")
    guess = {"old_endpoint": phone.endpoint + "x", "subscription": stranger.subscription()}
    assert worker.post(url, json.dumps(guess), "application/json").status_code == 204
    bad = {
        "old_endpoint": phone.endpoint,
        "subscription": {**stranger.subscription(), "endpoint": "https://10.1.1.1/x"},
    }
    assert worker.post(url, json.dumps(bad), "application/json").status_code == 400
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone.endpoint]


# Delivery: encrypted to each device, the note alone, the dead devices dropped.


def test_each_device_decrypts_the_note_and_nothing_else(alice, service):
    phone, laptop = service.device("alice-phone"), service.device("alice-laptop")
    subscribed(alice, phone), subscribed(alice, laptop)
    assert push.can_reach(alice) == ""
    outcome = push.deliver(alice, note(), "uid-1")
    assert (outcome.channel, outcome.reached) == ("push", True)
    assert sorted(p.device for p in service.received) == ["alice-laptop", "alice-phone"]
    link = "https://g.example/games/7/"
    for got in service.received:
        assert got.note == {
            "title": "Horse Race: round 2 closes in 3 hours",
            "body": "Round 2 of Horse Race closes at 18:00 (Europe/Berlin). You have not bid yet.",
            "url": link,
            "tag": f"reminder:{link}",
        }
        assert got.headers["Urgency"] == "high" and got.headers["TTL"] == str(push.TTL_SECONDS["reminder"])
        assert got.headers["Topic"] == push.topic(f"reminder:{link}") and len(got.headers["Topic"]) <= 32
    assert all(d.last_used_at for d in PushSubscription.objects.all())


def test_a_long_note_is_shortened_to_fit_a_push(alice, service):
    subscribed(alice, service.device("alice-phone"))
    assert push.deliver(alice, note(kind="results", text="Ünïcödé " * 2000), "uid-1").reached
    body = service.received[0].note["body"]
    sent = json.dumps(service.received[0].note, ensure_ascii=False).encode()
    assert body.endswith("…") and len(sent) <= push.MAX_PAYLOAD_BYTES


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_its_push_service_calls_gone_is_deleted(alice, service, status):
    phone, old = service.device("alice-phone"), service.device("alice-old-phone")
    subscribed(alice, phone), subscribed(alice, old)
    service.answer(old, status)
    assert push.deliver(alice, note(), "uid-1").reached, "the phone that is left took it"
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone.endpoint]
    service.answer(phone, status)
    outcome = push.deliver(alice, note(), "uid-2")
    assert (outcome.reached, outcome.why) == (
        False,
        "the devices that allowed notifications are gone (removed)",
    )
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("status", [500, 503])
def test_a_push_service_that_is_down_is_tried_again_later_and_the_device_kept(alice, service, status):
    phone = service.device("alice-phone")
    subscribed(alice, phone)
    service.answer(phone, status)
    with pytest.raises(push.PushLater, match=f"Firefox on Linux: its push service is down \\({status}\\)"):
        push.deliver(alice, note(), "uid-1")
    assert PushSubscription.objects.filter(endpoint=phone.endpoint).exists()


def test_a_push_service_that_asks_to_slow_down_gets_the_note_when_it_said(alice, service):
    phone = service.device("alice-phone")
    subscribed(alice, phone)
    service.answer(phone, 429)  # with Retry-After: 30
    before = timezone.now()
    with pytest.raises(Held) as held:
        push.deliver(alice, note(), "uid-1")
    assert isinstance(held.value, push.PushRateLimited)
    assert before + timedelta(seconds=29) <= held.value.until <= timezone.now() + timedelta(seconds=31)
    assert PushSubscription.objects.filter(endpoint=phone.endpoint).exists()


def test_one_device_that_took_the_note_is_enough(alice, service):
    phone, tablet = service.device("alice-phone"), service.device("alice-tablet")
    subscribed(alice, phone), subscribed(alice, tablet)
    service.answer(tablet, 503)
    assert push.deliver(alice, note(), "uid-1").reached, (
        "not raised: a retry would show it twice on the phone"
    )
    assert [p.device for p in service.received] == ["alice-phone"]


def test_a_refused_key_is_not_reached_with_why_and_the_device_kept(alice, service):
    phone = service.device("alice-phone")
    subscribed(alice, phone)
    service.answer(phone, 403)
    outcome = push.deliver(alice, note(), "uid-1")
    assert outcome.reached is False and outcome.why.startswith(
        "Firefox on Linux: its push service refused the site's key (403)"
    )
    assert PushSubscription.objects.exists()


def test_without_vapid_keys_nothing_is_sent_and_the_page_says_so(alice, service, settings):
    subscribed(alice, service.device("alice-phone"))
    settings.VAPID_PRIVATE_KEY = ""
    why = "this site has not set up push notifications"
    assert push.can_reach(alice) == why
    assert push.deliver(alice, note(), "uid-1") == push.Outcome("push", False, why)
    client = logged_in(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "This site has not set up notifications" in page and "Allow notifications" not in page
    answer = client.post(
        reverse("push-subscribe"), json.dumps(service.device("x").subscription()), "application/json"
    )
    off = "Push notifications are off on this site (its VAPID keys are not set)."
    assert answer.status_code == 403 and answer.json() == {"detail": off}
    device = PushSubscription.objects.get()
    assert (
        client.post(reverse("push-test", args=[device.pk]), headers={"HX-Request": "true"}).status_code == 200
    )
    assert service.received == []


def test_keys_that_are_no_pair_turn_push_off(alice, service, settings):
    subscribed(alice, service.device("alice-phone"))
    settings.VAPID_PUBLIC_KEY = vapid.new_pair()[0]
    assert vapid.problem() == "VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY."
    assert push.can_reach(alice) == push.OFF
    settings.VAPID_PRIVATE_KEY = "not-a-key!"
    assert "not a base64url P-256 private key" in vapid.problem()
    assert push.deliver(alice, note(), "uid-1").reached is False
    assert service.received == []


def test_send_me_a_test_answers_what_the_push_service_said(alice, service):
    phone = service.device("alice-phone")
    device = subscribed(alice, phone)
    client = logged_in(alice)
    answer = client.post(
        reverse("push-test", args=[device.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "Sent to Firefox on Linux: it should show within a few seconds." in answer
    (got,) = service.received
    assert got.note["title"] == "A test from genius" and got.note["url"].endswith(reverse("profile"))
    service.answer(phone, 410)
    answer = client.post(reverse("push-test", args=[device.pk]))
    assert answer.status_code == 302
    told = [str(m) for m in answer.wsgi_request._messages]
    assert told == [
        "Not sent to Firefox on Linux: its push service says the device no longer takes "
        "notifications; it was removed."
    ]
    assert not PushSubscription.objects.exists()


def test_vapid_keys_prints_a_pair_the_site_takes(settings):
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines() if not line.startswith("#"))
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = (
        lines["VAPID_PUBLIC_KEY"],
        lines["VAPID_PRIVATE_KEY"],
    )
    settings.VAPID_SUBJECT = lines["VAPID_SUBJECT"]
    assert vapid.problem() == "" and vapid.public_key() == lines["VAPID_PUBLIC_KEY"]


# The service worker and the manifest, from the site's root.


def test_the_service_worker_is_served_from_the_root_for_scope_slash(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/" and "no-cache" in answer["Cache-Control"]
    assert b'addEventListener("push"' in answer.content and b"notificationclick" in answer.content
    assert b"pushsubscriptionchange" in answer.content and reverse("push-renew").encode() in answer.content


def test_the_manifest_names_the_site_and_its_icons_exist(client):
    answer = client.get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert (manifest["start_url"], manifest["display"], manifest["short_name"]) == (
        "/",
        "standalone",
        "genius",
    )
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        with open(path, "rb") as png:
            assert png.read(8) == b"\x89PNG\r\n\x1a\n"
    page = client.get(reverse("rules-index")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_retry_after_is_read_as_seconds_or_as_a_date():
    assert push._retry_after("120") == 120.0
    in_a_minute = (timezone.now() + timedelta(seconds=60)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert 55 <= push._retry_after(in_a_minute) <= 61
    assert push._retry_after("soon") is None and push._retry_after(None) is None
