"""Settings as a form (issue 21.3): a field per described setting, errors next to their field, rulings with
the sentence they read; the JSON box only for what no description covers."""

from __future__ import annotations

import pytest

from games.platform import registry
from games.platform.admin.settings_form import field_name
from games.platform.models import Game
from games.platform.services import games as game_services
from tests.platform.admin_support import game_form

pytestmark = pytest.mark.django_db

GAMES = ("cards_table", "horse_race", "arms_race", "middle_marathon")


def draft_of(slug, season, hank):
    return game_services.game_create(
        season=season, game_type=slug, name=f"A {slug}", hosts=[hank], actor=hank
    )


@pytest.mark.parametrize("slug", GAMES)
def test_every_described_setting_is_a_field_of_the_games_admin_page_with_its_help(client, season, hank, slug):
    game = draft_of(slug, season, hank)
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{game.id}/change/").content.decode()
    for one in registry.get(slug).settings_described():
        assert f'name="{field_name(one)}"' in page, one.key
        assert one.help.replace('"', "&quot;").replace("'", "&#x27;") in page, one.help
    assert 'name="settings"' not in page, "no JSON box when every setting is described"


def test_a_setting_typed_in_its_field_reaches_the_game_and_keeps_the_others(client, season, hank):
    game = draft_of("cards_table", season, hank)
    before = Game.objects.get(pk=game.pk).settings
    client.force_login(hank)
    data = game_form(client, game, **{"set__rules__crowd_size": "4", "set__round_hours": "12"})
    answer = client.post(f"/admin/platform/game/{game.id}/change/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    after = Game.objects.get(pk=game.pk).settings
    assert after["rules"]["crowd_size"] == 4 and after["round_hours"] == 12
    assert isinstance(after["round_hours"], int), "a whole number of hours stays whole in the JSON"
    assert {k: v for k, v in after.items() if k not in ("rules", "round_hours")} == {
        k: v for k, v in before.items() if k not in ("rules", "round_hours")
    }


def test_a_bad_value_is_an_error_next_to_its_own_field_and_nothing_is_saved(client, season, hank):
    game = draft_of("horse_race", season, hank)
    before = Game.objects.get(pk=game.pk).settings
    client.force_login(hank)
    data = game_form(
        client,
        game,
        **{"set__round_hours": "0", "set__rules__bet_points": "1, 2", "set__rules__starting_chips": "x"},
    )
    answer = client.post(f"/admin/platform/game/{game.id}/change/", data)
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert errors["set__round_hours"] == ["round_hours must be a number above 0, not 0."]
    assert "bet_points must be a list of 9 whole numbers" in errors["set__rules__bet_points"][0]
    assert errors["set__rules__starting_chips"] == ["starting_chips must be a whole number."]
    assert Game.objects.get(pk=game.pk).settings == before


def test_a_ruling_that_is_a_setting_shows_the_sentence_it_reads(client, season, hank):
    game = draft_of("horse_race", season, hank)
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{game.id}/change/").content.decode()
    assert "<q>For Round 0, you have 48 hours to submit; you only need to submit for the ability.</q>" in page


def test_a_switch_ticked_off_is_saved_off(client, season, hank):
    game = draft_of("horse_race", season, hank)
    assert game.settings["rules"]["final_spectate_scored"] is True
    client.force_login(hank)
    data = game_form(client, game)
    data.pop("set__rules__final_spectate_scored")
    assert client.post(f"/admin/platform/game/{game.id}/change/", data).status_code == 302
    assert Game.objects.get(pk=game.pk).settings["rules"]["final_spectate_scored"] is False


def test_a_game_type_that_describes_nothing_keeps_its_json_box(client, tally, hank):
    client.force_login(hank)
    data = game_form(client, tally, settings='{"rounds": 5, "window_minutes": 60}')
    assert client.post(f"/admin/platform/game/{tally.id}/change/", data).status_code == 302
    assert Game.objects.get(pk=tally.pk).settings["rounds"] == 5


def test_a_start_time_is_typed_in_the_hosts_zone_and_kept_in_utc(client, season, hank):
    # Issue 20.1: "start_time (a moment, entered in the host's zone)".
    from games.platform.models import Profile

    Profile.objects.update_or_create(user=hank, defaults={"time_zone": "Europe/Paris"})
    game = draft_of("middle_marathon", season, hank)
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{game.id}/change/").content.decode()
    assert 'type="datetime-local"' in page and "Times here are in Europe/Paris." in page
    data = game_form(client, game, set__start_time="2026-12-01T20:00", set__clocks_start="at the start time")
    answer = client.post(f"/admin/platform/game/{game.id}/change/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    settings = Game.objects.get(pk=game.pk).settings
    assert (
        settings["start_time"] == "2026-12-01T19:00:00+00:00"
        and settings["clocks_start"] == "at the start time"
    )
    page = client.get(f"/admin/platform/game/{game.id}/change/").content.decode()
    assert 'value="2026-12-01T20:00"' in page  # shown again as typed, in the host's zone


def test_the_clocks_cannot_wait_for_a_start_time_that_is_not_set(client, season, hank):
    game = draft_of("arms_race", season, hank)
    client.force_login(hank)
    data = game_form(client, game, set__clocks_start="at the start time", set__start_time="")
    answer = client.post(f"/admin/platform/game/{game.id}/change/", data)
    assert answer.status_code == 200
    assert "start_time is needed" in str(answer.context["adminform"].form.errors)
