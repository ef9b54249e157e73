"""A host sets a season up in a real browser, at 1280 and 390 px (issue 29.3): the settings typed in their
own boxes (a wrong one refused beside it), the starting garnets given to those already in, a grant to three
players at once answered with their balances, and an invitation made from the season's page with its link
copied by its button. Set GENIUS_SCREENSHOTS=docs/screenshots/season-setup to keep the pictures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.platform.models import Invitation, LedgerAccount
from games.platform.services.invitations import invitation_accept, invitation_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name: str) -> None:
    folder = os.environ.get("GENIUS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_a_host_sets_up_a_season_grants_and_invites_at_1280_and_390_px(
    season, hank, make_user, page_as, live_server
):
    names = ["ann", "ben", "cat"]
    for name in names:
        invitation_accept(token=invitation_create(season=season, actor=hank).token, user=make_user(name))
    url = live_server.url
    change = f"{url}/admin/platform/season/{season.id}/change/"

    desk = page_as(hank, width=1280)
    desk.goto(change)
    desk.fill("input[name=set__starting_garnets]", "3")
    desk.get_by_label("Transfers between players").check()
    desk.select_option("select[name=set__death_match_type]", label="Middle Marathon")
    shot(desk, "season-settings-1280")
    desk.click("input[name=_save]")
    desk.wait_for_selector("text=Given 3 garnets each to ann, ben, cat, who had none.")

    phone = page_as(hank, width=390)
    phone.goto(change)
    phone.fill("input[name=set__pick_hours]", "0")
    phone.get_by_label("ann: 3 garnets, 0 Tokens of Life").check()
    phone.get_by_label("ben: 3 garnets, 0 Tokens of Life").check()
    phone.get_by_label("cat: 3 garnets, 0 Tokens of Life").check()
    phone.fill("input[name=grant_delta]", "2")
    phone.fill("input[name=grant_reason]", "welcome gift")
    phone.click("input[name=_save]")
    refused = "Hours to pick an opponent must be a number above 0 and at most 336, not 0."
    phone.wait_for_selector(f"text={refused}")
    assert phone.input_value("input[name=grant_reason]") == "welcome gift", "what was typed is kept"
    assert phone.get_by_label("ben: 3 garnets, 0 Tokens of Life").is_checked()
    shot(phone, "season-wrong-value-390")
    phone.fill("input[name=set__pick_hours]", "36")
    phone.click("input[name=_save]")
    phone.wait_for_selector("text=Granted 2 garnets to ann, ben, cat: ann 5, ben 5, cat 5.")
    shot(phone, "season-granted-390")
    assert sorted(LedgerAccount.objects.filter(what="garnets").values_list("balance", flat=True)) == [5, 5, 5]

    # From the season's page to a new invitation, the season already picked; its link copied by the button.
    phone.goto(change)
    phone.click("text=invite players")
    assert phone.input_value("select[name=season]") == str(season.id)
    phone.click("input[name=_save]")
    phone.wait_for_selector("text=Invitation made")
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    phone.click("button:has-text('Copy link')")
    phone.wait_for_selector("text=Copied.")
    invitation = Invitation.objects.latest("pk")
    assert phone.evaluate("navigator.clipboard.readText()").endswith(f"/join/{invitation.token}/")
    shot(phone, "invitation-copied-390")
    desk.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    desk.goto(f"{url}/admin/platform/invitation/{invitation.pk}/change/")
    desk.click("button:has-text('Copy text')")
    desk.wait_for_selector("text=Copied.")
    assert "You are invited to play Season 1!" in desk.evaluate("navigator.clipboard.readText()")
    shot(desk, "invitation-1280")
