"""The axe-core check every browser test runs (tests/accessibility.py) finds what it should, and only once."""

from __future__ import annotations

import pytest

from tests.accessibility import AxeWatch

pytestmark = pytest.mark.browser

FAULTY = """<!doctype html><html><head><title>t</title></head><body><main>
<button></button><img src="data:,"><input type="text">
<p style="color:#bbb;background:#fff">Pale words</p></main></body></html>"""
FINE = """<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Fine</h1>
<label>Name <input type="text"></label><button>Save</button></main></body></html>"""


def serve(page, pages: dict[str, str]):
    def answer(html):
        return lambda route: route.fulfill(body=html, content_type="text/html")

    for url, html in pages.items():
        page.route(url, answer(html))


def test_a_page_with_faults_fails_with_each_named_and_a_fine_page_passes(browser, monkeypatch):
    context = browser.new_context()
    page = context.new_page()
    serve(page, {"http://a11y.test/faulty": FAULTY, "http://a11y.test/fine": FINE})
    watch = AxeWatch()
    watch.hooked(monkeypatch)
    watch.watch(page, who="a visitor")
    # One page after the other at once, as a test moves on: the first is still checked before it is left.
    page.goto("http://a11y.test/fine")
    page.goto("http://a11y.test/faulty")
    page.goto("http://a11y.test/faulty#again")  # the same page: checked once
    page.locator("button").click()  # a click waits for the page's check too
    watch.settle(page)
    context.close()
    report = watch.report()
    assert report is not None
    found = {line.split(": ")[1].split(" ")[0] for line in report.splitlines() if line.startswith("http")}
    # Moderate and minor findings (no lang, no h1) are not failures; serious and critical ones are.
    assert {"button-name", "image-alt", "label", "color-contrast"} <= found
    assert "html-has-lang" in found  # serious
    assert all(
        line.startswith("http://a11y.test/faulty (as a visitor)")
        for line in report.splitlines()
        if line.startswith("http")
    )
    assert len(watch.checked) == 2
