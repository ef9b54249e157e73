"""hidden_perturb: what a seat may not see (the other hand, secret discards) changes; nothing it sees does.

The site-wide proof (tests/proof/test_hidden_perturbation.py) starts a demo race, where both hands are the
full deck and nothing is hidden yet; here the race is driven to where hands and secret discards differ.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from games.middle_marathon import rules
from games.middle_marathon.rules import FULL_DECK, Settings
from games.platform import registry
from games.platform.models import Event
from games.platform.services.events import bump_version
from games.platform.services.live import action_apply
from tests.middle_marathon.marathon_site import put_state, state_of
from tests.middle_marathon.positions import make
from tests.proof.test_hidden_perturbation import (
    answers,
    first_difference,
    game_urls,
    host_view,
    running_game,
)

SEATS = (0, 1, None)


def a_hand(cards: list[int]) -> bool:
    """Cards a hand or a discard could hold: distinct cards of the deck, sorted."""
    return cards == sorted(set(cards)) and set(cards) <= set(FULL_DECK)


def test_nothing_is_hidden_at_the_start_both_hands_are_the_whole_deck():
    state = rules.new_game()
    for seat in SEATS:
        assert rules.perturb_hidden(state, seat, random.Random(seat)) == []
    assert rules.state_to_json(state) == rules.state_to_json(rules.new_game())


def test_a_seat_keeps_its_own_hand_and_sees_no_change():
    state = make({}, hands=([0, 1, 3], [2, 4]), settings=Settings(discards_public=False))
    state.discards = [{"turn": 2, "seat": 1, "cards": [0, 1]}]
    state.decisions = [
        {"turn": 2, "seat": 1, "kind": "discard", "piece": "M", "choice": [0, 1], "forced": False}
    ]
    before = rules.seat_view(state, 0)
    changed = rules.perturb_hidden(state, 0, random.Random(1))
    assert changed == ["Red's hand", "the cards of 1 of Red's secret discards"]
    assert state.hands[0] == [0, 1, 3] and state.hands[1] != [2, 4] and len(state.hands[1]) == 2
    assert state.discards[0]["cards"] != [0, 1] and state.discards[0]["cards"] == state.decisions[0]["choice"]
    assert rules.seat_view(state, 0) == before


def test_public_discards_stay_as_they_were():
    state = make({}, hands=([0, 1, 3], [2, 4]))
    state.discards = [{"turn": 2, "seat": 1, "cards": [0, 1]}]
    assert rules.perturb_hidden(state, None, random.Random(2)) == ["Blue's hand", "Red's hand"]
    assert state.discards == [{"turn": 2, "seat": 1, "cards": [0, 1]}]


@pytest.mark.parametrize("discards_public", [True, False])
def test_through_random_races_no_view_but_the_hosts_changes_and_the_race_goes_on(discards_public):
    rng = random.Random(f"perturb-{discards_public}")
    for _ in range(3):
        state = rules.new_game(Settings(discards_public=discards_public), rng.randrange(2))
        while state.result is None:
            for seat in SEATS:
                moved = rules.state_from_json(rules.state_to_json(state))
                changed = rules.perturb_hidden(moved, seat, rng)
                see = rules.public_view if seat is None else lambda s, seat=seat: rules.seat_view(s, seat)
                assert see(moved) == see(state)
                assert (rules.full_view(moved) != rules.full_view(state)) == bool(changed)
                assert all(a_hand(hand) for hand in moved.hands)
                assert all(a_hand(d["cards"]) for d in moved.discards)
                # Still playable: whoever is owed the move has legal moves, and one of them applies.
                mover = rules.pending(moved)["seat"]
                rules.apply(moved, mover, rng.choice(rules.legal_actions(moved, mover)))
            mover = rules.pending(state)["seat"]
            state, _ = rules.apply(state, mover, rng.choice(rules.legal_actions(state, mover)))


@pytest.mark.django_db
@pytest.mark.parametrize("discards_public", [False, True])
def test_mid_race_no_url_changes_for_anyone_but_the_host(discards_public, make_user):
    """Red has discarded (1 and 4) and holds 2, 3; Blue holds 1, 2, 4 and owes Movement's discard."""
    kind = registry.get("middle_marathon")
    game, hank, players, spectators, world = running_game(kind, make_user)
    game.settings = {**game.settings, "discards_public": discards_public}
    game.save(update_fields=["settings"])
    state = state_of(game)
    assert state.to_move == 0
    state.settings = dataclasses.replace(state.settings, discards_public=discards_public)
    put_state(game, state)
    blue, red = game.seats.order_by("number")
    for seat, payload in [
        (blue, {"type": "play", "card": 3, "piece": "SB"}),
        (red, {"type": "play", "card": 0, "piece": "M"}),
        (red, {"type": "choose", "choice": [1, 4]}),
        (blue, {"type": "play", "card": 0, "piece": "M"}),
    ]:
        action_apply(seat=seat, payload=payload)
    state = state_of(game)
    assert state.hands == [[1, 2, 4], [2, 3]] and rules.pending(state)["decision"] == "discard"
    told = Event.objects.filter(game=game, kind=Event.Kind.REVEAL)
    assert [e.text for e in told] == ([] if discards_public else ["You discard the 1 and 4"])

    urls = game_urls(world, game)
    looks = [(label, user, None) for label, user in spectators.items()]
    looks += [(user.username, user, world.seats[game.id][user.id]) for user in players]
    differences = []
    with time_machine.travel(timezone.now(), tick=False):
        for label, user, seat_number in looks:
            before, host_before = answers(user, urls), host_view(game, hank)
            with transaction.atomic():
                game.refresh_from_db()
                changed = kind.hidden_perturb(game, seat_number, random.Random(label))
                bump_version(game)
                after = answers(user, urls)
                assert changed and host_view(game, hank) != host_before, label
                if seat_number is not None and not discards_public:
                    # The secret discard moves with Red's own line about it, which only Red reads.
                    lines = [e.text for e in Event.objects.filter(game=game, kind=Event.Kind.REVEAL)]
                    assert (lines == ["You discard the 1 and 4"]) == (seat_number == 1), label
                transaction.set_rollback(True)
            differences += [f"{label} sees a change in {d}" for d in first_difference(before, after)]
    assert not differences, "Hidden information shows:\n" + "\n".join(differences)
