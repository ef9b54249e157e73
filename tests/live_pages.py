"""Reading a live page's turn banner in fast tests: whom the game waits on, as each viewer is told."""

from __future__ import annotations

import html as html_module
import re

from django.test import Client
from django.urls import reverse


def page(game, user) -> str:
    """The game page as `user` sees it (None: a visitor who is not logged in)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("game", args=[game.id])).content.decode()


def text_of(html: str, pattern: str) -> str:
    """The words inside what `pattern` finds (its first group), tags dropped, entities read."""
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def turn_line(html: str) -> str:
    """The banner's words ("Your turn", "Waiting for ann, ben and 4 others"), without its countdown, which
    the page's script counts."""
    banner = re.search(r'<p class="turn[^"]*" id="turn">(.*?)</p>', html, re.S).group(1)
    return text_of(re.sub(r'<span class="turn-clock">.*?</time>\s*</span>', "", banner, flags=re.S), "(.*)")


def your(html: str) -> str | None:
    """#live's data-your: "turn" or "decision" while it is the viewer's, "" while not, None for no seat."""
    tag = re.search(r'<div id="live"[^>]*>', html).group(0)
    found = re.search(r' data-your="([^"]*)"', tag)
    return found.group(1) if found else None
