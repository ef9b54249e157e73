"""The twin game and hidden_perturb: what a seat may not see is dealt again, what it sees stays as it was."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from games.arms_race.models import Deal
from games.arms_race.rules import DECK, Phase, Settings, apply, apply_timeout, public_view, seat_view
from games.arms_race.rules.perturb import dealt_hands, flight_hidden, twin
from games.platform import registry
from games.platform.models import Event, Season
from games.platform.observation import observe, viewer_for
from games.platform.services.events import bump_version
from tests.arms_race.arms_race_site import act, arms_game, state_of
from tests.proof.test_hidden_perturbation import answers, first_difference, game_urls, host_view
from tests.proof.test_no_leaks import World

from .arms_race_table import table

ATTACK = {"type": "attack", "card": "dagger", "target": 1, "claim": "bat"}


def in_flight():
    """Seat 0 aims a Dagger at seat 1, who passes, looks, and aims it at seat 2."""
    state, _ = apply(table(), 0, ATTACK)
    state, _ = apply(state, 1, {"type": "pass"})
    state, _ = apply(state, 1, {"type": "redirect", "target": 2, "claim": "whip"})
    return state


def view(state, viewer):
    return public_view(state) if viewer is None else seat_view(state, viewer)


def deck_of(state) -> Counter:
    return Counter(card for hand in dealt_hands(state) for card in hand) + Counter(state.undealt)


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 6])
def test_the_twin_deals_the_others_again_from_the_same_deck_and_keeps_the_viewers_view(viewer):
    state = in_flight()
    other = twin(state, viewer, random.Random(viewer))
    assert view(other, viewer) == view(state, viewer)
    others = [s for s in range(7) if s != viewer]
    assert [other.hands[s] for s in others] != [state.hands[s] for s in others]
    if viewer is not None:
        assert other.hands[viewer] == state.hands[viewer]
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert len({twin(state, viewer, random.Random(n)).undealt for n in range(20)}) > 1
    assert deck_of(other) == deck_of(state) == Counter(DECK)
    assert other.seed != state.seed


def test_the_weapon_in_flight_changes_only_for_those_who_have_not_seen_it():
    state = in_flight()
    for viewer in (0, 1):  # the owner and the passer know it
        assert not flight_hidden(state, viewer)
        assert all(twin(state, viewer, random.Random(n)).flight == state.flight for n in range(20))
    for viewer in (None, 2):
        weapons = {twin(state, viewer, random.Random(n)).flight.weapon for n in range(20)}
        assert len(weapons) > 1


def test_a_claim_made_when_the_clock_ran_out_told_everyone_the_weapon():
    state, _ = apply_timeout(table(), 0)  # ruling 19: the absent attacker claims the truth
    assert not flight_hidden(state, None)
    assert all(twin(state, None, random.Random(n)).flight == state.flight for n in range(20))


def test_nobody_holds_a_wild_card_before_the_first_break():
    state = table()
    assert all(twin(state, None, random.Random(n)).wilds == ((),) * 7 for n in range(20))


@pytest.mark.parametrize("declared", ["play", "purchase"])
def test_wild_cards_are_as_many_as_the_breaks_could_sell_less_those_played(declared):
    state, _ = apply(table(Settings(wild_declared_at=declared)), 0, ATTACK)
    state, _ = apply(state, 1, {"type": "challenge", "call": "truth"})
    # Round 3: two breaks are over, one card each; seat 0 has played one (the log says so).
    state = replace(state, round=3, history=(replace(state.history[0], wild=True),))
    counts = Counter()
    for n in range(60):
        other = twin(state, None, random.Random(n))
        counts.update(len(held) for held in other.wilds)
        assert len(other.wilds[0]) <= 1 and all(len(held) <= 2 for held in other.wilds)
        assert all((w is None) == (declared == "play") for held in other.wilds for w in held)
    assert set(counts) == {0, 1, 2}


def test_an_announced_purchase_keeps_its_count_and_only_its_named_weapon_changes():
    state = table(Settings(announce_wild_purchases=True, wild_declared_at="purchase"))
    state = replace(state, round=2, wilds=((), (DECK[0],), (), (), (), (), ()))
    names = {twin(state, 0, random.Random(n)).wilds[1] for n in range(20)}
    assert all(len(held) == 1 for held in names) and len(names) > 1


def test_in_the_open_break_a_player_still_deciding_has_bought_nothing_yet():
    state = replace(table(), round=1, phase=Phase.WILD_CARDS, order=(), wild_decided=(3,), wild_bought=(3,))
    for n in range(30):
        other = twin(state, None, random.Random(n))
        assert set(other.wild_bought) <= {3} and all(not other.wilds[s] for s in range(7) if s != 3)
        assert len(other.wilds[3]) == other.wild_bought.count(3)


# -- on the site: hidden_perturb writes the twin, the deal and the private messages ------------------------
@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ana", "ben", "cleo", "dev")]


@pytest.fixture
def flying(season, hank, players):
    """The first attacker aims a card at the second in order, who passes and aims it at the third."""
    game = arms_game(season, hank, players)
    state = state_of(game)
    order = state.order
    aim = {"type": "attack", "card": state.hands[order[0]][0].value, "target": order[1], "claim": "bat"}
    assert act(game, players[order[0]], aim).status_code == 200
    assert act(game, players[order[1]], {"type": "pass"}).status_code == 200
    redirect = {"type": "redirect", "target": order[2], "claim": "whip"}
    assert act(game, players[order[1]], redirect).status_code == 200
    return game, order


def reveals(game, what: str) -> dict[int, tuple]:
    rows = Event.objects.filter(game=game, kind=Event.Kind.REVEAL, data__event=what).select_related("seat")
    return {e.seat.number: (e.text, e.data) for e in rows}


def seen_by(game, user) -> dict:
    seen = observe(game, viewer_for(game, user))
    seen.pop("version")
    return seen


@pytest.fixture(autouse=True)
def frozen():
    """One instant: the clocks' seconds left stay as they were between two looks."""
    with time_machine.travel(timezone.now(), tick=False):
        yield


@pytest.mark.django_db
def test_hidden_perturb_changes_what_an_unseeing_seat_may_not_see_and_nothing_it_sees(flying, players, hank):
    game, order = flying
    unseen, passer = order[3], order[1]
    state, deal, seed = state_of(game), Deal.objects.get(game=game).hands, game.seed
    hands, seen = reveals(game, "hand"), reveals(game, "seen")
    mine, host = seen_by(game, players[unseen]), host_view(game, hank)
    with transaction.atomic():
        # The weapon is drawn again from the cards the others hold: with this draw it is another one.
        changed = registry.get("arms_race").hidden_perturb(game, unseen, random.Random(3))
        new = state_of(game)
        assert seen_by(game, players[unseen]) == mine and host_view(game, hank) != host
        assert new.hands[unseen] == state.hands[unseen] and new.hands != state.hands
        assert new.undealt != state.undealt and new.flight.weapon != state.flight.weapon
        assert game.seed != seed and new.seed != state.seed
        # The deal and the hand messages tell the new story to everyone but the seat, who keeps its own.
        dealt = Deal.objects.get(game=game).hands
        assert dealt[unseen] == deal[unseen] and dealt != deal
        assert dealt == [[w.value for w in hand] for hand in dealt_hands(new)]
        assert reveals(game, "hand")[unseen] == hands[unseen]
        assert all(reveals(game, "hand")[s][1]["hand"] == dealt[s] for s in range(4))
        weapon = reveals(game, "seen")[passer][1]["weapon"]
        assert weapon == new.flight.weapon.value != seen[passer][1]["weapon"]
        assert "the weapon in flight and 1 passers' messages about it" in changed
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_hidden_perturb_keeps_the_weapon_for_its_passer(flying, players):
    game, order = flying
    passer = order[1]
    state, seen = state_of(game), reveals(game, "seen")
    mine = seen_by(game, players[passer])
    with transaction.atomic():
        registry.get("arms_race").hidden_perturb(game, passer, random.Random(2))
        assert state_of(game).flight == state.flight and reveals(game, "seen") == seen
        assert seen_by(game, players[passer]) == mine
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_no_page_shows_a_change_in_the_middle_of_an_attack(flying, players, hank):
    """The proof's crawl (tests/proof) mid-attack: as a spectator, a seat that has not seen it, its passer."""
    game, order = flying
    world = World(games=[game], seasons=[game.season, Season.objects.create(name="Season 2")])
    world.hosts[game.id] = {hank.id}
    world.seats[game.id] = dict(game.seats.values_list("user_id", "number"))
    urls = game_urls(world, game)
    differences = []
    for user, seat in ((None, None), (players[order[3]], order[3]), (players[order[1]], order[1])):
        before = answers(user, urls)
        with transaction.atomic():
            game.refresh_from_db()
            registry.get("arms_race").hidden_perturb(game, seat, random.Random(f"{seat}"))
            bump_version(game)
            differences += first_difference(before, answers(user, urls))
            transaction.set_rollback(True)
    assert not differences, "\n".join(differences)
