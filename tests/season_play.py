"""A season's play in a real browser, shared by the season tests: the horse race's rounds saved from the
players' own pages, a round's window passing, and a Death Match played live to its end."""

from __future__ import annotations

import os
import random
from datetime import timedelta
from pathlib import Path

from tests.sweeping import sweep

RACE = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
HORSES = "ABCDEFGHI"


def shot(page, name: str, full: bool = True) -> None:
    folder = os.environ.get("GENIUS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def window_closes(clock) -> None:
    """The round's 30-minute window passes; the sweep (beat's task, every 5 s) closes and resolves it."""
    clock.shift(timedelta(minutes=31))
    sweep()


def save_round(page, url: str, fill) -> None:
    page.goto(url)
    fill(page)
    page.click("button[name=save]")
    page.wait_for_selector("text=Saved.")


def one_clue_card(horse_index: int):
    def fill(page):
        page.check("input[name=ability][value=clue]")
        page.fill(f"input[name=clue_use_{horse_index}]", "1")

    return fill


def race_round_script(number: int):
    """Who saves what in each round of the race; only Round 10 scores (ann's Utility, 9 x 1 points)."""
    if number == 0:
        return [
            (
                "ann",
                lambda p: (
                    p.check("input[name=ability][value=utility]"),
                    p.select_option("select[name=utility_select]", "A"),
                ),
            )
        ]
    if number == 1:

        def utility(p):
            p.check("input[name=ability][value=utility]")
            p.fill("input[name=utility_use_0]", "1")
            p.check("input[name=utility_gain][value=B]")

        return [("ben", utility)]
    if number == 10:

        def every_card(p):
            p.check("input[name=ability][value=utility]")
            for i in range(len(HORSES)):
                p.fill(f"input[name=utility_use_{i}]", "1")

        return [("ann", every_card)]
    return [(RACE[1 + number % 8], one_clue_card(number % 9))]


def play_the_death_match(
    pages: dict, url: str, rng: random.Random, limit: int = 400, stop_after: int | None = None
) -> int:
    """Both players at their own page: whoever has moves clicks one (chosen by `rng`) until the race ends, or
    until `stop_after` moves were made (the race goes on: a test then lets a clock run out).

    The first time the move passes, the other player's page learns it by polling (live); after that a page
    is opened afresh when its player is to move, which is what a player coming back to the tab sees.
    """
    for page in pages.values():
        page.goto(url)
    names = list(pages)
    mover = next(n for n in names if pages[n].locator("button[name=action]").count())
    polled = False
    for moves in range(limit):
        if stop_after is not None and moves >= stop_after:
            return moves
        page = pages[mover]
        buttons = page.locator("button[name=action]")
        if buttons.count() == 0:
            other = pages[names[1 - names.index(mover)]]
            if not polled:
                other.wait_for_selector("button[name=action]", timeout=10000)
                polled = True
            else:
                other.goto(url, wait_until="domcontentloaded")
            if other.locator("button[name=action]").count() == 0:
                return moves  # nobody has a move: the race is over
            mover = names[1 - names.index(mover)]
            continue
        with page.expect_navigation(wait_until="domcontentloaded"):
            buttons.nth(rng.randrange(buttons.count())).click()
    raise AssertionError("the Death Match did not end")
