"""A host's bad input is a clear error next to its field, never a 500 or a crash at the close (17.11).

Seating a player twice, a board cell that is not a card code, and a rules setting of the wrong kind or out
of range ("3" as text, a crowd of 0) are refused where the host typed them: the API's per-field errors and
the admin's form.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.platform import registry
from games.platform.models import Game, Seat
from games.platform.services import games as game_services
from games.platform.setting import CHOICE, MOMENT, NUMBER, SWITCH, WHOLE, WHOLES, defaults
from tests.api_support import api
from tests.cards_table.site_support import codes
from tests.platform.admin_support import game_form

pytestmark = pytest.mark.django_db

GAMES = ("cards_table", "horse_race", "arms_race", "middle_marathon")


@pytest.fixture
def draft(season, hank, alice):
    game = game_services.game_create(season=season, game_type="tally", name="Draft", hosts=[hank], actor=hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    return game


def test_seating_the_same_player_twice_is_a_400_next_to_the_username(draft, hank):
    answer = api(hank).post(reverse("api-host-seat", args=[draft.id]), {"username": "alice"}, format="json")
    assert answer.status_code == 400
    assert "already seated" in answer.json()["errors"]["username"][0]
    assert Seat.objects.filter(game=draft).count() == 1


def test_seating_the_same_player_twice_in_the_admin_says_so(client, draft, hank):
    client.force_login(hank)
    form = client.get(f"/admin/platform/game/{draft.id}/change/").context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "hosts"}
    data.update({"hosts": [hank.id], "settings": json.dumps(draft.settings), "seat_players": "alice"})
    answer = client.post(f"/admin/platform/game/{draft.id}/change/", data, follow=True)
    assert answer.status_code == 200
    assert "already seated" in answer.content.decode()


@pytest.fixture
def cards_draft(season, hank):
    return game_services.game_create(
        season=season, game_type="cards_table", name="Cards", hosts=[hank], actor=hank
    )


def test_a_board_cell_that_is_not_a_card_code_is_a_400_next_to_the_boards(cards_draft, hank):
    boards = codes()
    boards[1][13] = {"number": 2, "colour": "red"}
    answer = api(hank).post(
        reverse("api-host-hidden", args=[cards_draft.id]),
        {"data": {"boards": boards, "heat_rule": ""}},
        format="json",
    )
    assert answer.status_code == 400
    message = answer.json()["errors"]["boards"][0]
    assert "Board 2, R3C4" in message and "2R" in message


def test_a_heat_override_of_the_wrong_shape_is_a_400_not_a_crash_at_the_start(cards_draft, hank):
    answer = api(hank).post(
        reverse("api-host-hidden", args=[cards_draft.id]),
        {"data": {"boards": codes(), "heat_rule": "", "heat_overrides": [{"round": 2, "row": 9}]}},
        format="json",
    )
    assert answer.status_code == 400 and "heat_overrides" in answer.json()["errors"]


def _admin_settings(client, game, hank, fields):
    client.force_login(hank)
    return client.post(f"/admin/platform/game/{game.id}/change/", game_form(client, game, **fields))


@pytest.mark.parametrize(
    "crowd, words", [(0, "at least 1, not 0"), ("three", "crowd_size must be a whole number.")]
)
def test_a_rules_setting_of_the_wrong_kind_or_range_is_refused_next_to_the_field(
    client, cards_draft, hank, crowd, words
):
    before = Game.objects.get(pk=cards_draft.pk).settings
    answer = _admin_settings(client, cards_draft, hank, {"set__rules__crowd_size": crowd})
    assert answer.status_code == 200, "the form comes back with the error"
    errors = answer.context["adminform"].form.errors["set__rules__crowd_size"]
    assert any(words in e for e in errors)
    assert Game.objects.get(pk=cards_draft.pk).settings == before


def test_a_game_created_through_the_api_with_a_bad_setting_is_a_400(hank, season):
    answer = api(hank).post(
        reverse("api-games"),
        {"season": season.id, "type": "cards_table", "name": "C", "settings": {"rules": {"crowd_size": 0}}},
        format="json",
    )
    assert answer.status_code == 400
    assert "crowd_size" in answer.json()["errors"]["settings"][0]
    assert not Game.objects.filter(name="C").exists()


def _wrong_values(described):
    """A value of the wrong kind, and one out of range where there is a range."""
    wrong = {
        WHOLE: ["3", 2.5, True, None],
        NUMBER: ["3", True, [1]],
        SWITCH: ["yes", 1, None],
        CHOICE: ["nonsense", True],
        WHOLES: ["1,2,3", 5, ["1"]],
        # a time without its offset could be read in any zone: refused like words and numbers
        MOMENT: ["tomorrow at noon", "2026-12-01T18:00", 1764612000, True],
    }[described.kind]
    if described.least is not None:
        wrong.append(described.least - 1)
    if described.above is not None:
        wrong.append(described.above)
    if described.most is not None:
        wrong.append(described.most + 1)
    if described.length is not None:
        wrong.append([0] * (described.length + 1))
    return [value for value in wrong if not (value is None and described.default is None)]


@pytest.mark.parametrize("slug", GAMES)
def test_every_setting_of_every_game_refuses_a_value_of_the_wrong_kind_or_out_of_range(slug):
    kind = registry.get(slug)
    described = kind.settings_described()
    assert described, f"{slug} describes its settings"
    for one in described:
        for value in _wrong_values(one):
            settings = json.loads(json.dumps(kind.default_settings()))
            *parents, last = one.key.split(".")
            place = settings
            for part in parents:
                place = place.setdefault(part, {})
            place[last] = value
            problems = kind.settings_problems(settings)
            assert any(one.name in p for p in problems), f"{slug}: {one.key}={value!r} was not refused"


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_describes_its_default_settings(slug):
    kind = registry.get(slug)
    described = kind.settings_described()
    assert kind.settings_problems({**kind.default_settings(), **defaults(described)}) == []
    assert all(one.help for one in described), "each setting says what it is for"


def test_an_unknown_game_type_in_the_admin_add_form_is_an_error_next_to_it(season, hank, client):
    client.force_login(hank)
    answer = client.post(
        reverse("admin:platform_game_add"),
        {
            "season": season.id,
            "game_type": "no_such_game",
            "name": "Forged",
            "seed": 1,
            "hosts": [hank.id],
            "seat_players": "",
            "announce": "",
            "announce_as": "general",
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
        },
    )
    assert answer.status_code == 200
    assert not Game.objects.filter(name="Forged").exists()
    assert "game_type" in answer.context["adminform"].form.errors
