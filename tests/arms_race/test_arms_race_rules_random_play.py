"""Random legal play against invariants: one loser, views hide what they must, the state round-trips JSON."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.arms_race.rules import (
    DECK,
    Phase,
    Settings,
    State,
    apply,
    apply_timeout,
    legal_actions,
    new_game,
    pending,
    public_view,
    seat_view,
    state_from_json,
    state_to_json,
)
from games.arms_race.rules.perturb import twin
from games.platform.kit import Announce, Ledger, Reveal

game_settings = st.builds(
    Settings,
    wounds_to_lose=st.sampled_from([3, 3, 6]),
    wild_declared_at=st.sampled_from(["play", "purchase"]),
    announce_wild_purchases=st.booleans(),
    caught_pointer_winner=st.sampled_from(["challenger", "previous"]),
    final_tiebreak=st.sampled_from(["by_type_then_random", "random"]),
    wild_before_first_round=st.booleans(),
)


def random_action(state: State, seat: int, rng: random.Random) -> dict:
    """Any legal action, chosen at random from what legal_actions offers."""
    options = legal_actions(state, seat)
    kind, choices = options["kind"], options["options"]
    if kind == "wild_card":
        if rng.random() < 0.7:
            return {"type": "decline_wild"}
        return {
            "type": "buy_wild",
            **({"weapon": rng.choice(choices["weapons"])} if choices["weapons"] else {}),
        }
    if kind == "attack":
        action = {
            "type": "attack",
            "card": rng.choice(choices["cards"]),
            "target": rng.choice(choices["targets"]),
            "claim": rng.choice(choices["claims"]),
        }
        if action["card"] == "wild":
            action["wild_as"] = rng.choice(choices["wild_as"])
        return action
    if kind == "respond":
        if choices["pass"] and rng.random() < 0.5:
            return {"type": "pass"}
        return {"type": "challenge", "call": rng.choice(choices["challenge"])}
    return {
        "type": "redirect",
        "target": rng.choice(choices["targets"]),
        "claim": rng.choice(choices["claims"]),
    }


def keys(value) -> set[str]:
    """Every key of every dict inside a JSON-able value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def check_views(state: State, rng: random.Random) -> None:
    public = public_view(state)
    json.dumps(public)
    assert not keys(public) & {"hand", "hands", "undealt", "seed", "wild_cards", "weapon_in_flight"}
    if public["flight"] is not None:
        assert "weapon" not in public["flight"]
    assert public == public_view(twin(state, None, rng))
    viewer = rng.randrange(state.players)
    mine = seat_view(state, viewer)
    json.dumps(mine)
    assert mine["hand"] == [w.value for w in state.hands[viewer]]
    assert mine == seat_view(twin(state, viewer, rng), viewer)


def check_events(state: State, events: list) -> None:
    for event in events:
        if isinstance(event, Reveal) and event.data.get("event") == "hand":
            assert event.data["hand"] == [w.value for w in state.hands[event.seat]]
        if isinstance(event, Reveal) and event.data.get("event") == "seen":
            assert state.phase == Phase.REDIRECT and event.seat == state.flight.seen[-1]
        if isinstance(event, Announce) and state.phase in (Phase.RESPOND, Phase.REDIRECT):
            assert "weapon" not in event.data and "hand" not in event.data


def play(seed: int, game: Settings, timeouts: float = 0.1, check_every: int = 1):
    rng = random.Random(seed)
    state, events = new_game(rng, game)
    check_events(state, events)
    ledger = []
    for step in range(2000):
        if state.phase == Phase.OVER:
            return state, ledger
        seats = pending(state)["seats"]
        seat = rng.choice(seats)
        if rng.random() < timeouts:
            state, events = apply_timeout(state, seat)
        else:
            state, events = apply(state, seat, random_action(state, seat, rng))
        check_events(state, events)
        ledger += [e for e in events if isinstance(e, Ledger) and e.what != "cards"]
        if step % check_every == 0:
            check_views(state, rng)
            assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    raise AssertionError("the game did not end")


def check_end(state: State, ledger: list) -> None:
    outcome = state.outcome
    assert state.phase == Phase.OVER and pending(state) is None
    assert isinstance(outcome.loser, int) and outcome.loser not in outcome.winners
    limit = state.settings.wounds_to_lose
    at_limit = [s for s in range(state.players) if max(state.wounds[s]) >= limit]
    assert sum(state.total_wounds(s) for s in range(state.players)) == len(state.history)
    played = sum(len(h) for h in state.hands) + sum(1 for r in state.history if not r.wild)
    assert Counter(DECK).total() == played + len(state.undealt)
    if outcome.reason == "three_wounds":
        assert at_limit == [outcome.loser] and max(state.wounds[outcome.loser]) == limit
        assert outcome.loser == state.history[-1].wounded
        gained = Counter()
        for entry in ledger:
            gained[(entry.seat, entry.what)] += entry.delta
        if len(outcome.winners) == 1 and outcome.original == outcome.pointer:
            assert gained == {(outcome.winners[0], "tokens_of_life"): 2, (outcome.winners[0], "garnets"): 7}
        else:
            expected = {
                (s, w): n for s in outcome.winners for w, n in (("tokens_of_life", 1), ("garnets", 3))
            }
            assert gained == expected
    else:
        assert outcome.reason == "nine_rounds" and at_limit == [] and ledger == []
        assert state.round == state.settings.rounds and len(state.history) == 7 * 9
        most = max(state.total_wounds(s) for s in range(state.players))
        assert state.total_wounds(outcome.loser) == most


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), game=game_settings)
def test_random_legal_play_ends_with_exactly_one_loser_and_hides_every_hand(seed, game):
    state, ledger = play(seed, game, check_every=3)
    check_end(state, ledger)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_game_of_timeouts_alone_ends_with_one_loser(seed):
    state, ledger = play(seed, Settings(), timeouts=1.0, check_every=10)
    check_end(state, ledger)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), game=game_settings, steps=st.integers(0, 120))
def test_the_state_round_trips_through_json_at_any_point(seed, game, steps):
    rng = random.Random(seed)
    state, _ = new_game(rng, game)
    for _ in range(steps):
        if state.phase == Phase.OVER:
            break
        seat = rng.choice(pending(state)["seats"])
        state, _ = apply(state, seat, random_action(state, seat, rng))
    stored = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(stored) == state
    assert state_to_json(state_from_json(stored)) == stored
