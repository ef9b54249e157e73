"""A host-run game's settings: none in JSON. The design row (games/host_run/models.py) is its set-up, checked
by hidden.design_problems before the start."""

from __future__ import annotations


def default_settings() -> dict:
    return {}


def settings_problems(settings: dict) -> list[str]:
    return []
