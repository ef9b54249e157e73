"""Random legal play never reaches an illegal state, and the game always ends."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.middle_marathon.rules import (
    FULL_DECK,
    PIECES,
    TRACK_LENGTH,
    Settings,
    apply,
    legal_actions,
    new_game,
    pending,
    public_view,
    seat_view,
    state_from_json,
    state_to_json,
)
from games.platform.kit import RulesError

# Random play ends in about 120 actions; in 3000 seeds no game went past 190.
ACTION_BOUND = 2000

any_settings = st.builds(
    Settings,
    neutral_is_a_colour=st.booleans(),
    zero_may_target_itself=st.booleans(),
    discards_public=st.booleans(),
)


def check_invariants(state) -> None:
    for piece, space in state.positions.items():
        assert 1 <= space <= TRACK_LENGTH, (piece, space)
    assert len(set(state.finished)) == len(state.finished)
    assert not set(state.finished) & set(state.positions)
    assert set(state.finished) | set(state.positions) == set(PIECES)
    for hand in state.hands:
        # A deck holds each card at most once, and is never empty (it refills the moment it is).
        assert hand == sorted(set(hand)) and hand and set(hand) <= set(FULL_DECK)
    assert set(state.locked_until) <= set(state.positions)
    assert set(state.reversed_until) <= set(state.positions)
    for until in list(state.locked_until.values()) + list(state.reversed_until.values()):
        assert state.turn <= until <= state.turn + 2
    waiting = pending(state)
    if state.result is None:
        assert waiting["kind"] in ("turn", "decision")
        assert len(legal_actions(state, waiting["seat"])) >= 1
        assert legal_actions(state, 1 - waiting["seat"]) == []
        if waiting["kind"] == "decision":
            assert len(waiting["options"]) >= 2  # a single option is taken without asking
    else:
        assert not state.stack
        result = state.result
        if result["ended_because"] != "timeout":
            assert sorted(result["order"]) == sorted(PIECES)
            neutral_points = state.settings.placement_points[result["order"].index("M")]
            assert sum(result["scores"]) == sum(state.settings.placement_points) - neutral_points


def random_game(seed: int, game_settings: Settings):
    rng = random.Random(seed)
    state = new_game(game_settings, rng.randrange(2))
    for _ in range(ACTION_BOUND):
        if state.result is not None:
            return state
        seat = pending(state)["seat"]
        state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
        check_invariants(state)
    raise AssertionError(f"game {seed} did not end within {ACTION_BOUND} actions")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game_settings=any_settings)
def test_random_legal_play_stays_legal_and_ends(seed, game_settings):
    state = random_game(seed, game_settings)
    assert state.result["winner"] in (0, 1, None)
    assert state.result["draw"] == (state.result["winner"] is None)


class RandomPlay(RuleBasedStateMachine):
    """Any legal action, picked by hypothesis, by whichever seat the game waits on."""

    @initialize(first=st.integers(0, 1), game_settings=any_settings)
    def start(self, first, game_settings):
        self.state = new_game(game_settings, first)
        self.actions = 0

    @precondition(lambda self: self.state.result is None)
    @rule(data=st.data())
    def act(self, data):
        seat = pending(self.state)["seat"]
        action = data.draw(st.sampled_from(legal_actions(self.state, seat)))
        self.state, events = apply(self.state, seat, action)
        self.actions += 1
        assert events

    @precondition(lambda self: self.state.result is None)
    @rule(card=st.integers(-1, 5), piece=st.sampled_from(PIECES + ("XX",)), seat=st.integers(0, 1))
    def any_play_is_legal_or_refused(self, card, piece, seat):
        action = {"type": "play", "card": card, "piece": piece}
        before = state_to_json(self.state)
        try:
            self.state, _ = apply(self.state, seat, action)
            assert action in legal_actions(state_from_json(before), seat)
        except RulesError:
            assert action not in legal_actions(self.state, seat)
            assert state_to_json(self.state) == before

    @invariant()
    def state_is_legal(self):
        check_invariants(self.state)

    @invariant()
    def json_round_trip_is_exact(self):
        data = json.loads(json.dumps(state_to_json(self.state)))
        assert state_from_json(data) == self.state

    @invariant()
    def views_are_json_and_hide_the_other_hand(self):
        public = public_view(self.state)
        json.dumps(public)
        assert "hand" not in public and "hands" not in public
        for seat in (0, 1):
            view = seat_view(self.state, seat)
            json.dumps(view)
            assert view["hand"] == self.state.hands[seat]
            assert str(self.state.hands[1 - seat]) not in json.dumps(view.get("hands", ""))


RandomPlay.TestCase.settings = settings(max_examples=30, stateful_step_count=60, deadline=None)
test_random_play_state_machine = RandomPlay.TestCase
