"""Template words for balances: `{{ key|balance_label }}` ("cards:A" is "A cards", "tokens_of_life" is
"Tokens of Life"), as a player says them, never the ledger's keys."""

from __future__ import annotations

from django import template

from ..services.ledger import WORDS

register = template.Library()


@register.filter
def balance_label(key: str) -> str:
    what, _, item = str(key).partition(":")
    words = WORDS.get(what, what.replace("_", " "))
    return f"{item} {words}" if item else words


@register.filter
def account_label(account) -> str:
    """A ledger account as its balance is said: "A cards", "garnets" (the ledger page said "Cards A")."""
    return balance_label(f"{account.what}:{account.item}" if account.item else account.what)
