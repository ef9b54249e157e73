"""Fixtures of the Cards on the Table site tests."""

from tests.cards_table.site_support import cards, ten  # noqa: F401
