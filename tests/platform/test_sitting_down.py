"""Sitting down at a live match (issue 20.1): no clock runs before the players are at the table.

Clocks moved with time-machine (never slept), the sweep run as production runs it (tests/sweeping.py).
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.platform import registry
from games.platform.awaiting import SIT_DOWN, awaiting
from games.platform.errors import StateChanged
from games.platform.kit import RulesError
from games.platform.models import Game, Seat, TurnClock
from games.platform.services import games as game_services
from games.platform.services.live import action_apply
from games.platform.services.sitting import here_say, seat_replace
from games.platform.versions import game_row
from tests.api_support import api, told
from tests.conftest import seat_of
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


def at(seconds):
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def clock(game) -> TurnClock:
    return TurnClock.objects.select_related("seat").get(game=game)


def duel_of(season, hank, players, **settings) -> Game:
    """A Tally Duel (the test game on turn clocks) started at T0, nobody here yet."""
    with at(0):
        game = game_services.game_create(
            season=season, game_type="tally_duel", name="Duel", hosts=[hank], settings=settings, actor=hank
        )
        for user in players:
            game_services.game_seat(game=game, user=user, actor=hank)
        game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


@pytest.fixture
def duel(season, hank, alice, bob):
    return duel_of(season, hank, [alice, bob])


def start_time(seconds) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


# -- the clocks wait --------------------------------------------------------------------------------------


def test_a_live_match_opens_with_its_clocks_stopped(duel):
    c = clock(duel)
    assert duel.clocks_started_at is None and duel.sitting_down
    assert c.seat.number == 0 and c.deadline is None and c.remaining_when_paused == timedelta(seconds=60)
    with at(3600):
        assert sweep()["clocks"] == 0  # an hour with nobody at the table: no time is charged
    assert clock(duel).remaining_when_paused == timedelta(seconds=60)
    duel.refresh_from_db()
    assert duel.status == Game.Status.RUNNING


def test_nobody_moves_before_everyone_is_here(duel, alice, bob):
    with (
        at(5),
        pytest.raises(StateChanged, match=r"The match starts when everyone is here \(0 of 2 so far\)"),
    ):
        action_apply(seat=seat_of(duel, alice), payload={"say": 1})
    with at(6):
        here_say(seat=seat_of(duel, alice))
    with at(7), pytest.raises(StateChanged, match=r"\(1 of 2 so far\)"):
        action_apply(seat=seat_of(duel, alice), payload={"say": 1})
    refused = api(alice).post(reverse("api-action", args=[duel.id]), {"payload": {"say": 1}}, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"] == "The match starts when everyone is here (1 of 2 so far)."


def test_the_last_im_here_starts_the_clocks_and_moves_the_version(duel, alice, bob):
    with at(100):
        here_say(seat=seat_of(duel, alice))
    assert clock(duel).deadline is None
    before = game_row(duel.id)["version"]
    with at(200):
        here_say(seat=seat_of(duel, bob))
    duel.refresh_from_db()
    c = clock(duel)
    assert duel.clocks_started_at == T0 + timedelta(seconds=200)
    assert c.deadline == T0 + timedelta(seconds=260) and c.remaining_when_paused is None
    assert game_row(duel.id)["version"] > before  # every poll sees the running clock
    assert "Everyone is here: the clocks start." in told(duel)
    with at(220):
        action_apply(seat=seat_of(duel, alice), payload={"say": 2})
    assert clock(duel).seat.number == 1


def test_saying_it_twice_or_after_the_start_changes_nothing(duel, alice, bob):
    with at(10):
        here_say(seat=seat_of(duel, alice))
    version = game_row(duel.id)["version"]
    with at(11):
        here_say(seat=seat_of(duel, alice))
    assert game_row(duel.id)["version"] == version
    assert Seat.objects.get(game=duel, number=0).here_at == T0 + timedelta(seconds=10)
    with at(12):
        here_say(seat=seat_of(duel, bob))
    deadline = clock(duel).deadline
    with at(13):
        here_say(seat=seat_of(duel, bob))
    assert clock(duel).deadline == deadline


# -- the start time ---------------------------------------------------------------------------------------


def test_at_the_start_time_the_clocks_start_then_and_once(season, hank, alice, bob):
    duel = duel_of(season, hank, [alice, bob], clocks_start="at the start time", start_time=start_time(300))
    with at(10):
        all_here(duel)
    assert clock(duel).deadline is None  # everyone is here, and the hosts said: at the start time
    with at(299):
        assert sweep()["starts"] == 0
    with at(301):
        assert sweep()["starts"] == 1
        assert sweep()["starts"] == 0  # acted on once
    duel.refresh_from_db()
    assert duel.clocks_started_at == T0 + timedelta(seconds=301)
    assert clock(duel).deadline == T0 + timedelta(seconds=361)
    assert "The start time came and everyone is here: the clocks start." in told(duel)


def test_at_the_start_time_a_move_is_refused_with_the_time(season, hank, alice, bob):
    duel = duel_of(season, hank, [alice, bob], clocks_start="at the start time", start_time=start_time(300))
    with at(5), pytest.raises(StateChanged, match=r"The match starts at .* \(UTC\) \(0 of 2 here so far\)"):
        action_apply(seat=seat_of(duel, alice), payload={"say": 1})


def test_absent_at_the_start_time_loses_and_is_named_the_loser(season, hank, alice, bob):
    duel = duel_of(season, hank, [alice, bob], start_time=start_time(600))
    with at(30):
        here_say(seat=seat_of(duel, alice))
    with at(601):
        sweep()
    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED
    assert registry.get("tally_duel").match_loser(duel) == 1  # bob: the season's flow eliminates him
    assert "The start time came and bob is not here." in told(duel)


def test_the_start_time_may_be_set_after_the_start_while_the_players_sit_down(duel, hank, alice):
    game_services.game_settings_update(game=duel, settings={"start_time": start_time(60)}, actor=hank)
    duel.refresh_from_db()
    assert duel.clocks_start_at == T0 + timedelta(seconds=60)
    with at(61):
        sweep()
    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED and duel.state["loser"] == 0  # nobody came; seat 1 first


def test_at_the_start_time_without_a_start_time_is_refused(season, hank):
    with pytest.raises(RulesError, match="start_time is needed"):
        game_services.game_create(
            season=season,
            game_type="middle_marathon",
            name="MM",
            hosts=[hank],
            settings={"clocks_start": "at the start time"},
            actor=hank,
        )
    with pytest.raises(RulesError, match="start_time must be a date and time"):
        game_services.game_create(
            season=season, game_type="arms_race", name="AR", settings={"start_time": "tonight"}, actor=hank
        )


# -- replaced ---------------------------------------------------------------------------------------------


def test_absent_is_replaced_the_match_waits_for_the_hosts_choice(season, hank, alice, bob, charlie):
    duel = duel_of(season, hank, [alice, bob], start_time=start_time(600), absent_at_start="is replaced")
    with at(30):
        here_say(seat=seat_of(duel, alice))
    with at(601):
        sweep()
        assert sweep()["starts"] == 0
    duel.refresh_from_db()
    assert duel.status == Game.Status.RUNNING and duel.sitting_down
    assert (
        "The start time came and bob is not here: the match waits for the hosts to give the empty seats "
        in (told(duel)[-1])
    )
    with at(602):
        assert api(alice).get(reverse("api-game", args=[duel.id])).json()["sitting"]["replacing"] is True
    url = reverse("api-host-replace", args=[duel.id])
    assert api(alice).post(url, {"seat": 1, "username": "charlie"}, format="json").status_code == 403
    refused = api(hank).post(url, {"seat": 0, "username": "charlie"}, format="json")
    assert refused.status_code == 400 and "only an empty seat is given" in str(refused.json())
    refused = api(hank).post(url, {"seat": 1, "username": "nobody"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"] == {
        "username": ["No player has that username."]
    }
    with at(700):
        answer = api(hank).post(url, {"seat": 1, "username": "charlie"}, format="json")
    assert answer.status_code == 200, answer.json()
    duel.refresh_from_db()
    seat = Seat.objects.get(game=duel, number=1)
    assert seat.user == charlie and seat.here_at is not None
    assert duel.clocks_started_at == T0 + timedelta(seconds=700)  # the start time has passed: at once
    assert "The hosts gave bob's seat to charlie, who is here." in told(duel)


def test_a_seat_is_given_only_when_the_hosts_chose_so(duel, hank, charlie):
    with pytest.raises(RulesError, match="an absent player loses"):
        seat_replace(game=duel, seat_number=1, username="charlie", actor=hank)


# -- pause and resume --------------------------------------------------------------------------------------


def test_the_hosts_pause_a_live_match_for_an_absent_player_from_the_page_and_resume_it(
    duel, hank, alice, bob, client
):
    with at(0):
        all_here(duel)
    client.force_login(hank)
    page = client.get(reverse("game", args=[duel.id])).content.decode()
    assert 'name="host" value="pause"' in page
    with at(20):
        client.post(reverse("game", args=[duel.id]), {"host": "pause"})
    duel.refresh_from_db()
    assert duel.paused_at is not None and clock(duel).remaining_when_paused == timedelta(seconds=40)
    with at(500):
        assert sweep()["clocks"] == 0
        page = client.get(reverse("game", args=[duel.id])).content.decode()
        assert 'name="host" value="resume"' in page
        client.post(reverse("game", args=[duel.id]), {"host": "resume"})
    assert clock(duel).deadline == T0 + timedelta(seconds=540)  # what was left, from the resume
    client.force_login(alice)
    client.post(reverse("game", args=[duel.id]), {"host": "pause"})
    duel.refresh_from_db()
    assert duel.paused_at is None  # a player's "pause" does nothing


def test_the_hosts_pause_and_resume_through_the_api(duel, hank, alice):
    with at(0):
        all_here(duel)
    with at(10):
        assert api(hank).post(reverse("api-host-pause", args=[duel.id])).status_code == 200
    assert api(alice).post(reverse("api-host-resume", args=[duel.id])).status_code == 403
    with at(100):
        assert api(hank).post(reverse("api-host-resume", args=[duel.id])).status_code == 200
    assert clock(duel).deadline == T0 + timedelta(seconds=150)


def test_a_match_paused_while_its_players_sit_down_starts_frozen_and_runs_from_the_resume(duel, hank):
    with at(5):
        game_services.game_pause(game=duel, actor=hank)
    with at(10):
        all_here(duel)
    duel.refresh_from_db()
    assert duel.clocks_started_at is not None and clock(duel).deadline is None
    with at(300):
        game_services.game_resume(game=duel, actor=hank)
    assert clock(duel).deadline == T0 + timedelta(seconds=360)


def test_a_resume_before_everyone_is_here_keeps_the_clock_stopped(duel, hank, alice):
    with at(5):
        game_services.game_pause(game=duel, actor=hank)
    with at(6):
        game_services.game_resume(game=duel, actor=hank)
    assert clock(duel).deadline is None and clock(duel).remaining_when_paused == timedelta(seconds=60)


# -- the game types: who loses -------------------------------------------------------------------------------


def test_a_middle_marathon_player_absent_at_the_start_time_loses_the_death_match(season, hank, alice, bob):
    from tests.middle_marathon.marathon_site import marathon_game

    game = marathon_game(season, hank, alice, bob, settings={"start_time": start_time(60)}, seated=False)
    here_say(seat=seat_of(game, bob))
    with at(61):
        sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert registry.get("middle_marathon").match_loser(game) == 0  # alice (Blue): eliminated by the season
    assert "Blue was not there at the start time and loses. Red wins." in told(game)


def test_a_middle_marathon_with_both_players_absent_names_nobody(season, hank, alice, bob):
    from tests.middle_marathon.marathon_site import marathon_game

    game = marathon_game(season, hank, alice, bob, settings={"start_time": start_time(60)}, seated=False)
    with at(61):
        sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and registry.get("middle_marathon").match_loser(game) is None


def test_an_arms_race_player_absent_at_the_start_time_is_the_sole_loser(season, hank, make_user):
    from tests.arms_race.arms_race_site import NAMES, arms_game

    players = [make_user(name) for name in NAMES]
    game = arms_game(season, hank, players, settings={"start_time": start_time(60)}, seated=False)
    for seat in game.seats.exclude(number=6):
        here_say(seat=seat)
    with at(61):
        sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert registry.get("arms_race").elimination_candidate(game) == 6
    assert any(t.startswith("gus was not there at the start time. gus is the sole loser") for t in told(game))


def test_an_arms_race_with_two_absent_draws_its_sole_loser_among_them(season, hank, make_user):
    from tests.arms_race.arms_race_site import NAMES, arms_game

    players = [make_user(name) for name in NAMES]
    game = arms_game(season, hank, players, settings={"start_time": start_time(60)}, seated=False)
    for seat in game.seats.exclude(number__in=[2, 5]):
        here_say(seat=seat)
    with at(61):
        sweep()
    game.refresh_from_db()
    assert registry.get("arms_race").elimination_candidate(game) in (2, 5)
    assert any("settled by a random draw among cleo, fay" in t for t in told(game))


# -- awaiting you ----------------------------------------------------------------------------------------


def test_awaiting_asks_a_seated_player_to_sit_down_until_they_do(duel, alice, bob):
    (need,) = [a for a in awaiting(alice) if a.game_id == duel.id]
    assert need.need == SIT_DOWN and need.url == reverse("game", args=[duel.id])
    assert need.text.startswith("Sit down")
    here_say(seat=seat_of(duel, alice))
    assert [a for a in awaiting(alice) if a.game_id == duel.id] == []
    assert [a.need for a in awaiting(bob) if a.game_id == duel.id] == [SIT_DOWN]
    here_say(seat=seat_of(duel, bob))
    assert [a.need for a in awaiting(alice) if a.game_id == duel.id] == ["your_turn"]
    listed = api(bob).get(reverse("api-awaiting")).json()
    assert all(item["need"] != SIT_DOWN for item in listed)


def test_a_start_time_is_the_sit_downs_deadline(season, hank, alice, bob):
    duel_of(season, hank, [alice, bob], start_time=start_time(900))
    (need,) = awaiting(alice)
    assert need.deadline == T0 + timedelta(seconds=900)


# -- the page and the route, and what they tell whom --------------------------------------------------


def test_the_page_says_who_is_here_and_the_button_sits_a_player_down(duel, alice, bob, client):
    client.force_login(alice)
    page = client.get(reverse("game", args=[duel.id])).content.decode()
    assert "The match starts when everyone is here." in page and "0 of 2 here." in page
    assert 'name="here"' in page
    answer = client.post(reverse("game", args=[duel.id]), {"here": "1"})
    assert answer.status_code == 302  # without the page's script: the page again
    page = client.get(reverse("game", args=[duel.id])).content.decode()
    assert "1 of 2 here: alice." in page and "You are here." in page and 'name="here"' not in page
    client.force_login(bob)
    live = client.post(reverse("game", args=[duel.id]), {"here": "1"}, HTTP_HX_REQUEST="true")
    body = live.content.decode()
    assert live.status_code == 200 and body.strip().startswith(
        '<div id="live"'
    )  # htmx: the live part in place
    assert "Sitting down" not in body and "Waiting for <strong>alice</strong>" in body


def test_only_a_seated_player_says_they_are_here(duel, alice, charlie, make_user, season, hank, client):
    url = reverse("api-here", args=[duel.id])
    olga = make_user("olga", is_staff=True)
    other = game_services.game_create(season=season, game_type="tally_duel", name="Other", hosts=[olga])
    assert other.hosts.filter(pk=olga.pk).exists()
    assert api(charlie).post(url).status_code == 403  # a spectator
    assert api(olga).post(url).status_code == 403  # the host of another game
    assert api(hank).post(url).status_code == 403  # a host of this one does not play it
    assert api().post(url).status_code in (401, 403)  # anonymous
    Game.objects.filter(pk=duel.pk).update(public=False)
    assert api().post(url).status_code in (401, 403)
    assert Seat.objects.filter(game=duel, here_at__isnull=False).count() == 0
    answer = api(alice).post(url)
    assert answer.status_code == 200 and answer.json()["sitting"]["you_are_here"] is True
    client.force_login(charlie)
    client.post(reverse("game", args=[duel.id]), {"here": "1"})
    assert Seat.objects.filter(game=duel, here_at__isnull=False).count() == 1


def test_what_each_viewer_is_told_of_the_table_is_the_same_list(duel, alice, bob, charlie, hank):
    here_say(seat=seat_of(duel, alice))
    seen = {
        who: api(user).get(reverse("api-game", args=[duel.id])).json()["sitting"]
        for who, user in (
            ("alice", alice),
            ("bob", bob),
            ("charlie", charlie),
            ("hank", hank),
            ("anyone", None),
        )
    }
    assert {s["text"] for s in seen.values()} == {"1 of 2 here: alice"}
    assert seen["alice"]["you_are_here"] is True and seen["bob"]["you_are_here"] is False
    assert seen["charlie"]["you_are_here"] is None and seen["anyone"]["you_are_here"] is None


def test_a_rounds_game_has_no_sitting_down(tally, alice):
    assert tally.clocks_started_at is not None
    assert api(alice).get(reverse("api-game", args=[tally.id])).json()["sitting"] is None


def test_the_demos_live_games_wait_for_their_players():
    call_command("load_demo", "--quiet", stdout=io.StringIO())
    live = Game.objects.filter(game_type__in=["middle_marathon", "arms_race"])
    assert live.count() == 2
    for game in live:
        assert game.status == Game.Status.RUNNING and game.clocks_started_at is None
        assert TurnClock.objects.get(game=game).deadline is None
