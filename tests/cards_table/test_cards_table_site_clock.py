"""The round windows: flips only while a round is open, the heat verdict the close waits for, garnet peeks."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from games.cards_table.rules import state_from_json
from games.platform.models import Event, Round
from games.platform.services import games as game_services
from games.platform.services.ledger import balances, ledger_post
from games.platform.services.rounds import round_resolve_now
from tests.sweeping import sweep

from .site_support import make_game, observe, operate, submit

pytestmark = pytest.mark.django_db


def test_a_flip_after_the_close_is_refused_and_the_sweep_opens_the_next_window(cards, ten):
    rnd = Round.objects.get(game=cards, number=1)
    assert rnd.closes_at - rnd.opens_at == dt.timedelta(hours=24)
    with time_machine.travel(rnd.closes_at + dt.timedelta(seconds=1), tick=False):
        late = operate(cards, ten[0], "flip", {"row": 1, "col": 1})
        assert late.status_code == 409
        assert late.json()["detail"] == "Round 1 has closed; wait for the next round."
        assert sweep(now=timezone.now())["resolved"] == 1
        assert operate(cards, ten[0], "flip", {"row": 1, "col": 1}).status_code == 200
    cards.refresh_from_db()
    assert state_from_json(cards.state).round == 2
    assert cards.rounds.get(number=2).status == Round.Status.OPEN


def test_window_minutes_shortens_every_window_and_a_pause_stops_flips(season, hank, make_user):
    players = [make_user(n) for n in ("ann", "ben")]
    game = make_game(season, hank, players, settings={"window_minutes": 5})
    rnd = game.rounds.get(number=1)
    assert rnd.closes_at - rnd.opens_at == dt.timedelta(minutes=5)
    game_services.game_pause(game=game, actor=hank)
    paused = operate(game, players[0], "flip", {"row": 1, "col": 1})
    assert paused.status_code == 409 and "paused" in paused.json()["detail"]


def test_the_close_waits_for_the_heat_verdict_then_resolves_as_soon_as_it_is_given(
    cards, ten, hank, django_capture_on_commit_callbacks
):
    assert submit(cards, ten[2], 1, {"heat_guess": "black faces the hotter side"}).status_code == 201
    closes = Round.objects.get(game=cards, number=1).closes_at
    for minute in range(settings.GENIUS_RESOLVE_MAX_ATTEMPTS):
        with time_machine.travel(closes + dt.timedelta(minutes=minute + 1), tick=False):
            assert sweep(now=timezone.now())["resolved"] == 0
    # The round waits for the verdict: no failure is counted, and the hosts see what it waits for.
    waiting = observe(cards, hank)["round_waiting"]
    assert "the heat indicator guess of cat (seat 3) waits for a host's verdict" in waiting
    rnd = Round.objects.get(game=cards, number=1)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0

    later = closes + dt.timedelta(hours=2)
    with time_machine.travel(later, tick=False), django_capture_on_commit_callbacks(execute=True):
        judged = operate(cards, hank, "judge_heat", {"seat": 2, "correct": False})
    assert judged.status_code == 200
    assert Round.objects.get(game=cards, number=1).status == Round.Status.RESOLVED
    told = Event.objects.filter(game=cards, seat__number=2, kind=Event.Kind.REVEAL).values_list(
        "text", flat=True
    )
    assert "Your heat indicator guess is incorrect; you cannot guess again." in told
    again = submit(cards, ten[2], 2, {"heat_guess": "another idea"})
    assert again.status_code == 400
    assert again.json()["errors"]["heat_guess"] == [
        "You have already made your one guess of the heat indicator."
    ]


def test_a_changed_guess_needs_a_new_verdict(cards, ten, hank):
    assert submit(cards, ten[1], 1, {"heat_guess": "first idea"}).status_code == 201
    assert operate(cards, hank, "judge_heat", {"seat": 1, "correct": True}).status_code == 200
    assert submit(cards, ten[1], 1, {"heat_guess": "second idea"}).status_code == 201
    waiting = observe(cards, hank)["state"]["heat_guesses_to_judge"]
    assert waiting == [{"seat": 1, "player": "ben", "text": "second idea", "correct": None}]


def test_a_garnet_peek_debits_one_garnet_and_is_refused_when_short_or_in_round_one(cards, ten, hank, season):
    ann = ten[0]
    early = operate(cards, ann, "peek", {"row": 2, "col": 2})
    assert early.status_code == 400
    assert early.json()["detail"] == "A garnet buys a card of the previous round, from Round 2 on."
    round_resolve_now(game=cards, actor=hank)
    short = operate(cards, ann, "peek", {"row": 2, "col": 2})
    assert short.status_code == 400
    assert short.json()["detail"] == "You have 0 garnets; this needs 1."
    assert not Event.objects.filter(game=cards, seat__number=0, text__startswith="For 1 garnet").exists()
    assert state_from_json(Round.objects.get(game=cards, number=2).game.state).seat_round(0).peeks == ()

    ledger_post(season=season, user=ann, what="garnets", delta=2, reason="a host's grant")
    for cell in ((2, 2), (5, 5)):
        assert operate(cards, ann, "peek", {"row": cell[0], "col": cell[1]}).status_code == 200
    assert balances(season=season, user=ann)["garnets"] == 0
    seen = observe(cards, ann)["state"]["peek_table"]["rows"]
    assert seen[1][1]["card"]["number"] == 1 and seen[4][4]["card"]["colour"] == "yellow"
    assert operate(cards, ann, "peek", {"row": 1, "col": 1}).status_code == 400


def test_the_previous_board_shows_the_players_own_flips_and_offers_only_the_rest(cards, ten, hank, season):
    ann = ten[0]
    assert operate(cards, ann, "flip", {"row": 3, "col": 4}).status_code == 200
    round_resolve_now(game=cards, actor=hank)
    ledger_post(season=season, user=ann, what="garnets", delta=1, reason="a host's grant")
    cells = [cell for row in observe(cards, ann)["state"]["peek_table"]["rows"] for cell in row]
    own = next(c for c in cells if c["name"] == "R3C4")
    assert own["card"] is not None and not own["can_peek"]
    assert sum(c["can_peek"] for c in cells) == 24
    refused = operate(cards, ann, "peek", {"row": 3, "col": 4})
    assert refused.status_code == 400 and "yourself in Round 1" in refused.json()["detail"]
    assert balances(season=season, user=ann)["garnets"] == 1
