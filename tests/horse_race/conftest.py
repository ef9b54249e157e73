"""Fixtures of the Horse Race site tests."""

from tests.horse_race.site_support import nine, race  # noqa: F401
