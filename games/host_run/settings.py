"""A host-run game's settings: only the demo's window_minutes (every round's window in minutes, over the
design's). The design row (games/host_run/models.py) is its set-up, checked by hidden.design_problems before
the start."""

from __future__ import annotations

from games.platform.registry import window_settings, window_settings_problems

# window_settings with no hour keys: the design holds the windows; this is the override alone.
DESCRIBED = window_settings({})


def default_settings() -> dict:
    return {}


def settings_problems(settings: dict) -> list[str]:
    return window_settings_problems(settings, ())


def window_minutes(settings: dict | None) -> int | None:
    """The minutes every round lasts instead of the design's windows, or None."""
    minutes = (settings or {}).get("window_minutes")
    return minutes if minutes else None
