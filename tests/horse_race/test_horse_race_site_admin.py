"""The hosts' movement table in the admin: a validated grid or the seed's, hosts of the game only, locked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.horse_race.game import HorseRace
from games.horse_race.hidden import movement_from_seed
from games.horse_race.models import MovementTable
from games.platform.services import games as game_services
from tests.horse_race.horse_race_support import table

pytestmark = pytest.mark.django_db


def admin_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def grid_post(game, grid, **extra) -> dict:
    data = {"game": game.id, **extra}
    for horse, row in grid.items():
        for r, value in enumerate(row, start=1):
            data[f"{horse}{r}"] = value
    return data


@pytest.fixture
def draft(season, hank, nine):
    game = game_services.game_create(season=season, game_type="horse_race", name="Draft race", hosts=[hank])
    for user in nine[:3]:
        game_services.game_seat(game=game, user=user, actor=hank)
    return game


def test_a_bad_cell_is_refused_next_to_it_and_blank_cells_are_kept_as_a_draft(draft, hank):
    grid = table()
    grid["A"][0] = 4
    grid["C"][9] = ""
    response = admin_as(hank).post(reverse("admin:horse_race_movementtable_add"), grid_post(draft, grid))
    assert response.status_code == 200 and not MovementTable.objects.exists()
    form = response.context["adminform"].form
    assert form.errors == {"A1": ["1, 2 or 3"]}, "only the typed slip, next to its cell"
    grid["A"][0] = 1
    response = admin_as(hank).post(
        reverse("admin:horse_race_movementtable_add"), grid_post(draft, grid), follow=True
    )
    assert "Saved as a draft: 1 cell missing." in response.content.decode()
    assert HorseRace().hidden_problems(draft) == ["the movement table is a draft: 1 cell missing"]


def test_one_value_typed_saves_a_draft_with_one_line_not_89(draft, hank):
    data = {"game": draft.id, "A1": 2}
    response = admin_as(hank).post(reverse("admin:horse_race_movementtable_add"), data, follow=True)
    page = response.content.decode()
    assert "Saved as a draft: 89 cells missing." in page and "is not 1, 2 or 3" not in page
    assert MovementTable.objects.get(game=draft).grid["A"][:2] == [2, None]
    assert HorseRace().hidden_problems(draft) == ["the movement table is a draft: 89 cells missing"]


def test_one_click_draws_the_table_from_the_seed(draft, hank):
    response = admin_as(hank).post(
        reverse("admin:horse_race_movementtable_add"), {"game": draft.id, "from_seed": "on"}
    )
    assert response.status_code == 302
    assert MovementTable.objects.get(game=draft).grid == movement_from_seed(draft.seed)
    assert HorseRace().hidden_problems(draft) == []


def test_only_the_games_hosts_see_its_table(draft, hank, make_user):
    MovementTable.objects.create(game=draft, grid=table())
    olga = make_user("olga", is_staff=True)
    other = admin_as(olga)
    listing = other.get(reverse("admin:horse_race_movementtable_changelist")).content.decode()
    assert "Draft race" not in listing
    add_page = other.get(reverse("admin:horse_race_movementtable_add")).content.decode()
    assert "Draft race" not in add_page
    change = other.get(reverse("admin:horse_race_movementtable_change", args=[draft.horse_race_movement.id]))
    assert change.status_code == 302
    mine = admin_as(hank).get(
        reverse("admin:horse_race_movementtable_change", args=[draft.horse_race_movement.id])
    )
    assert mine.status_code == 200 and 'name="A1" value="3"' in mine.content.decode()
    edited = table()
    edited["I"][9] = 3
    url = reverse("admin:horse_race_movementtable_change", args=[draft.horse_race_movement.id])
    assert admin_as(hank).post(url, grid_post(draft, edited)).status_code == 302
    assert MovementTable.objects.get(game=draft).grid == edited


def test_the_table_is_locked_once_the_game_starts(draft, hank):
    table_row = MovementTable.objects.create(game=draft, grid=table())
    game_services.game_start(game=draft, actor=hank)
    url = reverse("admin:horse_race_movementtable_change", args=[table_row.id])
    page = admin_as(hank).get(url).content.decode()
    assert 'name="A1"' not in page and "<th>A</th><td>3</td>" in page
    changed = table()
    changed["A"][0] = 1
    admin_as(hank).post(url, grid_post(draft, changed))
    admin_as(hank).post(
        reverse("admin:horse_race_movementtable_changelist"),
        {"action": "generate_from_seed", "_selected_action": [table_row.id]},
    )
    table_row.refresh_from_db()
    assert table_row.grid == table()


def test_an_invalid_table_blocks_the_start_and_the_demo_draws_a_valid_one(draft, hank):
    from games.platform.kit import RulesError

    MovementTable.objects.create(game=draft, grid={"A": [1, 2]})
    with pytest.raises(RulesError) as refused:
        game_services.game_start(game=draft, actor=hank)
    assert (
        refused.value.message
        == "The hidden data is not ready: the movement table is a draft: 88 cells missing"
    )
    HorseRace().demo_prepare(draft)
    assert HorseRace().hidden_problems(draft) == []
    game_services.game_start(game=draft, actor=hank)
    draft.refresh_from_db()
    assert draft.status == "running" and draft.state["movement"] == movement_from_seed(draft.seed)


def test_settings_are_checked(season, hank):
    from games.platform.kit import RulesError

    kind = HorseRace()
    assert kind.settings_problems(kind.default_settings()) == []
    assert kind.settings_problems({**kind.default_settings(), "window_minutes": 10}) == []
    problems = kind.settings_problems({**kind.default_settings(), "round_hours": 0, "rules": {"nonsense": 1}})
    assert problems == ["round_hours must be a number above 0, not 0.", "Unknown rules setting(s): nonsense."]
    with pytest.raises(RulesError):
        game_services.game_create(
            season=season, game_type="horse_race", name="Bad", hosts=[hank], settings={"window_minutes": -1}
        )
