"""The rules on the site: each game's player's guide, with the rulings beside it, on a public page.

A game type names its guide (`GameType.guide_file`, the game app's `guide.md`); its rulings are the
project's `docs/rulings/<slug>.md`, the file that quotes every unclear sentence of the rules with the reading
the site plays. Both are Markdown, turned into HTML once per process and file version: the page itself is
light, and public (a visitor reads the rules before being invited).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from markdown_it import MarkdownIt

from . import registry
from .registry import DEATH_MATCH

# A visitor's browser may keep the page a while (the rules change with a deploy); a logged-in user's answer
# is never stored (genius.middleware.PrivateAnswers), as it carries their name and count.
BROWSER_SECONDS = 600


def rulings_file(slug: str) -> Path:
    """docs/rulings/<slug>.md, or the file of the type it shares its rulings with (`rulings_slug`)."""
    try:
        slug = registry.get(slug).rulings_slug or slug
    except LookupError:
        pass
    return Path(settings.BASE_DIR) / "docs" / "rulings" / f"{slug}.md"


def has_rules(slug: str) -> bool:
    try:
        kind = registry.get(slug)
    except LookupError:
        return False
    return kind.guide_file is not None


def _markdown() -> MarkdownIt:
    # CommonMark with tables; raw HTML in the files is shown as text, never run.
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "section"


def to_html(text: str, *, prefix: str, shift: int, drop_title: bool = False) -> str:
    """Markdown to HTML for a page that has its own h1: headings moved down `shift` levels, each with an id
    (`prefix` keeps the guide's and the rulings' apart), and a leading `# title` dropped when asked."""
    md = _markdown()
    tokens = md.parse(text)
    if drop_title and tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        tokens = tokens[3:]  # heading_open, its inline text, heading_close
    seen: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + shift)}"
        if token.type == "heading_open":
            anchor = base = f"{prefix}-{_slug(tokens[i + 1].content)}"
            n = 2
            while anchor in seen:
                anchor, n = f"{base}-{n}", n + 1
            seen.add(anchor)
            token.attrSet("id", anchor)
        if token.type == "table_open":
            token.attrSet("class", "rules-table")
    return md.renderer.render(tokens, md.options, {})


@lru_cache(maxsize=32)
def _rendered(path: Path, version: int, prefix: str, shift: int, drop_title: bool) -> SafeString:
    # `version` (the file's mtime) is part of the key: an edited file is read again without a restart.
    text = path.read_text(encoding="utf-8")
    return mark_safe(to_html(text, prefix=prefix, shift=shift, drop_title=drop_title))  # our own files


def rendered(path: Path, *, prefix: str, shift: int, drop_title: bool = False) -> SafeString | None:
    try:
        version = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    return _rendered(path, version, prefix, shift, drop_title)


def _summary(kind) -> dict:
    return {
        "slug": kind.slug,
        "name": kind.name,
        "kind": "Death Match" if kind.match_kind == DEATH_MATCH else "Main Match",
        "live": kind.flow == "turns",
    }


@require_safe
@cache_control(private=True, max_age=BROWSER_SECONDS)
def rules_index(request):
    kinds = [_summary(k) for k in registry.all_types() if k.guide_file is not None]
    return render(request, "platform/rules_index.html", {"kinds": kinds})


@require_safe
@cache_control(private=True, max_age=BROWSER_SECONDS)
def rules_page(request, slug: str):
    if not has_rules(slug):
        raise Http404("No rules for this game here.")
    kind = registry.get(slug)
    context = {
        "game": _summary(kind),
        "guide": rendered(Path(kind.guide_file), prefix="guide", shift=1, drop_title=True),
        "rulings": rendered(rulings_file(slug), prefix="ruling", shift=1, drop_title=True),
    }
    return render(request, "platform/rules.html", context)


@require_safe
def game_rules_page(request, game_id: int):
    """One game's own rules (a host-run game's hosts write them), for whoever may open the game, with the
    link to its type's guide; a game whose rules are its type's guide is sent there."""
    from .models import Game
    from .observation import viewer_or_404

    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    viewer_or_404(game, request.user)
    kind = registry.get(game.game_type)
    text = kind.game_rules(game)
    if not text.strip():
        if not has_rules(kind.slug):
            raise Http404("No rules for this game here.")
        return redirect("rules", slug=kind.slug)
    context = {
        "game": game,
        "kind": _summary(kind),
        "has_guide": has_rules(kind.slug),
        # The hosts' Markdown: raw HTML in it is shown as text, never run (markdown-it's html off).
        "rules": mark_safe(to_html(text, prefix="rules", shift=1)),  # escaped by the renderer
    }
    return render(request, "platform/game_rules.html", context)
