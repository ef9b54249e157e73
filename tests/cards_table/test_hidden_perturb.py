"""hidden_perturb: what a seat may not see (face-down cards, the heat rule, the others' doings) changes;
what it saw stays.

The site-wide proof (tests/proof/test_hidden_perturbation.py) perturbs a game that has just started, where
nobody has turned a card; here the game is in Round 2, with cards turned, a look bought, guesses saved, a heat
guess judged and one waiting for the close, and points scored.
"""

from __future__ import annotations

import random

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from games.cards_table.models import HeatVerdict
from games.cards_table.perturb import seen_cards
from games.cards_table.rules import heat_at
from games.cards_table.rules.cards import index
from games.cards_table.store import load
from games.platform import registry
from games.platform.models import Submission
from games.platform.observation import observe
from games.platform.registry import Viewer
from games.platform.services.events import bump_version
from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import latest_submissions
from tests.api_support import operate, submit
from tests.cards_table.site_support import resolve
from tests.proof.test_hidden_perturbation import answers, first_difference, game_urls, host_view, running_game

pytestmark = pytest.mark.django_db

GUESS = [[[2, "red"]] * 5] * 5


def ok(response, status=200):
    assert response.status_code == status, response.content
    return response


@pytest.fixture
def midgame(make_user):
    """Round 2 of three players: ann (seat 0), ben (1), cat (2). Ben's heat guess was judged in Round 1, cat's
    waits for the close of Round 2; ann bought a look at R5C5 of Round 1."""
    kind = registry.get("cards_table")
    game, hank, (ann, ben, cat), spectators, world = running_game(kind, make_user)
    ledger_post(season=game.season, user=ann, what="garnets", delta=1, reason="a host's grant")
    ok(operate(game, ann, "flip", {"row": 1, "col": 1}))
    ok(operate(game, ann, "flip", {"row": 2, "col": 2, "action": "scout"}))
    ok(operate(game, ben, "flip", {"row": 1, "col": 1}))
    ok(operate(game, ben, "flip", {"row": 3, "col": 3, "action": "nullify"}))
    ok(operate(game, cat, "flip", {"row": 4, "col": 1}))
    ok(submit(game, ben, 1, {"board_guess": GUESS, "heat_guess": "the hottest side is black"}), 201)
    ok(operate(game, hank, "judge_heat", {"seat": 1, "correct": True}))
    ok(resolve(game, hank))
    ok(operate(game, ann, "flip", {"row": 4, "col": 4}))
    ok(operate(game, ann, "peek", {"row": 5, "col": 5}))
    ok(operate(game, ben, "flip", {"row": 2, "col": 2}))
    ok(operate(game, ben, "flip", {"row": 1, "col": 2, "action": "replace"}))
    ok(submit(game, ann, 2, {"board_guess": GUESS, "top_guess": 1}), 201)
    ok(submit(game, ben, 2, {"board_guess": GUESS, "top_guess": 2}), 201)
    ok(submit(game, cat, 2, {"top_guess": 0, "heat_guess": "a black side faces more points"}), 201)
    ok(operate(game, hank, "judge_heat", {"seat": 2, "correct": False}))
    game.refresh_from_db()
    assert load(game).round == 2 and load(game).points
    return game, hank, [ann, ben, cat], spectators, world


def latest(game) -> dict[int, dict]:
    return {n: s.payload for n, s in latest_submissions(game.rounds.get(number=2)).items()}


def test_a_player_keeps_what_they_saw_and_everything_else_changes(midgame):
    game, hank, players, _, _ = midgame
    kind = registry.get("cards_table")
    ann = Viewer(role="player", user=players[0], seat=game.seats.get(number=0))
    with time_machine.travel(timezone.now(), tick=False):  # the page counts the round's time down
        before, seen_by_ann, saved = load(game), observe(game, ann), latest(game)
        host_before = host_view(game, hank)
        changed = kind.hidden_perturb(game, 0, random.Random("ann"))
        game.refresh_from_db()
        assert observe(game, ann) | {"version": 0} == seen_by_ann | {"version": 0}
        assert host_view(game, hank) != host_before
    after = load(game)
    # Her four cards (Round 1: two turned and R5C5 bought; Round 2: R4C4) stay, indicators included.
    seen = seen_cards(before, 0)
    assert seen == {(1, 1, 1), (1, 2, 2), (1, 5, 5), (2, 4, 4)}
    for rnd, row, col in seen:
        assert after.boards[rnd - 1][index(row, col)] == before.boards[rnd - 1][index(row, col)]
        assert heat_at(after, rnd, row, col) == heat_at(before, rnd, row, col)
    hidden = [(b, i) for b in range(3) for i in range(25) if (b + 1, i // 5 + 1, i % 5 + 1) not in seen]
    moved = [(b, i) for b, i in hidden if after.boards[b][i] != before.boards[b][i]]
    assert len(moved) >= 0.8 * len(hidden)  # most: the search keeps a card only where it finds no way round
    assert kind.hidden_problems(game) == [] and after.heat_rule != before.heat_rule
    assert changed == [
        f"{len(moved)} face-down cards of the boards",
        "the heat rule and the hand-set indicators",
        "the other seats' cards, actions and guesses",
        "who scored which points",
        "2 heat guess verdicts",  # ben's of Round 1 (told to him only) and cat's waiting one
        "the seed",
        "2 submissions",
        "6 inbox messages",
    ]
    # Her own doings and submission stay; the others' cards (which and how many), actions and guesses change.
    assert after.seats[0] == before.seats[0] and latest(game)[0] == saved[0]
    for seat in (1, 2):
        for old, new in zip(before.seats[seat][:2], after.seats[seat][:2], strict=True):  # Rounds 1 and 2
            assert len(new.flips) != len(old.flips)
            assert all(a != b for a, b in zip(old.flips, new.flips, strict=False))
        assert latest(game)[seat] != saved[seat]
    assert after.seats[1][0].action != before.seats[1][0].action
    assert (
        after.heat_guesses[1].text != before.heat_guesses[1].text and after.heat_guesses[1].verdict is False
    )
    assert HeatVerdict.objects.get(game=game, seat__number=2).correct is True
    # The anonymous list stands (whether ben, whom ann named, topped it she learns at this round's close).
    assert sorted(after.records[0].primary) == sorted(before.records[0].primary)


def test_in_round_three_whether_the_player_she_named_topped_the_list_stays(midgame):
    game, hank, players, _, _ = midgame
    ok(resolve(game, hank))
    game.refresh_from_db()
    kind = registry.get("cards_table")
    ann = Viewer(role="player", user=players[0], seat=game.seats.get(number=0))
    before = load(game)
    assert before.round == 3 and before.seat_round(0, 2).top_guess == 1
    with time_machine.travel(timezone.now(), tick=False):
        seen_by_ann = observe(game, ann)
        assert kind.hidden_perturb(game, 0, random.Random("ann in Round 3"))
        game.refresh_from_db()
        assert observe(game, ann) | {"version": 0} == seen_by_ann | {"version": 0}
    after = load(game)
    assert (1 in after.records[0].top) == (1 in before.records[0].top)
    assert [sorted(r.primary) for r in after.records] == [sorted(r.primary) for r in before.records]
    assert sorted(after.records[1].secondary) == sorted(before.records[1].secondary)


def test_a_player_keeps_their_own_told_verdict_and_not_their_waiting_one(midgame):
    game, *_ = midgame
    kind = registry.get("cards_table")
    kind.hidden_perturb(game, 1, random.Random("ben"))
    assert load(game).heat_guesses[1].verdict is True
    assert HeatVerdict.objects.get(game=game, seat__number=1).correct is True  # told at Round 1's close
    waiting = HeatVerdict.objects.get(game=game, seat__number=2).correct
    kind.hidden_perturb(game, 2, random.Random("cat"))
    assert (
        HeatVerdict.objects.get(game=game, seat__number=2).correct is not waiting
    )  # told at Round 2's close


def test_in_round_two_no_viewer_gets_anything_that_changed(midgame):
    game, hank, players, spectators, world = midgame
    kind = registry.get("cards_table")
    urls = game_urls(world, game)
    looks = [(label, user, None) for label, user in spectators.items()]
    looks += [(user.username, user, world.seats[game.id][user.id]) for user in players]
    differences = []
    with time_machine.travel(timezone.now(), tick=False):
        for label, user, seat in looks:
            before = answers(user, urls)
            with transaction.atomic():
                game.refresh_from_db()
                assert kind.hidden_perturb(game, seat, random.Random(label))
                bump_version(game)
                differences += [
                    f"{label} sees a change in {d}" for d in first_difference(before, answers(user, urls))
                ]
                transaction.set_rollback(True)
    assert not differences, "\n".join(differences)
    assert Submission.objects.filter(round__game=game).count() == 4  # rolled back each time
