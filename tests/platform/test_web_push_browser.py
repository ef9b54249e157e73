"""The account page in Chromium: the service worker registers with scope /, the manifest is linked and valid,
and "Allow notifications on this device" hands the browser's subscription to the site, which lists the device
and pushes it a test through the stand-in push service.

Headless Chromium has no push service of its own (its `pushManager.subscribe` fails with "push service not
available"), so the page's `PushManager.subscribe` is replaced by one answering the subscription a browser
would make (the stand-in's device keys), and the test checks it was asked with the site's VAPID public key.
Everything else is the real page, the real service worker registration and the real routes.
"""

from __future__ import annotations

import json

import pytest
import responses
from django.urls import reverse
from playwright.sync_api import expect

from games.platform.models import PushSubscription
from games.platform.reach import vapid
from tests.platform.push_standin import PushService, unb64

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAKE_SUBSCRIBE = """
const subscription = { toJSON: function () { return %s; } };
PushManager.prototype.getSubscription = function () {
  return Promise.resolve(sessionStorage.getItem("asked-with") ? subscription : null);
};
PushManager.prototype.subscribe = function (options) {
  sessionStorage.setItem("asked-with", Array.from(new Uint8Array(options.applicationServerKey)).join(","));
  return Promise.resolve(subscription);
};
"""


def test_the_account_page_registers_the_worker_and_subscribes_this_device(
    alice, page_as, live_server, settings
):
    public, private = vapid.new_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:hosts@genius.example.org"
    service = PushService(public)
    device = service.device("alice-chromium")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add_passthru(live_server.url)
        service.serve(mock)
        page = page_as(alice)
        page.context.grant_permissions(["notifications"], origin=live_server.url)
        page.add_init_script(FAKE_SUBSCRIBE % json.dumps(device.subscription()))
        page.goto(live_server.url + reverse("profile"))

        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == live_server.url + "/"
        assert page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r && !!r.active)")
        href = page.get_attribute('link[rel="manifest"]', "href")
        manifest = page.evaluate("url => fetch(url).then(r => r.json())", href)
        assert (manifest["display"], manifest["start_url"]) == ("standalone", "/")
        for icon in manifest["icons"]:
            kind = page.evaluate("url => fetch(url).then(r => r.headers.get('content-type'))", icon["src"])
            assert kind == "image/png", icon

        page.get_by_role("button", name="Allow notifications on this device").click()
        expect(page.locator(".push-device-list")).to_contain_text("Chrome on Linux")
        asked = bytes(int(b) for b in page.evaluate("sessionStorage.getItem('asked-with')").split(","))
        assert asked == unb64(public), "subscribed with the site's VAPID public key"
        assert PushSubscription.objects.get().endpoint == device.endpoint
        expect(page.locator("#push-state")).to_have_text("This device takes notifications.")

        page.get_by_role("button", name="Send me a test").click()
        expect(page.locator("#push-devices")).to_contain_text("Sent to Chrome on Linux")
    assert [p.note["title"] for p in service.received] == ["A test from genius"] and service.problems == []
