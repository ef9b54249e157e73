"""Every time a person reads is in their own zone, and says which zone that is.

`ZoneMiddleware` activates the viewer's zone for the request, so templates, form errors and messages show
times in it. It is looked up the first time a time is shown, not when the request arrives: the feed poll
that finds nothing new must stay one query, and reading the user would cost the session and the user.

`local_text(dt)` writes a time for people ("3 Nov 2026, 14:05 (Europe/Berlin)") in the active zone, or in
the zone given (an email to one person). Deadlines that count down stay absolute: the countdown carries the
UTC instant and the page's script counts to it.

A body kept in the page cache is shared by viewers in every zone: it is rendered in `LATER`, where each time
is a mark holding its instant, and `fill_times` writes the marks in the viewer's zone as the body is served.
So a page read without its script (or before it runs) says each time, the countdowns' deadlines included,
in the viewer's zone, named, like every page rendered for one viewer.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo

from django.utils import timezone

from .people import zone_of

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class ViewersZone(tzinfo):
    """A request's zone, found when first used. Each method hands over to the real ZoneInfo."""

    def __init__(self, request):
        self._request = request
        self._zone = None

    @property
    def zone(self):
        if self._zone is None:
            self._zone = zone_of(getattr(self._request, "user", None))
        return self._zone

    def utcoffset(self, dt):
        return self.zone.utcoffset(dt)

    def dst(self, dt):
        return self.zone.dst(dt)

    def tzname(self, dt):
        # Django names the active zone (for the database's date functions) by tzname(None).
        return self.zone.key if dt is None else self.zone.tzname(dt)

    def fromutc(self, dt):
        return self.zone.fromutc(dt.replace(tzinfo=self.zone)).replace(tzinfo=self)

    @property
    def key(self) -> str:
        return self.zone.key

    def __str__(self) -> str:
        return self.zone.key


class ZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(ViewersZone(request))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class Later(tzinfo):
    """The zone a shared body is rendered in: UTC to the template's date filters, a mark to `local_text`."""

    key = "UTC"

    def utcoffset(self, dt):
        return timedelta(0)

    def dst(self, dt):
        return timedelta(0)

    def tzname(self, dt):
        return "UTC"


LATER = Later()
MARK = re.compile("\x00time:([^\x00]+)\x00")


def fill_times(text: str, zone: tzinfo | None = None) -> str:
    """A body rendered in `LATER` with each time written in `zone` (default: the active one)."""
    if "\x00time:" not in text:
        return text
    return MARK.sub(lambda m: local_text(m.group(1), zone), text)


def zone_name(zone: tzinfo | None = None) -> str:
    zone = zone or timezone.get_current_timezone()
    return getattr(zone, "key", None) or str(zone)


def local_text(when: datetime | str | None, zone: tzinfo | None = None) -> str:
    """A time as people read it, in `zone` (default: the active one), with the zone named."""
    when = as_instant(when)
    if when is None:
        return ""
    zone = zone or timezone.get_current_timezone()
    if isinstance(zone, Later):
        return f"\x00time:{when.astimezone(UTC).isoformat()}\x00"
    local = when.astimezone(zone)
    return f"{local.day} {MONTHS[local.month - 1]} {local.year}, {local:%H:%M} ({zone_name(zone)})"


def as_instant(when: datetime | str | None) -> datetime | None:
    """A datetime or an ISO string (as the observation writes them), as an aware datetime."""
    if when in (None, ""):
        return None
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when)
        except ValueError:
            return None
    return when if timezone.is_aware(when) else when.replace(tzinfo=UTC)


def span_text(span: timedelta) -> str:
    """A length of time as people say it: "1 hour", "24 hours", "1 hour 30 minutes", "45 seconds"."""
    seconds = int(span.total_seconds())
    if seconds < 60:
        return _count(seconds, "second")
    hours, minutes = divmod(seconds // 60, 60)
    parts = [_count(hours, "hour")] if hours else []
    if minutes:
        parts.append(_count(minutes, "minute"))
    return " ".join(parts)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
