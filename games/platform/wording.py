"""Stored texts that name people and times: written once, read by many, each in their own terms.

An announcement, an inbox line or a ledger reason is kept with references where it names someone or a
time: `{user:12}` for a person (`user_ref`), `{at:2026-11-03T13:05:00+00:00}` for an instant
(`instant_ref`). A game's rules say `{seat:3}` (`kit.seat_ref`); the platform turns it into the seat's
user when it writes the event (`seats_as_users`). Whoever reads the text gets each person's name as it is
now (a display name chosen today shows in last week's announcements) and each time in their own zone with
the zone named. Texts written before references keep the words they were written with: a text without
references reads as it is.

On a page (`page_text`) each time is a `<time>` holding the UTC instant, as `{{ value|when }}` writes it,
so a cached body shared by every viewer shows it in each one's zone through the page's script.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, tzinfo

from django.contrib.auth import get_user_model
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from .people import shown_name
from .zones import as_instant, local_text

REF = re.compile(r"\{(user|seat|at):([^{}\s]+)\}")
SOMEONE = "someone"  # a reference to an account that is gone


def typed(text: str) -> str:
    """Words a person typed (a host's announcement or reason, a game's name), made safe to keep among
    references: a `{user:42}` they typed reads as they typed it, never as the name of account 42. A word
    joiner (U+2060, invisible) after the brace is all that changes."""
    return REF.sub(lambda match: "{\u2060" + match.group(0)[1:], text)


def user_ref(user) -> str:
    return f"{{user:{user.pk}}}"


def instant_ref(when: datetime) -> str:
    return f"{{at:{when.astimezone(UTC).isoformat()}}}"


def seats_as_users(text: str, users_by_seat: Mapping[int, int]) -> str:
    """The rules' `{seat:3}` as the player in that seat, `{user:12}`: who it is stays true whatever the
    seat later becomes. A seat the game does not have is left as the rules wrote it."""

    def user(match: re.Match) -> str:
        if match.group(1) != "seat" or not match.group(2).isdigit():
            return match.group(0)
        user_id = users_by_seat.get(int(match.group(2)))
        return match.group(0) if user_id is None else f"{{user:{user_id}}}"

    return REF.sub(user, text)


def people_in(texts: Iterable[str]) -> set[int]:
    """The users the texts name."""
    found = (m for text in texts for m in REF.finditer(text or ""))
    return {int(m.group(2)) for m in found if m.group(1) == "user" and m.group(2).isdigit()}


def names_for(texts: Iterable[str], known: Mapping[int, str] | None = None) -> dict[int, str]:
    """{user id: shown name} for everyone the texts name: those in `known` (a game's players, already read)
    cost nothing, the others one query together, and no query when the texts name no one else."""
    names = dict(known or {})
    missing = people_in(texts) - names.keys()
    if missing:
        users = get_user_model().objects.filter(pk__in=missing).select_related("profile")
        names.update({user.pk: shown_name(user) for user in users})
    return names


def _name(kind: str, value: str, names: Mapping[int, str]) -> str:
    if kind == "seat":
        return f"seat {value}"
    return names.get(int(value), SOMEONE) if value.isdigit() else SOMEONE


def plain(text: str, names: Mapping[int, str], zone: tzinfo | None = None) -> str:
    """The text for one reader: names as they are now, times in `zone` (default: the active one) named."""

    def word(match: re.Match) -> str:
        kind, value = match.groups()
        if kind == "at":
            return local_text(value, zone) or match.group(0)
        return _name(kind, value, names)

    return REF.sub(word, text or "")


def time_html(when) -> SafeString:
    """<time> with the UTC instant (the page's script writes it in the viewer's zone) and, as its text, the
    time in the active zone with the zone named."""
    instant = as_instant(when)
    if instant is None:
        return mark_safe("")
    return format_html(
        '<time class="local" datetime="{}">{}</time>', instant.isoformat(), local_text(instant)
    )


def page_text(text: str, names: Mapping[int, str]) -> SafeString:
    """The text as HTML for a page: escaped, its line breaks kept, each time a `<time>`."""
    text = (text or "").replace("\r\n", "\n")
    parts, last = [], 0
    for match in REF.finditer(text):
        parts.append(escape(text[last : match.start()]))
        kind, value = match.groups()
        if kind == "at":
            parts.append(time_html(value) if as_instant(value) else escape(match.group(0)))
        else:
            parts.append(escape(_name(kind, value, names)))
        last = match.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts).replace("\n", "<br>"))


class Told(str):
    """A stored text as its reader reads it. As a string (the API, JSON, an email) it is `plain`; on a page
    it renders itself as `page_text`, written when the template is (in UTC for a cached body)."""

    def __new__(cls, text: str, names: Mapping[int, str]):
        told = super().__new__(cls, plain(text, names))
        told.stored, told.names = text or "", names
        return told

    def __html__(self) -> SafeString:
        return page_text(self.stored, self.names)

    def __reduce__(self):
        return (str, (str(self),))
