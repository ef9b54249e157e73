"""`/api/docs/` is served from the site's own files, under its CSP, with no CDN (issue 17.13)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def _sources(page: str) -> list[str]:
    return re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)


@pytest.mark.django_db
def test_the_api_docs_load_swagger_ui_from_the_sites_own_static_files(client, settings):
    answer = client.get(reverse("api-docs"))
    assert answer.status_code == 200
    page = answer.content.decode()
    sources = _sources(page)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    for source in sources:
        assert source.startswith("/"), f"{source} is not on this site"
        if source.startswith(settings.STATIC_URL):
            assert finders.find(source.removeprefix(settings.STATIC_URL)), f"{source} is not shipped"
    # The CSP allows no inline script or style: every script is a file, and no <style> is inline.
    assert "<style" not in page
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", page))
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200 and "javascript" in script["Content-Type"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_swagger_ui_renders_under_the_csp_without_the_internet(page_as, live_server):
    page = page_as(None)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    outside: list[str] = []

    def only_this_site(route):
        # Anything else is recorded and never sent: the test needs no internet and reaches none.
        if route.request.url.startswith(live_server.url):
            return route.continue_()
        outside.append(route.request.url)
        return route.abort()

    page.route("**/*", only_this_site)
    page.goto(live_server.url + reverse("api-docs"))
    page.locator(".swagger-ui .info .title").filter(has_text="genius API").wait_for()
    page.locator(".opblock-summary-path").first.wait_for()
    assert refused == [] and outside == []
