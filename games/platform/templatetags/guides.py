"""Template words for the rules pages: `{% rules_link game.game_type %}` wherever a game is shown."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

from .. import guides, registry

register = template.Library()


@register.simple_tag
def rules_link(slug: str, text: str = "rules"):
    """A link to the game type's rules page, or nothing for a type without a guide."""
    if not guides.has_rules(slug):
        return ""
    # A list of games says "rules" after each: a screen reader, reading the links alone, hears which game's.
    return format_html(
        '<a class="rules-link" href="{}">{}<span class="visually-hidden"> of {}</span></a>',
        reverse("rules", args=[slug]),
        text,
        registry.get(slug).name,
    )
