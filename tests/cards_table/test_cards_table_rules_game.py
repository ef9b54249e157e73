"""Whole games of ten players: a scripted one through the one-door API, and random legal play (hypothesis)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards_table.rules import (
    ACTION_ORDER,
    Phase,
    apply_action,
    full_view,
    judge_heat_guess,
    new_game,
    public_view,
    resolve_round,
    seat_view,
    state_from_json,
    state_to_json,
    submit_loser_choice,
)
from games.cards_table.rules.play import actions_used
from games.platform.kit import Announce, Ledger, Reveal, RulesError

from .fixtures import VALID, fresh, parse, totals


def stored(state):
    """What the site does between requests: the state goes through a JSON column."""
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


def test_full_three_round_game_of_ten_players():
    state = stored(fresh())
    actions = ["nullify", "replace", "scout"]
    for rnd in (1, 2, 3):
        for seat in range(10):
            first = (seat % 5 + 1, (seat + rnd) % 5 + 1)
            second = ((seat + 2) % 5 + 1, (seat + rnd + 2) % 5 + 1)
            action = actions[(seat + rnd) % 3]
            for move in (
                {"type": "flip", "row": first[0], "col": first[1]},
                {"type": "declare", "action": action},
                {"type": "flip", "row": second[0], "col": second[1]},
                {"type": "board_guess", "grid": [[(2, "blue")] * 5] * 5},
            ):
                state, events = apply_action(state, seat, move)
                state = stored(state)
                assert all(e.seat == seat for e in events if isinstance(e, Reveal))
            if rnd > 1:
                state, _ = apply_action(state, seat, {"type": "top_guess", "seat": (seat + 1) % 10})
            if rnd > 1 and seat == 0:
                state, events = apply_action(state, seat, {"type": "peek", "row": 3, "col": 3})
                assert events[0].data["round"] == rnd - 1
        if rnd == 2:
            state, _ = apply_action(state, 5, {"type": "heat_guess", "text": "hottest side black"})
            state, _ = judge_heat_guess(state, 5, True)
        view = seat_view(state, 3)
        assert "totals" not in view and "points" not in view and "boards" not in view
        assert [r["round"] for r in view["my_rounds"]] == list(range(1, rnd + 1))
        state, events = resolve_round(state)
        state = stored(state)
        assert any(isinstance(e, Announce) and e.data.get("round") == rnd for e in events)
    assert state.phase in (Phase.ENDED, Phase.CHOOSING_LOSER)
    for seat in range(10):
        assert set(actions_used(state, seat)) == set(ACTION_ORDER)
    if state.phase is Phase.CHOOSING_LOSER:
        state, _ = submit_loser_choice(state, state.final.winners[0], state.final.loser_candidates[0])
    final = state.final
    assert list(final.totals) == totals(state)
    assert set(final.winners) == {s for s in range(10) if final.totals[s] == max(final.totals)}
    assert final.totals[final.loser] == min(final.totals)
    assert [p.delta for p in state.points if p.seat == 5 and p.method == "heat_guess"] == [1]
    view = full_view(state)
    assert len(view["boards"]) == 3 and all(len(b) == 25 for b in view["boards"])
    assert public_view(state)["boards"] == view["boards"]  # all boards revealed at the end
    json.dumps(view)


def random_game(seed: int, players: int = 10):
    """Random legal play from a seed; every action is checked, illegal ones are skipped as the site would."""
    rng = random.Random(seed)
    state = fresh(players, heat_rule=rng.choice(["extremes", "mean", "majority"]))
    all_events = []
    for rnd in (1, 2, 3):
        for seat in range(players):
            flips = rng.choice([0, 1, 2, 2, 2, 2, 3, 4])
            for k in range(flips):
                move = {"type": "flip", "row": rng.randint(1, 5), "col": rng.randint(1, 5)}
                if k == 1 and rng.random() < 0.8:
                    move["action"] = rng.choice(["nullify", "replace", "scout"])
                try:
                    state, events = apply_action(state, seat, move)
                except RulesError as err:
                    assert err.field in ("cell", "action")
                    continue
                reveals = [e for e in events if isinstance(e, Reveal)]
                assert len(reveals) == 1 and reveals[0].seat == seat
                all_events += events
            if rng.random() < 0.5:
                grid = [
                    [(rng.randint(1, 3), rng.choice(["red", "blue", "yellow"])) for _ in range(5)]
                    for _ in range(5)
                ]
                state, _ = apply_action(state, seat, {"type": "board_guess", "grid": grid})
            if rnd > 1 and rng.random() < 0.5:
                state, _ = apply_action(
                    state, seat, {"type": "top_guess", "seat": (seat + rng.randint(1, players - 1)) % players}
                )
            if state.heat_guesses[seat] is None and rng.random() < 0.1:
                state, _ = apply_action(state, seat, {"type": "heat_guess", "text": "a guess"})
                state, _ = judge_heat_guess(state, seat, rng.random() < 0.5)
        assert stored(state) == state
        state, events = resolve_round(state)
        all_events += events
    return state, all_events


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_keep_every_invariant(seed):
    state, events = random_game(seed)
    assert stored(state) == state
    final = state.final
    points = [e for e in events if isinstance(e, Ledger) and e.what == "points"]
    assert [sum(e.delta for e in points if e.seat == s) for s in range(10)] == list(final.totals)
    for seat in range(10):
        if set(actions_used(state, seat)) != set(ACTION_ORDER):
            assert final.totals[seat] == 3
        assert final.garnets[seat] == sum(final.totals[seat] >= m for m in (9, 15, 20))
        assert sum(p.delta for p in state.points if p.seat == seat and p.method.startswith("board_")) <= 4
        assert sum(p.delta for p in state.points if p.seat == seat and p.method == "nullify") <= 3
    assert set(final.winners) == {s for s in range(10) if final.totals[s] == max(final.totals)}
    assert all(final.totals[s] == min(final.totals) for s in final.loser_candidates)
    for rec in state.records:
        assert sorted(rec.primary, reverse=True) == public_view(state)["lists"][rec.round - 1]["primary_list"]
    if state.phase is Phase.CHOOSING_LOSER:
        assert len(final.loser_candidates) > 1 and final.loser is None
    else:
        assert final.loser in final.loser_candidates


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=9))
def test_a_seat_sees_only_its_own_cards_and_never_its_points(seed, seat):
    rng = random.Random(seed)
    state = fresh()
    for other in range(10):
        state, _ = apply_action(
            state, other, {"type": "flip", "row": rng.randint(1, 5), "col": rng.randint(1, 5)}
        )
    view = seat_view(state, seat)
    flips = view["my_rounds"][0]["flips"]
    assert [(f["row"], f["col"]) for f in flips] == list(state.seat_round(seat).flips)
    text = json.dumps(view)
    assert "totals" not in text and '"points"' not in text and "boards" not in text
    assert json.dumps(public_view(state)).count("flips") == 0


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_state_json_round_trip(seed):
    state, _ = random_game(seed, players=4)
    assert stored(state) == state
    assert state_to_json(stored(state)) == state_to_json(state)


def test_new_game_refuses_invalid_boards_with_the_boards_field():
    boards = parse(VALID)
    boards[0][0], boards[0][1] = boards[0][1], boards[0][0]
    try:
        new_game(boards=tuple(tuple(b) for b in boards), rng=random.Random(1))
    except RulesError as err:
        assert err.field == "boards" and "Round 1" in err.message
    else:
        raise AssertionError("invalid boards accepted")


def test_new_game_from_a_seed_generates_boards_and_draws_a_heat_rule():
    state = new_game(rng=random.Random(99))
    assert state.phase is Phase.PLAYING and state.round == 1 and len(state.seats) == 10
    assert stored(state) == state
