"""A live match is created with its start time (issue 29.5): the game admin's add form asks for it.

A live match (a game type that plays on turn clocks) made through the add form has a start time, the one the
hosts pick there (tomorrow at 20:00 in their zone is offered): its clocks start when everyone is here, or at
the start time at the latest, whoever is here then (or, as the hosts choose, only at the start time), so
seven players never wait for the last "I'm here". The form also asks what an absent player's seat becomes
("loses", the default, or "is replaced" by a player the hosts name). Later changes are the game's own
settings fields (services.sitting reads them). A game played in rounds ignores these fields.
"""

from __future__ import annotations

from datetime import UTC, timedelta

from django import forms
from django.utils import timezone

from .. import registry
from ..setting import (
    ABSENT_AT_START,
    ABSENT_LOSES,
    ABSENT_REPLACED,
    AT_START_TIME,
    CLOCKS_START,
    START_TIME,
    WHEN_ALL_HERE,
)
from .settings_form import MomentField

FIELDS = ("start_time", "clocks_start", "absent_at_start")


def offered_start():
    """Tomorrow at 20:00 in the host's zone: a default the host only has to look at."""
    tomorrow = timezone.localtime() + timedelta(days=1)
    return tomorrow.replace(hour=20, minute=0, second=0, microsecond=0)


def start_time_field() -> forms.Field:
    zone = timezone.get_current_timezone_name()
    return MomentField(
        required=False,
        label="Start time",
        initial=offered_start,
        help_text=f"A live match only: its clocks start then, whoever is here (times here are in {zone}).",
        error_messages={"invalid": "The start time must be a date and time, like 2026-11-24 20:00."},
    )


def clocks_field() -> forms.Field:
    return forms.ChoiceField(
        label="The clocks start",
        choices=[
            (WHEN_ALL_HERE, "when everyone is here, or at the start time at the latest"),
            (AT_START_TIME, "at the start time"),
        ],
        initial=WHEN_ALL_HERE,
        required=False,
        help_text="A live match only.",
    )


def absent_field() -> forms.Field:
    return forms.ChoiceField(
        label="A player absent at the start time",
        choices=[(ABSENT_LOSES, "loses"), (ABSENT_REPLACED, "is replaced by a player the hosts name")],
        initial=ABSENT_LOSES,
        required=False,
        help_text="A live match only.",
    )


def fields() -> dict[str, forms.Field]:
    """The add form's fields, made for this request (the help names the host's zone)."""
    return {
        "start_time": start_time_field(),
        "clocks_start": clocks_field(),
        "absent_at_start": absent_field(),
    }


def clean(form: forms.Form, data: dict) -> dict | None:
    """The live match's sitting-down settings from the add form (errors beside their fields); None for a
    game played in rounds, or when the game type itself is wrong (its own field says so)."""
    if "start_time" not in form.fields:
        return None
    try:
        kind = registry.get(data.get("game_type"))
    except LookupError:
        return None
    if kind.flow != "turns":
        return None
    when = data.get("start_time")
    if when is None:
        if "start_time" not in form.errors:
            form.add_error("start_time", "A live match needs a start time: its clocks start then.")
        return None
    if when <= timezone.now():
        form.add_error("start_time", "The start time has passed: pick a time to come.")
        return None
    return {
        CLOCKS_START: data.get("clocks_start") or WHEN_ALL_HERE,
        START_TIME: when.astimezone(UTC).isoformat(),
        ABSENT_AT_START: data.get("absent_at_start") or ABSENT_LOSES,
    }
