"""Middle Marathon as the season's Death Match: its loser is eliminated, or spends a Token of Life."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from games.platform import registry
from games.platform.models import DeathMatchPick, Game, SeasonPlayer
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_create
from games.platform.services.ledger import ledger_post
from games.platform.services.season import pick_submit, tokens_of_life
from tests.api_support import told
from tests.middle_marathon.marathon_site import marathon_game, put_state, state_of
from tests.platform.test_season import play_tally_to_the_end
from tests.sitting import all_here
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db


def death_match(season, hank, candidate, opponent, *, sit=True, **settings) -> Game:
    """A Tally Main Match `candidate` loses, the pick of `opponent`, and the Middle Marathon made of it."""
    mm = game_services.game_create(
        season=season, game_type="tally", name="MM", hosts=[hank], settings={"rounds": 1}, actor=hank
    )
    for user in (candidate, opponent):
        game_services.game_seat(game=mm, user=user, actor=hank)
    game_services.game_start(game=mm, actor=hank)
    all_here(mm)  # the players sit down: the clocks run
    play_tally_to_the_end(mm, {candidate: 0, opponent: 2})
    pick = DeathMatchPick.objects.get(main_match=mm)
    pick_submit(pick=pick, user=candidate, opponent=opponent)
    dm = death_match_create(pick=pick, actor=hank)
    assert dm.game_type == "middle_marathon"  # the season's default Death Match
    dm.settings = {**dm.settings, "reserve_seconds": 30, **settings}
    dm.save(update_fields=["settings"])
    game_services.game_start(game=dm, actor=hank)
    if sit:
        all_here(dm)  # the players sit down: the clocks run
    dm.refresh_from_db()
    return dm


def run_out_the_first_players_clock(dm: Game) -> None:
    # Blue (the candidate, seated first) moves first and lets the turn and the reserve run out.
    for second in (61, 91):
        with time_machine.travel(dm.started_at + timedelta(seconds=second)):
            sweep()
    dm.refresh_from_db()
    assert dm.status == Game.Status.FINISHED


def test_a_player_absent_at_the_start_time_loses_the_death_match_and_is_eliminated(season, hank, alice, bob):
    # Issue 20.1, "absent_at_start": "loses" (docs/rulings/middle_marathon.md, "An absent player").
    from django.utils import timezone

    from games.platform.services.sitting import here_say

    start = timezone.now().replace(microsecond=0) + timedelta(hours=1)
    dm = death_match(season, hank, alice, bob, sit=False, start_time=start.isoformat())
    here_say(seat=dm.seats.get(user=bob))
    with time_machine.travel(start + timedelta(seconds=1)):
        sweep()
    dm.refresh_from_db()
    assert dm.status == Game.Status.FINISHED and registry.get("middle_marathon").match_loser(dm) == 0
    assert SeasonPlayer.objects.get(season=season, user=alice).eliminated
    assert "alice is eliminated." in " ".join(told(dm))


def test_the_loser_of_a_death_match_is_eliminated(season, hank, alice, bob):
    dm = death_match(season, hank, alice, bob)
    run_out_the_first_players_clock(dm)
    assert registry.get("middle_marathon").match_loser(dm) == 0
    assert SeasonPlayer.objects.get(season=season, user=alice).eliminated
    assert not SeasonPlayer.objects.get(season=season, user=bob).eliminated
    assert "alice is eliminated." in told(dm)


def test_the_loser_of_a_death_match_spends_a_token_of_life_where_the_season_allows(season, hank, alice, bob):
    season.settings = {"tol_holders_immune": False}
    season.save()
    ledger_post(season=season, user=alice, what="tokens_of_life", delta=1, reason="won it")
    dm = death_match(season, hank, alice, bob)
    run_out_the_first_players_clock(dm)
    assert not SeasonPlayer.objects.get(season=season, user=alice).eliminated
    assert tokens_of_life(season, alice) == 0
    assert "alice spends a Token of Life and survives." in told(dm)


def test_the_loser_is_the_player_who_did_not_win_and_nobody_when_the_dmo_wins(season, hank, alice, bob):
    kind = registry.get("middle_marathon")
    game = marathon_game(season, hank, alice, bob)
    state = state_of(game)
    for winner, loser in ((0, 1), (1, 0), (None, None)):
        state.result = {"winner": winner, "draw": winner is None, "reason": "placements"}
        put_state(game, state)
        assert kind.match_loser(game) == loser
