"""Through a real browser, on a desktop and a 390 px phone: a pair chat message shows as unread to its reader,
on the game page they have open, on the chat list and in "awaiting you", and clears when they read it."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("GENIUS_SHOTS")  # a folder: the test leaves its screenshots there to look at


@pytest.mark.parametrize("width", [1000, 390])
def test_an_unread_count_appears_for_the_reader_and_clears_when_read(
    tally, alice, bob, page_as, live_server, width
):
    game_url = live_server.url + reverse("game", args=[tally.id])
    ben = page_as(bob, width=width)
    ben.goto(game_url)
    expect(ben.locator("#chats-unread")).to_have_text("")

    ann = page_as(alice, width=width)
    ann.goto(live_server.url + reverse("chat", args=[tally.id, 1, 0]))  # either order: one address
    assert ann.url.endswith(f"/games/{tally.id}/chats/0-1/")
    ann.fill("#id_text", "Meet me at the C card?")
    ann.get_by_role("button", name="Send").click()
    expect(ann.locator("#chat-messages")).to_contain_text("Meet me at the C card?")

    # bob's open page learns it at its next poll, in place; his title counts it.
    pill = ben.locator("#chats-unread a.unread")
    expect(pill).to_have_text("1 unread message")
    expect(ben).to_have_title("(2) Tally · genius")  # Round 0 and the message
    box = pill.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    if SHOTS:
        ben.screenshot(path=f"{SHOTS}/unread-game-{width}.png", full_page=True)
    pill.click()
    expect(ben.locator(".chats li")).to_contain_text("With alice 1 unread")
    if SHOTS:
        ben.screenshot(path=f"{SHOTS}/unread-list-{width}.png", full_page=True)
    # "Awaiting you" says it too, and takes him to that chat.
    ben.goto(live_server.url + reverse("home"))
    line = ben.locator(".awaiting-list li", has_text="1 unread message from alice")
    expect(line).to_have_count(1)
    box = line.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    line.get_by_role("link", name="Tally").click()
    ben.wait_for_url(f"**/games/{tally.id}/chats/0-1/")
    expect(ben.locator("#chat-messages")).to_contain_text("Meet me at the C card?")

    ben.goto(game_url)
    expect(ben.locator("#chats-unread")).to_have_text("")
    ben.goto(live_server.url + reverse("home"))
    expect(ben.locator(".awaiting-list")).not_to_contain_text("unread")
    expect(ben).to_have_title("(1) genius")  # Round 0 only
