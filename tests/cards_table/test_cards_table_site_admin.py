"""The hosts' boards admin: violations shown with their cells, a start refused until the set is valid,
generation from the seed, hand-set heat indicators, the lock once the game starts, hosts scoped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.cards_table.admin import cell_field
from games.cards_table.models import BoardSet
from games.platform.models import Game
from games.platform.services import games as game_services

from .site_support import api, codes, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(season, hank, alice, bob):
    game = game_services.game_create(season=season, game_type="cards_table", name="Cards", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    return game


def form_data(game, boards, **extra) -> dict:
    data = {"game": game.id, "heat_rule": "mean", "overrides": ""}
    for rnd, board in enumerate(boards, start=1):
        for i, code in enumerate(board):
            data[cell_field(rnd, i // 5 + 1, i % 5 + 1)] = code
    return data | extra


def as_host(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(game, host):
    return api(host).post(reverse("api-host-start", args=[game.id]), format="json")


def test_a_broken_board_shows_each_violation_next_to_its_cells_and_keeps_what_was_typed(draft, hank):
    boards = codes()
    boards[0][0] = "3B"  # R1C1 of Round 1 was 2B: its location now sums to 8, and the counts break
    response = as_host(hank).post(reverse("admin:cards_table_boardset_add"), form_data(draft, boards))
    assert response.status_code == 200
    assert not BoardSet.objects.exists()
    errors = response.context["adminform"].form.errors
    assert "The cards at R1C1 sum to 8 over the 3 rounds." in errors[cell_field(1, 1, 1)]
    assert "The cards at R1C1 sum to 8 over the 3 rounds." in errors[cell_field(3, 1, 1)]
    assert any("location_sum" in e for e in errors["__all__"])
    assert any("eight 1 cards" in e or "number_counts" in e for e in errors["__all__"])
    html = response.content.decode()
    assert 'value="3B"' in html and "The cards at R1C1 sum to 8" in html


def test_a_draft_with_violations_is_kept_but_the_start_is_refused_until_fixed(draft, hank):
    boards = codes()
    boards[1][6] = ""  # one card of Round 2 missing
    saved = as_host(hank).post(
        reverse("admin:cards_table_boardset_add"), form_data(draft, boards), follow=True
    )
    assert "Saved as a draft: 1 card missing." in saved.content.decode()
    assert (
        start(draft, hank).json()["detail"]
        == "The hidden data is not ready: the boards are a draft: 1 card missing"
    )
    BoardSet.objects.filter(game=draft).delete()
    boards = codes()
    boards[2][0], boards[2][1] = boards[2][1], boards[2][0]  # swapped: every count still right, rules broken
    saved = as_host(hank).post(
        reverse("admin:cards_table_boardset_add"), form_data(draft, boards, keep_draft="on")
    )
    assert saved.status_code == 302
    board_set = BoardSet.objects.get(game=draft)
    assert board_set.violations()
    refused = start(draft, hank)
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("The hidden data is not ready: the boards are a draft: ")
    assert "broken in Round 3, row 1" in refused.json()["detail"]
    page = as_host(hank).get(reverse("admin:cards_table_boardset_change", args=[board_set.pk]))
    assert board_set.violations()[0]["message"] in page.content.decode()

    fixed = as_host(hank).post(
        reverse("admin:cards_table_boardset_change", args=[board_set.pk]),
        form_data(draft, codes(), overrides="2 R3C4 BWGGB"),
    )
    assert fixed.status_code == 302
    assert start(draft, hank).status_code == 200
    draft.refresh_from_db()
    assert draft.state["heat_rule"] == "mean"
    assert draft.state["heat_overrides"][0]["indicator"]["top"] == "black"
    assert draft.state["heat_overrides"][0]["indicator"]["background"] == "black"


def test_generate_from_the_seed_makes_a_valid_set_and_the_game_locks_it(draft, hank):
    response = as_host(hank).post(
        reverse("admin:cards_table_boardset_add"), form_data(draft, [[""] * 25] * 3, from_seed="on")
    )
    assert response.status_code == 302
    board_set = BoardSet.objects.get(game=draft)
    assert board_set.violations() == []
    assert start(draft, hank).status_code == 200
    draft.refresh_from_db()
    change = reverse("admin:cards_table_boardset_change", args=[board_set.pk])
    refused = as_host(hank).post(change, form_data(draft, codes()))
    assert refused.status_code == 403
    board_set.refresh_from_db()
    assert board_set.codes != codes()  # untouched
    assert "Round 1" in as_host(hank).get(change).content.decode()  # read-only, still shown
    assert draft.commitment  # the boards were committed at the start


def test_hosts_see_only_the_boards_of_their_own_games(season, hank, make_user, alice, bob):
    game = make_game(season, hank, [alice, bob], start=False)
    otto = make_user("otto", is_staff=True)
    other = as_host(otto)
    assert other.get(reverse("admin:cards_table_boardset_changelist")).context["cl"].result_count == 0
    board_set = BoardSet.objects.get(game=game)
    assert other.get(reverse("admin:cards_table_boardset_change", args=[board_set.pk])).status_code == 302
    assert as_host(hank).get(reverse("admin:cards_table_boardset_changelist")).context["cl"].result_count == 1
    assert game.status == Game.Status.DRAFT


def test_a_host_creating_the_game_is_shown_the_repeated_actions_ruling_and_can_choose_the_other_reading(
    season, hank
):
    from games.cards_table.settings import rules_settings
    from tests.platform.admin_support import game_form

    host = as_host(hank)
    added = host.post(
        reverse("admin:platform_game_add"),
        {"season": season.id, "game_type": "cards_table", "name": "Cards MM", "seed": 5, "hosts": [hank.id]},
        follow=True,
    )
    game = Game.objects.get(name="Cards MM")
    page = added.content.decode()
    assert added.redirect_chain[-1][0] == reverse("admin:platform_game_change", args=[game.id])
    assert 'name="set__rules__allow_repeated_actions"' in page
    assert "A player may declare an action already used in an earlier round." in page
    assert "<q>Players must do each of these actions once across the 3 rounds</q>" in page
    assert not rules_settings(game.settings, players=10).allow_repeated_actions  # the ruling's reading

    chosen = host.post(
        reverse("admin:platform_game_change", args=[game.id]),
        game_form(host, game, set__rules__allow_repeated_actions="on"),
    )
    assert chosen.status_code == 302, chosen.content.decode()[:3000]
    game.refresh_from_db()
    assert game.settings["rules"]["allow_repeated_actions"] is True
