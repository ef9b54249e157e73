"""Web Push on the site's side of the browser: the service worker and the web app manifest (served from the
site's root, so the worker's scope is every page and the site can be added to a home screen), and a player's
own devices: the page's script subscribes this browser (static/platform/push.js), the account page lists
each device with a test and a remove button.

Every device route is the logged-in owner's alone: another's device id answers as no device at all (404),
and a visitor who is not logged in is refused (403 to a script, the login page to a form).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .kit import RulesError
from .models import PushSubscription
from .reach import push, vapid
from .services.push_devices import (
    device_forget,
    device_label,
    device_remove,
    device_renew,
    device_save,
    devices_of,
)


def _json_body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


@require_POST
def subscribe(request):
    """This browser's PushSubscription (its toJSON()) becomes one of the player's devices: 201 with the
    device, 400 with the field's error, 403 when push is off or nobody is logged in."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "Log in first."}, status=403)
    off = vapid.problem()
    if off:
        return JsonResponse({"detail": off}, status=403)
    body = _json_body(request)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    try:
        device = device_save(
            user=request.user,
            endpoint=body.get("endpoint", ""),
            p256dh=keys.get("p256dh", ""),
            auth=keys.get("auth", ""),
            label=device_label(request.headers.get("User-Agent", "")),
        )
    except RulesError as exc:
        return JsonResponse({exc.field: [exc.message]}, status=400)
    return JsonResponse({"id": device.pk, "label": device.label}, status=201)


@require_POST
def unsubscribe(request):
    """The browser turned its subscription off: its device goes too (204 either way)."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "Log in first."}, status=403)
    endpoint = _json_body(request).get("endpoint", "")
    if isinstance(endpoint, str) and endpoint:
        device_forget(user=request.user, endpoint=endpoint)
    return HttpResponse(status=204)


@csrf_exempt
@require_POST
def renew(request):
    """The service worker's new subscription in place of one the browser dropped (static/sw.js). Sent with no
    page, so with no CSRF token: the old endpoint, which only that browser and the site know, names the
    device, and nothing of it is answered (204 whether or not a device had it; 400 for an unusable one)."""
    body = _json_body(request)
    new = body.get("subscription") if isinstance(body.get("subscription"), dict) else {}
    keys = new.get("keys") if isinstance(new.get("keys"), dict) else {}
    old = body.get("old_endpoint")
    try:
        device_renew(
            old_endpoint=old if isinstance(old, str) else "",
            endpoint=new.get("endpoint", ""),
            p256dh=keys.get("p256dh", ""),
            auth=keys.get("auth", ""),
        )
    except RulesError as exc:
        return JsonResponse({exc.field: [exc.message]}, status=400)
    return HttpResponse(status=204)


def _devices_part(request, answer_for: int | None = None, answer: str = ""):
    context = {"devices": devices_of(request.user), "answer_for": answer_for, "answer": answer}
    return render(request, "platform/push_devices.html", {**context, "push_key": vapid.public_key()})


@login_required
@require_POST
def remove(request, device_id: int):
    device = device_remove(user=request.user, device_id=device_id)
    if device is None:
        raise Http404("No such device of yours.")
    words = f"Removed {device.label or 'the device'}: it gets no more notifications from the site."
    if request.htmx:
        return _devices_part(request, answer=words)
    messages.success(request, words)
    return redirect("profile")


@login_required
@require_POST
def test(request, device_id: int):
    """Push a test to one device now and answer what its push service said."""
    device = PushSubscription.objects.filter(user=request.user, pk=device_id).first()
    if device is None:
        raise Http404("No such device of yours.")
    off = vapid.problem()
    if off:
        words = off
    else:
        note = push.trial_note()
        data = push.payload(note)
        result, said, _ = push.answer(device, data, ttl=60, topic=push.topic("test"), urgency="high")
        label = device.label or "This device"
        words = {
            "sent": f"Sent to {label}: it should show within a few seconds. Nothing came? Check that the "
            "browser and the system allow its notifications.",
        }.get(result, f"Not sent to {label}: {said}.")
    if request.htmx:
        return _devices_part(request, answer_for=device_id, answer=words)
    messages.info(request, words)
    return redirect("profile")


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """static/sw.js from the site's root: a worker's scope can be no wider than where it is served from, and
    the header says so for browsers that check. Always revalidated, so a new worker reaches every browser."""
    path = finders.find("sw.js")
    if not path:
        raise Http404("No service worker.")
    with open(path, "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: what a phone needs to put the site on its home screen as an app."""
    body = {
        "name": "genius: The Genius games",
        "short_name": "genius",
        "description": "Play the community's The Genius games: rounds, live Death Matches and seasons.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f3a5f",
        "icons": [
            {"src": static(f"platform/icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
            for size in (192, 512)
        ]
        + [
            {
                "src": static("platform/icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            }
        ],
    }
    return HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
