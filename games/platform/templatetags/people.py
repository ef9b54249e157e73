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


@register.simple_tag
def viewer_zone() -> str:
    return zones.zone_name()
