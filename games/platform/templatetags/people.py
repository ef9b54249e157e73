"""Template words for people: `{{ user|shown_name }}`, `{{ time|when }}` and the viewer's zone."""

from __future__ import annotations

from django import template

from .. import people, wording, zones

register = template.Library()


@register.filter
def shown_name(user) -> str:
    return people.shown_name(user)


@register.filter
def own_name(user) -> str:
    return people.own_name(user) if user.is_authenticated else ""


@register.filter
def when(value):
    """<time> with the UTC instant (the page's script rewrites it in the viewer's zone) and, as text, the
    time in the active zone with the zone named."""
    return wording.time_html(value)


@register.filter
def local(value) -> str:
    """The time as text in the active zone, named: "3 Nov 2026, 14:05 (Europe/Berlin)"."""
    return zones.local_text(value)


@register.simple_tag(takes_context=True)
def chosen_zone(context) -> str:
    """The logged-in viewer's zone for the page's script; "" while they have none (it sends the
    browser's)."""
    request = context.get("request")
    return people.zone_chosen(getattr(request, "user", None))
