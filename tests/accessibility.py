"""axe-core on every page a browser test visits: no serious or critical accessibility fault may pass.

`page_as` (tests/conftest.py) watches each page it opens: every time a page finishes loading an HTML document,
axe-core (the copy bundled with axe-playwright-python, so it works without the internet) runs on it, once per
viewer and URL in a test. What it finds is kept and the test fails at its end, each fault listed with the
page, who was looking, the rule, and the elements it found. Moderate and minor findings are not failures.

The check runs beside the test, as Playwright delivers the page's `load` event. A navigation would end a check
under way, so the test's own moves that may leave a page (`goto`, `reload`, a click) first wait for the page
to load and for its check to finish: no page the test stands on is left unchecked, however fast it moves on.
"""

from __future__ import annotations

import json
import time
from urllib.parse import urldefrag

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

FAILING = ("serious", "critical")
# Only the violations come back; `passes` and `inapplicable` would be most of the page's weight.
OPTIONS = json.dumps({"resultTypes": ["violations"]})
# What the site does not draw itself: the API docs' Swagger UI (its own script and colours; the page around
# it is still checked).
CONTEXT = json.dumps({"exclude": [["#swagger-ui"]]})
# The moves of a test that may take a page elsewhere: each waits for the check of the page it leaves.
LEAVING = [(Page, "goto"), (Page, "reload"), (Page, "go_back"), (Page, "click"), (Locator, "click")]


class AxeWatch:
    """Every page of one test: which (viewer, URL) were checked, and what failed."""

    def __init__(self):
        self.checked: set[tuple[str, str]] = set()
        self.faults: list[str] = []
        self.running = 0
        self.watched: set[int] = set()

    def watch(self, page, who: str) -> None:
        self.watched.add(id(page))
        page.on("load", lambda: self.check(page, who))

    def check(self, page, who: str) -> None:
        url = urldefrag(page.url).url  # "#console" is the same page
        key = (who, url)
        if key in self.checked or not url.startswith("http"):
            return
        self.checked.add(key)
        self.running += 1
        try:
            if page.evaluate("document.contentType") != "text/html":
                return  # JSON, a file: nothing of ours to read with a screen reader
            if not page.evaluate("typeof window.axe !== 'undefined'"):
                page.evaluate(AXE_SCRIPT)
            results = page.evaluate(f"axe.run({CONTEXT}, {OPTIONS})")
        except PlaywrightError:
            # The page went away under the check (closed at the test's end): check it on the next visit.
            self.checked.discard(key)
            return
        finally:
            self.running -= 1
        self.faults.extend(describe(url, who, v) for v in results["violations"] if v["impact"] in FAILING)

    def before_leaving(self, page) -> None:
        """A page is about to be left: let it load (its check starts with the load) and its check finish."""
        if id(page) not in self.watched or page.is_closed() or page.url == "about:blank":
            return
        try:
            page.wait_for_load_state("load")
        except PlaywrightError:
            return
        self.settle(page)

    def settle(self, page, seconds: float = 30) -> None:
        """Let the checks under way finish (they run while Playwright waits on something)."""
        deadline = time.monotonic() + seconds
        while self.running and time.monotonic() < deadline:
            try:
                page.wait_for_timeout(20)
            except PlaywrightError:
                return

    def hooked(self, monkeypatch) -> None:
        """Make every move in LEAVING wait for the check of the page it leaves (for this test only)."""
        for cls, name in LEAVING:
            original = getattr(cls, name)

            def leaving(target, *args, _original=original, **kwargs):
                self.before_leaving(target.page if isinstance(target, Locator) else target)
                return _original(target, *args, **kwargs)

            monkeypatch.setattr(cls, name, leaving)

    def report(self) -> str | None:
        if not self.faults:
            return None
        return f"{len(self.faults)} serious or critical accessibility faults (axe-core):\n\n" + "\n\n".join(
            self.faults
        )


def describe(url: str, who: str, violation: dict) -> str:
    lines = [f"{url} (as {who}): {violation['id']} ({violation['impact']}): {violation['help']}"]
    for node in violation["nodes"][:8]:
        lines.append(f"  - {', '.join(map(str, node['target']))}: {node['html'][:160]}")
        summary = (node.get("failureSummary") or "").strip().splitlines()
        lines.extend(f"      {line.strip()}" for line in summary[1:3])
    if len(violation["nodes"]) > 8:
        lines.append(f"  ... and {len(violation['nodes']) - 8} more")
    lines.append(f"  {violation['helpUrl']}")
    return "\n".join(lines)
