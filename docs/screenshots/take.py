"""Take the README's screenshots from a running demo (`make run`), with Debian's chromium.

.venv/bin/python docs/screenshots/take.py http://127.0.0.1:8000
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
HERE = Path(__file__).parent
DEMO_PASSWORDS = {"host": "host-demo-pass", "spectator": "spectator-pass"}


def login(page, base, user):
    page.goto(base + "/login/")
    page.fill("input[name=login]", user)
    page.fill("input[name=password]", DEMO_PASSWORDS.get(user, f"{user}-pass"))
    page.click("button[type=submit]")


def game_ids(page, base):
    page.goto(base + "/api/games/?format=json")
    return {g["type"]: g["id"] for g in page.evaluate("() => JSON.parse(document.body.innerText)")}


def main(base: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)

        def page_for(user, width, height=900):
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            if user:
                login(page, base, user)
            return page

        # Something of each kind for "awaiting you": a message from player2, and a save not yet final.
        other = page_for("player2", 1280)
        ids = game_ids(other, base)
        other.goto(f"{base}/games/{ids['horse_race']}/chats/0-1/")
        other.fill("#id_text", "Your A for my C? I offered it on the game page.")
        other.get_by_role("button", name="Send").click()
        other.wait_for_load_state()
        desk = page_for("player1", 1280, 800)
        desk.goto(f"{base}/games/{ids['horse_race']}/")
        desk.locator("#round-form button[name=save]").click()
        desk.wait_for_load_state()
        desk.goto(base + "/")
        desk.screenshot(path=HERE / "home.png")  # "awaiting you", on a desktop
        player = page_for("player1", 390, 844)  # a phone
        player.goto(f"{base}/games/{ids['horse_race']}/")
        player.screenshot(path=HERE / "horse_race-phone.png")  # what a phone shows first
        visitor = page_for(None, 1280, 800)
        visitor.goto(base + "/rules/horse_race/")
        visitor.screenshot(path=HERE / "rules.png")
        # The live matches wait for their players: each seated player says "I'm here", so the pages show the
        # clocks running and whose turn it is.
        for number in range(1, 11):
            sitter = page_for(f"player{number}", 1280)
            for slug in ("middle_marathon", "arms_race"):
                sitter.goto(f"{base}/games/{ids[slug]}/")
                here = sitter.get_by_role("button", name="I'm here")
                if here.count():
                    here.first.click()
                    sitter.wait_for_load_state()
            sitter.context.close()
        for slug, game_id in ids.items():
            player.goto(f"{base}/games/{game_id}/")
            if slug == "cards_table":
                player.locator("form[data-confirm] button").first.click()
                player.wait_for_load_state()
            player.screenshot(path=HERE / f"{slug}-player.png", full_page=True)
        spectator = page_for(None, 1000)
        spectator.goto(f"{base}/games/{ids['horse_race']}/")
        spectator.screenshot(path=HERE / "horse_race-spectator.png", full_page=True)
        host = page_for("host", 1200)
        host.goto(base + "/admin/platform/game/")
        host.screenshot(path=HERE / "admin-games.png", full_page=True)
        host.goto(base + "/seasons/1/")
        host.screenshot(path=HERE / "season.png", full_page=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
