"""`{% push_devices %}`: the account page's list of the player's devices that take notifications, with the
button that adds this one (templates/platform/push_devices.html, also what the device routes answer htmx)."""

from __future__ import annotations

from django import template

from ..reach import vapid
from ..services.push_devices import devices_of

register = template.Library()


@register.inclusion_tag("platform/push_devices.html", takes_context=True)
def push_devices(context):
    request = context["request"]
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "devices": devices_of(request.user),
        "push_key": vapid.public_key(),
    }
