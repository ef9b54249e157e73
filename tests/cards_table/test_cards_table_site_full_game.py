"""A whole game of ten players through the API: flips as operations, guesses as submissions, the host's
verdict on a heat guess, rounds resolved early and by the sweep, the final scoreboard, the season ledger."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games.cards_table.rules import state_from_json
from games.platform.models import DeathMatchPick, Game, Round
from games.platform.services.commitment import commitment_check
from games.platform.services.ledger import balances, ledger_post
from games.platform.services.season import tokens_of_life
from tests.sweeping import sweep

from .site_support import NAMES, make_game, observe, operate, resolve, submit

pytestmark = pytest.mark.django_db

ACTIONS = ["nullify", "replace", "scout"]
GUESS = [[[2, "blue"]] * 5] * 5


def play_round(game, players, rnd, *, extra=None):
    """Every player turns two cards (declaring first) and saves a board guess (and a top guess later)."""
    for seat, user in enumerate(players):
        first = (seat % 5 + 1, (seat + rnd) % 5 + 1)
        second = ((seat + 2) % 5 + 1, (seat + rnd + 2) % 5 + 1)
        flipped = operate(game, user, "flip", {"row": first[0], "col": first[1]})
        assert flipped.status_code == 200, flipped.json()
        assert "your starting card" in flipped.json()["inbox"][-1]["text"]
        declared = operate(game, user, "declare", {"action": ACTIONS[(seat + rnd) % 3]})
        assert declared.status_code == 200, declared.json()
        second_flip = operate(game, user, "flip", {"row": second[0], "col": second[1]})
        assert second_flip.status_code == 200
        assert ACTIONS[(seat + rnd) % 3].title() in second_flip.json()["inbox"][-1]["text"]
        payload = {"board_guess": GUESS}
        if rnd > 1:
            payload["top_guess"] = (seat + 1) % len(players)
        payload.update((extra or {}).get(seat, {}))
        saved = submit(game, user, rnd, payload)
        assert saved.status_code == 201, saved.json()


def test_ten_players_play_three_rounds_to_the_final_scoreboard(cards, ten, hank, season):
    ledger_post(season=season, user=ten[0], what="garnets", delta=1, reason="a host's grant")

    # Round 1: fay guesses the heat rule; the round cannot close until a host judges it.
    play_round(cards, ten, 1, extra={5: {"heat_guess": "The hottest side is black, the coldest white."}})
    refused = resolve(cards, hank)
    assert refused.status_code == 409 and refused.json()["resolution"] == "waiting"
    rnd = Round.objects.get(game=cards, number=1)
    assert rnd.status == Round.Status.OPEN and rnd.attempts == 0
    assert "heat indicator guess of fay (seat 6) waits for a host's verdict" in rnd.last_error
    waiting = observe(cards, hank)["state"]["heat_guesses_to_judge"]
    assert waiting == [
        {"seat": 5, "player": "fay", "text": "The hottest side is black, the coldest white.", "correct": None}
    ]
    assert operate(cards, ten[5], "judge_heat", {"seat": 5, "correct": True}).status_code == 403
    assert operate(cards, hank, "judge_heat", {"seat": 5, "correct": True}).status_code == 200
    assert resolve(cards, hank).status_code == 200
    assert Round.objects.get(game=cards, number=1).status == Round.Status.RESOLVED
    fay = observe(cards, ten[5])
    assert any(e["text"] == "Your heat indicator guess is correct: 1 point." for e in fay["inbox"])
    assert fay["state"]["heat_guess"]["verdict"] is True
    assert "heat_guess" not in fay["state"]["can"] or fay["state"]["can"]["heat_guess"] is False
    lists = observe(cards)["state"]["lists"]
    assert lists[0]["round"] == 1 and len(lists[0]["primary_list"]) == 10

    # Round 2: ann pays her one garnet to see a card of Round 1; a second look is refused.
    play_round(cards, ten, 2)
    peeked = operate(cards, ten[0], "peek", {"row": 3, "col": 3})
    assert peeked.status_code == 200
    assert peeked.json()["inbox"][-1]["text"].startswith("For 1 garnet: in Round 1, R3C3 is a 2 red card")
    assert balances(season=season, user=ten[0])["garnets"] == 0
    assert operate(cards, ten[0], "peek", {"row": 1, "col": 1}).status_code == 400
    assert resolve(cards, hank).status_code == 200
    assert observe(cards)["state"]["lists"][1]["secondary_list"] is not None

    # Round 3 closes on its own: time moves past the close and the sweep resolves it.
    play_round(cards, ten, 3)
    closes = Round.objects.get(game=cards, number=3).closes_at
    with time_machine.travel(closes + dt.timedelta(seconds=1), tick=False):
        assert sweep(now=timezone.now())["resolved"] == 1
    cards.refresh_from_db()
    final = state_from_json(cards.state).final
    assert cards.status == Game.Status.FINISHED

    scoreboard = observe(cards)["state"]["scoreboard"]
    page = Client()
    page.force_login(ten[0])
    # The final points scroll in their own box, which says so on a phone.
    assert 'aria-label="Final points (scrolls sideways)"' in page.get(f"/games/{cards.id}/").content.decode()
    assert [row["total"] for row in scoreboard] == sorted(final.totals, reverse=True)
    assert {row["name"] for row in scoreboard if row["winner"]} == {NAMES[s] for s in final.winners}
    assert (
        sum(p.delta for p in state_from_json(cards.state).points if p.seat == 5 and p.method == "heat_guess")
        == 1
    )
    for seat, user in enumerate(ten):
        held = balances(season=season, user=user)
        assert held.get("garnets", 0) == final.garnets[seat]  # ann's granted garnet was spent on the peek
        assert tokens_of_life(season, user) == (1 if seat in final.tokens_of_life else 0)
        assert balances(season=season, user=user, game=cards).get("points", 0) == max(final.totals[seat], 0)
    assert final.loser is not None
    pick = DeathMatchPick.objects.get(main_match=cards)
    assert pick.candidate == ten[final.loser]
    assert len(observe(cards)["state"]["revealed_boards"]) == 3
    revealed = commitment_check(cards)
    assert revealed["matches"] and json.loads(revealed["data"])["boards"][0][:2] == ["2B", "3R"]


def test_still_tied_losers_are_chosen_by_the_winner_in_round_four(season, hank, make_user):
    ann, ben, cat = (make_user(n) for n in ("ann", "ben", "cat"))
    game = make_game(season, hank, [ann, ben, cat])
    # ann turns over 3s in every round with all three actions; ben and cat never flip (total 3, card sum 0).
    threes = {1: ((1, 2), (1, 3)), 2: ((1, 1), (2, 1)), 3: ((1, 5), (2, 2))}
    for rnd, action in zip((1, 2, 3), ACTIONS, strict=True):
        first, second = threes[rnd]
        assert operate(game, ann, "flip", {"row": first[0], "col": first[1]}).status_code == 200
        assert (
            operate(game, ann, "flip", {"row": second[0], "col": second[1], "action": action}).status_code
            == 200
        )
        assert resolve(game, hank).status_code == 200
    game.refresh_from_db()
    final = state_from_json(game.state).final
    assert final.winners == (0,) and set(final.loser_candidates) == {1, 2} and final.loser is None
    assert game.status == Game.Status.RUNNING
    decision = Round.objects.get(game=game, number=4)
    assert decision.status == Round.Status.OPEN
    assert observe(game, ben)["state"]["scoreboard"]  # the Main Match is over: the points are revealed
    refused = submit(game, ben, 4, {"loser": 2})
    assert refused.status_code == 400
    assert refused.json()["errors"]["loser"] == ["Only the winner(s) choose the elimination candidate."]
    assert submit(game, ann, 4, {"loser": 0}).status_code == 400
    assert submit(game, ann, 4, {"loser": 2}).status_code == 201
    assert resolve(game, hank).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert state_from_json(game.state).final.loser == 2
    assert DeathMatchPick.objects.get(main_match=game).candidate == cat
    assert any("cat is the loser" in a["text"] for a in observe(game)["announcements"])
