"""Round windows on the server's clock: 48 h for Round 0, 24 h for Rounds 1-10, the decision rounds after."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games.horse_race.rules import ROUNDS
from games.platform.models import Game
from tests.horse_race.site_support import NAMES, make_game, observe, resolve, submit
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db


def window(rnd) -> timedelta:
    return rnd.closes_at - rnd.opens_at


def open_round(game):
    return game.rounds.filter(status="open").order_by("-number").first()


def test_round_0_lasts_48_hours_and_the_sweep_opens_a_24_hour_round_1(race, nine):
    round0 = open_round(race)
    assert window(round0) == timedelta(hours=48)
    with time_machine.travel(round0.closes_at - timedelta(minutes=1), tick=False):
        assert submit(race, nine[0], 0, {"ability": {"kind": "clue", "use": {"A": 1}}}).status_code == 201
        assert sweep()["resolved"] == 0
    with time_machine.travel(round0.closes_at + timedelta(seconds=1), tick=False):
        late = submit(race, nine[1], 0, {"ability": {"kind": "clue", "use": {"B": 1}}})
        assert late.status_code == 409
        assert sweep()["resolved"] == 1
        round1 = open_round(race)
        assert round1.number == 1 and window(round1) == timedelta(hours=24)
        assert "Round 0 clue" in " ".join(e["text"] for e in observe(race, nine[0])["inbox"])
        assert observe(race, nine[1])["inbox"] == []


def test_window_minutes_shortens_every_window(season, hank, nine):
    game = make_game(season, hank, nine[:2], settings={"window_minutes": 10})
    assert window(open_round(game)) == timedelta(minutes=10)
    resolve(game, hank)
    assert window(open_round(game)) == timedelta(minutes=10)


def test_decision_rounds_have_their_own_window_and_close_on_time(season, hank, make_user):
    players = [make_user(name) for name in NAMES[:4]]
    game = make_game(season, hank, players, settings={"decision_hours": 6})
    for _ in range(ROUNDS):
        resolve(game, hank)
    every = {h: 1 for h in "ABCDEFGHI"}
    submit(game, players[0], ROUNDS, {"ability": {"kind": "utility", "use": every}})
    resolve(game, hank)
    choice = open_round(game)
    assert choice.number == ROUNDS + 1 and window(choice) == timedelta(hours=6)
    page = Client()
    page.force_login(players[1])
    html = page.get(reverse("game", args=[game.id])).content.decode()
    assert "You have nothing to submit this round." in html and 'name="save"' not in html
    page.force_login(players[0])
    html = page.get(reverse("game", args=[game.id])).content.decode()
    assert 'name="choice"' in html and 'name="save"' in html
    with time_machine.travel(choice.closes_at + timedelta(seconds=1), tick=False):
        assert sweep()["resolved"] == 1
        vote = open_round(game)
        assert vote.number == ROUNDS + 2 and window(vote) == timedelta(hours=6)
    with time_machine.travel(vote.closes_at + timedelta(seconds=1), tick=False):
        assert sweep()["resolved"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rounds.filter(number=ROUNDS + 3).exists()
    final = observe(game)["state"]
    assert final["elimination_candidate"] in (1, 2, 3) and sum(final["tokens_of_life_given"]) == 1


def test_a_match_with_nothing_left_to_decide_ends_with_round_10(season, hank, nine):
    game = make_game(season, hank, nine[:2])
    for _ in range(ROUNDS):
        resolve(game, hank)
    submit(game, nine[0], ROUNDS, {"ability": {"kind": "utility", "use": {"A": 1}}})
    resolve(game, hank)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.rounds.count() == ROUNDS + 1
    assert observe(game)["state"]["elimination_candidate"] == 1


def test_the_feed_says_when_a_round_closes_and_the_next_opens(race, nine, hank):
    resolve(race, hank)
    said = [e["text"] for e in observe(race, nine[0])["announcements"]]
    assert said.index("Round 0 closed.") < said.index("Round 1 is open.")
    assert said[-1] == "Round 1 is open."
