"""hidden_perturb: what a seat may not see changes, what it may see stays (the proof test's tool, tested).

The proof test (tests/proof/test_hidden_perturbation.py) runs it on a demo game in Round 0, where nobody has
submitted, traded or been told anything yet; here it also runs mid-race (bets, trades, Round 3 reports,
inboxes, submissions), after the first exits, and in the ending's vote round.
"""

from __future__ import annotations

import random

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from games.horse_race.models import MovementTable, TradeOffer
from games.horse_race.rules import HORSES, public_view, seat_view, spaces_after
from games.horse_race.rules.track import horses_on
from games.horse_race.store import load
from games.platform import registry
from games.platform.models import Game, LedgerAccount, Season, Submission
from games.platform.registry import Viewer
from games.platform.services.events import bump_version
from games.platform.services.live import operation_run
from games.platform.services.rounds import round_resolve_now, submission_save
from tests.horse_race.horse_race_support import random_submission
from tests.horse_race.site_support import make_game
from tests.proof.test_hidden_perturbation import answers, first_difference, game_urls
from tests.proof.test_no_leaks import World

pytestmark = pytest.mark.django_db
KIND = registry.get("horse_race")


@pytest.fixture
def three(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def seat_of(game, user):
    return game.seats.get(user=user)


def submit_all(game, rng):
    """Every seat saves something legal at random for the open round."""
    state = load(game)
    for seat in game.seats.all():
        payload = random_submission(state, seat.number, rng)
        submission_save(seat=seat, round_number=state.round, payload=payload)


def play_round(game, hank, rng, *, submit=True):
    if submit:
        submit_all(game, rng)
    round_resolve_now(game=game, actor=hank)
    game.refresh_from_db()


def trade(game, user, name, payload):
    seat = seat_of(game, user)
    operation_run(game=game, viewer=Viewer(role="player", seat=seat, user=user), name=name, payload=payload)
    game.refresh_from_db()


def mid_race(game, hank, players, until_round):
    """Rounds played at random, an accepted, a declined and an open trade, a Round 3 report for cat, and
    every seat's submission saved in the open round."""
    ann, ben, cat = players
    rng = random.Random(7)
    trade(game, ben, "offer_trade", {"give": "C", "want": "D", "to": "cat"})
    trade(game, cat, "accept_trade", {"offer": TradeOffer.objects.get(status="open").ref})
    trade(game, cat, "offer_trade", {"give": "E", "want": "F", "to": "ann"})
    trade(game, ann, "decline_trade", {"offer": TradeOffer.objects.get(status="open").ref})
    trade(game, ann, "offer_trade", {"give": "G", "want": "H", "to": "ben"})
    play_round(game, hank, rng)
    while load(game).round < until_round:
        if load(game).round == 3:
            held = [h for h, n in load(game).players[2].hand.items() if n][:2]
            report = {"ability": {"kind": "utility", "select": held}}
            submission_save(seat=seat_of(game, cat), round_number=3, payload=report)
        play_round(game, hank, rng, submit=load(game).round != 3)
    submit_all(game, rng)
    return game


def host_view(game):
    game = Game.objects.get(pk=game.pk)
    return KIND.observation(game, Viewer(role="host")), KIND.hidden_data(game)


def perturbed(game, seat_number, seed="x"):
    changed = KIND.hidden_perturb(game, seat_number, random.Random(seed))
    game.refresh_from_db()
    return changed


# -- the state: what changes, what stays -----------------------------------------------------------------


def test_round_0_every_movement_value_and_the_other_seats_change_never_the_seats_own(race, nine):
    before = load(race)
    changed = perturbed(race, 2)
    after = load(race)
    assert changed and "the seed" in changed
    assert all(a != b for h in HORSES for a, b in zip(before.movement[h], after.movement[h], strict=True))
    assert MovementTable.objects.get(game=race).grid == after.movement
    assert seat_view(after, 2) == seat_view(before, 2)
    assert public_view(after) == public_view(before)
    for seat in (0, 1, 3, 8):
        assert after.players[seat].hand != before.players[seat].hand
        assert after.players[seat].chips > before.players[seat].chips
    # the ledgers follow the state, so the hands still pay for the abilities they choose
    ann = LedgerAccount.objects.filter(user=nine[0], game=race)
    assert {(a.what, a.item): a.balance for a in ann if a.what == "cards"} == {
        ("cards", h): n for h, n in after.players[0].hand.items()
    }
    assert ann.get(what="chips").balance == after.players[0].chips


def test_spectators_keep_the_public_view_and_every_seat_changes(race):
    before = load(race)
    perturbed(race, None)
    after = load(race)
    assert public_view(after) == public_view(before)
    assert all(after.players[s].hand != before.players[s].hand for s in range(9))


def test_mid_race_the_moved_rounds_and_the_seats_own_things_stay(season, hank, three):
    game = mid_race(make_game(season, hank, three), hank, three, until_round=5)
    before, subs = load(game), Submission.objects.count()
    offers = {o.id: (o.give, o.want) for o in TradeOffer.objects.all()}
    assert before.reports and any(before.players[2].bets)  # cat's Round 3 report and bets
    changed = perturbed(game, 0)
    after = load(game)
    assert seat_view(after, 0) == seat_view(before, 0)
    assert public_view(after) == public_view(before)
    for horse in HORSES:  # Round 5 is open: the values of Rounds 5-10 are still to be moved
        assert all(a != b for a, b in zip(after.movement[horse][4:], before.movement[horse][4:], strict=True))
    # the racing horses stand elsewhere, but on or off each space ann spectated as before
    spaces = [spaces_after(s.movement, 4) for s in (before, after)]
    assert spaces[0] != spaces[1]
    for r, space in enumerate(before.players[0].spectated[:5]):
        assert horses_on(before.movement, space, r) == horses_on(after.movement, space, r)
    assert after.reports[0].horses != before.reports[0].horses
    assert after.players[2].bets != before.players[2].bets
    assert Submission.objects.count() == subs + 2, changed  # ben's and cat's new versions, not ann's
    # ben and cat's accepted offer is not ann's: it changes; the two with ann stay
    for offer in TradeOffer.objects.all():
        mine = 0 in (offer.offered_by.number, offer.offered_to.number)
        assert ((offer.give, offer.want) == offers[offer.id]) is mine


def test_in_the_vote_round_the_other_voters_votes_change(season, hank, three):
    game = vote_round(make_game(season, hank, three), hank, three)
    perturbed(game, 1)
    votes = {}
    for sub in Submission.objects.filter(round__number=11).order_by("created_at", "id"):
        votes.setdefault(sub.seat.number, []).append(sub.payload["vote"])
    assert votes[1] == [2]
    assert all(len(votes[s]) == 2 and votes[s][0] != votes[s][1] for s in (0, 2))


def test_a_finished_game_has_nothing_hidden(race):
    Game.objects.filter(pk=race.pk).update(status=Game.Status.FINISHED)
    race.refresh_from_db()
    assert perturbed(race, None) == []


# -- the pages: nothing a viewer gets changes, while the host's view does ----------------------------------


def vote_round(game, hank, players):
    """Nobody submits: all tie on 0, so all three win a ToL and vote on the Elimination Candidate."""
    while load(game).round <= 10:
        play_round(game, hank, None, submit=False)
    for seat in game.seats.all():
        submission_save(seat=seat, round_number=11, payload={"vote": (seat.number + 1) % 3})
    return game


SETUPS = {
    "round 5 (trades, reports, submissions)": lambda g, h, p: mid_race(g, h, p, until_round=5),
    "round 6 (two horses finished)": lambda g, h, p: mid_race(g, h, p, until_round=6),
    "the Elimination Candidate vote": vote_round,
}


@pytest.mark.parametrize("moment", SETUPS)
def test_no_page_changes_for_the_viewer_while_the_host_view_does(moment, season, hank, three, make_user):
    olga = make_user("olga", is_staff=True)
    Season.objects.create(name="Season 2").hosts.add(olga)
    game = SETUPS[moment](make_game(season, hank, three), hank, three)
    assert game.status == Game.Status.RUNNING
    world = World(games=[game], seasons=list(Season.objects.all()))
    world.hosts[game.id] = {hank.id}
    world.seats[game.id] = dict(game.seats.values_list("user_id", "number"))
    urls = game_urls(world, game)
    looks = [("anonymous", None, None), ("outsider", make_user("charlie"), None), ("olga", olga, None)]
    looks += [(user.username, user, world.seats[game.id][user.id]) for user in three]
    differences = []
    with time_machine.travel(timezone.now(), tick=False):
        for label, user, seat_number in looks:
            before, host_before = answers(user, urls), host_view(game)
            with transaction.atomic():
                game.refresh_from_db()
                assert KIND.hidden_perturb(game, seat_number, random.Random(label))
                bump_version(game)
                after = answers(user, urls)
                assert host_view(game) != host_before, label
                transaction.set_rollback(True)
            differences += [f"{label} sees a change in {d}" for d in first_difference(before, after)]
    assert not differences, "\n".join(differences)
