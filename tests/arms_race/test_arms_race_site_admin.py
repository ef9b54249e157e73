"""The hosts' deal by hand in the admin: checked by the rules, for their own games, locked at the start."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.arms_race.models import Deal
from games.platform.kit import RulesError
from games.platform.services import games as game_services
from tests.arms_race.arms_race_table import ORDERED_DEAL
from tests.sitting import all_here

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(season, hank, alice, bob, charlie):
    game = game_services.game_create(
        season=season, game_type="arms_race", name="AR", hosts=[hank], actor=hank
    )
    for user in (alice, bob, charlie):
        game_services.game_seat(game=game, user=user, actor=hank)
    return game


def admin_client(user):
    client = Client()
    client.force_login(user)
    return client


def deal_form(game, hands):
    data = {"game": str(game.id)}
    for seat, hand in enumerate(hands):
        data[f"hand_{seat + 1}"] = hand
    return data


def test_a_host_deals_by_hand_and_the_game_plays_that_deal(draft, hank):
    hands = ["8 dagger, bat", "7 bat, 2 whip", "whip x6, 3 katana"]
    response = admin_client(hank).post(reverse("admin:arms_race_deal_add"), deal_form(draft, hands))
    assert response.status_code == 302
    assert Deal.objects.get(game=draft).hands == [list(hand) for hand in ORDERED_DEAL[:3]]
    game_services.game_start(game=draft, actor=hank)
    all_here(draft)  # the players sit down: the clocks run
    draft.refresh_from_db()
    assert draft.state["hands"] == [list(hand) for hand in ORDERED_DEAL[:3]]


def test_a_line_that_is_not_weapons_is_refused_next_to_it(draft, hank):
    hands = ["8 dagger, 1 spoon", "7 bat, 2 whip", "6 whip, 3 katana"]
    response = admin_client(hank).post(reverse("admin:arms_race_deal_add"), deal_form(draft, hands))
    assert response.status_code == 200 and not Deal.objects.exists()
    assert hands[0] in response.content.decode()
    assert any(
        "Name one of the eight weapons" in e for e in response.context["adminform"].form.errors["hand_1"]
    )


@pytest.mark.parametrize(
    ("hands", "summary"),
    [
        (
            ["9 dagger", "7 bat, 2 whip", "6 whip, 3 katana"],
            "The deck has only 8 Dagger cards; this deal uses 9.",
        ),
        (["8 dagger", "7 bat, 2 whip", "6 whip, 3 katana"], "Hand 1 must hold exactly 9 cards."),
        (["8 dagger, 1 bat", "7 bat, 2 whip"], "1 hand missing"),
    ],
)
def test_an_unfinished_or_wrong_deal_is_kept_as_a_draft_that_cannot_start(draft, hank, hands, summary):
    response = admin_client(hank).post(
        reverse("admin:arms_race_deal_add"), deal_form(draft, hands), follow=True
    )
    assert f"Saved as a draft: {summary}" in response.content.decode()
    assert Deal.objects.filter(game=draft).exists()
    with pytest.raises(RulesError) as refused:
        game_services.game_start(game=draft, actor=hank)
        all_here(draft)  # the players sit down: the clocks run
    assert refused.value.message == f"The hidden data is not ready: the deal is a draft: {summary}"


def test_a_host_of_another_game_cannot_see_or_deal_for_it(draft, make_user):
    olga = make_user("olga", is_staff=True)
    Deal.objects.create(game=draft, hands=[list(h) for h in ORDERED_DEAL[:3]])
    client = admin_client(olga)
    listing = client.get(reverse("admin:arms_race_deal_changelist"))
    assert listing.status_code == 200 and listing.context["cl"].result_count == 0
    deal = Deal.objects.get(game=draft)
    assert client.get(reverse("admin:arms_race_deal_change", args=[deal.id])).status_code in (302, 404)
    response = client.post(reverse("admin:arms_race_deal_add"), deal_form(draft, ["8 dagger, bat"] * 3))
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()


def test_the_deal_is_locked_once_the_game_starts(draft, hank):
    Deal.objects.create(game=draft, hands=[list(h) for h in ORDERED_DEAL[:3]])
    game_services.game_start(game=draft, actor=hank)
    all_here(draft)  # the players sit down: the clocks run
    deal = Deal.objects.get(game=draft)
    client = admin_client(hank)
    page = client.get(reverse("admin:arms_race_deal_change", args=[deal.id]))
    assert (
        page.status_code == 200
        and "locked" in page.content.decode()
        and 'name="hand_1"' not in page.content.decode()
    )
    response = client.post(
        reverse("admin:arms_race_deal_change", args=[deal.id]), deal_form(draft, ["8 dagger, bat"] * 3)
    )
    assert response.status_code == 403
    assert Deal.objects.get(game=draft).hands == [list(h) for h in ORDERED_DEAL[:3]]


def test_a_demo_game_gets_the_seeds_deal_written_down(draft, hank):
    from games.platform import registry

    kind = registry.get("arms_race")
    shuffled = kind.hidden_data(draft)
    kind.demo_prepare(draft)
    assert Deal.objects.get(game=draft).hands == shuffled["deal"] and kind.hidden_problems(draft) == []
    game_services.game_start(game=draft, actor=hank)
    all_here(draft)  # the players sit down: the clocks run
    draft.refresh_from_db()
    assert draft.state["hands"] == shuffled["deal"]
