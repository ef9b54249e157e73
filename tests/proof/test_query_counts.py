"""The number of queries of the pages, the feed, the API and a resolution does not grow with the players.

Each path is counted on a Tally game of 3 players, then held to that count on one of 30 (a test-only Tally
that seats up to 30). The feed poll with nothing new is one query, whoever asks.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.platform import registry
from games.platform.models import Game, Round
from games.platform.services import games as game_services
from games.platform.services import rounds
from tests.sitting import all_here
from tests.toy_game import Tally

pytestmark = pytest.mark.django_db

SMALL, LARGE = 3, 30


class BigTally(Tally):
    slug = "tally_big"
    name = "Tally for 30 (test game)"
    max_players = 30


@pytest.fixture(autouse=True)
def big_tally():
    registry.register(BigTally())
    yield
    registry.unregister("tally_big")


@pytest.fixture
def make_game(make_user, season, hank):
    made = {}

    def make(players: int) -> Game:
        game = game_services.game_create(
            season=season, game_type="tally_big", name=f"Tally of {players}", hosts=[hank], actor=hank
        )
        for i in range(players):
            user = make_user(f"g{len(made)}p{i}")
            game_services.game_seat(game=game, user=user, actor=hank)
        game_services.game_start(game=game, actor=hank)
        game.refresh_from_db()
        for seat in game.seats.all():
            rounds.submission_save(seat=seat, round_number=0, payload={"number": seat.number % 11})
        game.refresh_from_db()
        made[players] = game
        return game

    return make


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def count(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


def first_player(game):
    return game.seats.order_by("number").first().user


PATHS = {
    "game page as a player": lambda g, hank: client_as(first_player(g)).get(f"/games/{g.id}/"),
    "game page as the host": lambda g, hank: client_as(hank).get(f"/games/{g.id}/"),
    "game page as a spectator": lambda g, hank: client_as(None).get(f"/games/{g.id}/"),
    "feed with news as a player": lambda g, hank: client_as(first_player(g)).get(f"/games/{g.id}/live/"),
    "API observation as a player": lambda g, hank: client_as(first_player(g)).get(f"/api/games/{g.id}/"),
    "API observation as the host": lambda g, hank: client_as(hank).get(f"/api/games/{g.id}/"),
}


@pytest.mark.parametrize("path", list(PATHS))
def test_queries_do_not_grow_with_the_players(path, make_game, hank, django_assert_max_num_queries):
    request = PATHS[path]
    small, large = make_game(SMALL), make_game(LARGE)
    assert request(small, hank).status_code == 200
    # Counted after a first request, which may warm per-process caches (content types, sessions); then
    # with the page cache empty (a page rendered) and full (a page served from it).
    cache.clear()
    small_cold = count(lambda: request(small, hank))
    small_warm = count(lambda: request(small, hank))
    cache.clear()
    with django_assert_max_num_queries(small_cold):
        assert request(large, hank).status_code == 200
    with django_assert_max_num_queries(small_warm):
        assert request(large, hank).status_code == 200


@pytest.mark.parametrize("path", ["as a player", "as a spectator"])
def test_a_cached_game_page_takes_at_most_three_queries(path, make_game, django_assert_max_num_queries):
    # The session (unless Redis holds it), the user, the game's version: the body and the role are cached.
    game = make_game(LARGE)
    client = client_as(first_player(game) if path.endswith("player") else None)
    client.get(f"/games/{game.id}/")
    with django_assert_max_num_queries(3):
        assert client.get(f"/games/{game.id}/").status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_the_feed_poll_with_nothing_new_is_one_query(who, make_game, django_assert_max_num_queries):
    game = make_game(LARGE)
    client = client_as(first_player(game) if who == "player" else None)
    with django_assert_max_num_queries(1):
        response = client.get(f"/games/{game.id}/live/?v={game.version}")
    assert response.status_code == 204


def test_a_round_resolution_does_not_grow_with_the_players(make_game, django_assert_max_num_queries):
    small, large = make_game(SMALL), make_game(LARGE)

    def resolve(game):
        rnd = Round.objects.get(game=game, number=0)
        assert rounds.round_resolve(round_id=rnd.pk, early=True) is not False

    small_count = count(lambda: resolve(small))
    with django_assert_max_num_queries(small_count):
        resolve(large)
    assert Round.objects.get(game=large, number=0).status == Round.Status.RESOLVED


@pytest.fixture
def make_duel(make_user, season, hank):
    def make(name: str) -> Game:
        game = game_services.game_create(
            season=season, game_type="tally_duel", name=name, hosts=[hank], actor=hank
        )
        for seat in (0, 1):
            game_services.game_seat(game=game, user=make_user(f"{name}{seat}"), actor=hank)
        game_services.game_start(game=game, actor=hank)
        return all_here(game)  # the players sit down: the clocks run

    return make


def test_a_reserve_step_drawn_by_the_sweep_is_its_two_writes_and_the_version(
    make_duel, django_assert_max_num_queries
):
    # Issue 20.2: the version's update is the one query the draw added, so that every poll brings the step.
    from datetime import timedelta

    from games.platform.models import TurnClock
    from games.platform.services.clocks import clock_expire

    game = make_duel("draw")
    clock = TurnClock.objects.get(game=game)
    late = clock.deadline + timedelta(seconds=1)
    # The lock's limits (PostgreSQL only), the game, the clock twice, three updates, and the outbox row of the
    # player's low-reserve warning (issue 30), inside the savepoint's two.
    with django_assert_max_num_queries(10):
        assert clock_expire(game_id=game.id, generation=clock.generation, now=late)


def test_a_late_move_costs_its_draw_and_no_second_version(make_duel):
    # A late move's draw is shown with the move, whose outcome moves the version: only the reserve and the
    # clock are written more than for a move on time.
    from datetime import timedelta

    from games.platform.models import TurnClock
    from games.platform.services.live import action_apply

    counts = []
    for name, late in (("ontime", 0), ("late", 1)):
        game = make_duel(name)
        clock = TurnClock.objects.get(game=game)
        now = clock.deadline + timedelta(seconds=late) if late else clock.deadline - timedelta(seconds=1)
        seat = game.seats.get(number=0)
        counts.append(count(lambda seat=seat, now=now: action_apply(seat=seat, payload={"say": 1}, now=now)))
    assert counts[1] == counts[0] + 2, counts


def test_im_here_is_a_few_queries_and_the_last_one_starts_the_clocks_in_a_few_more(make_user, season, hank):
    # Issue 20.1: a player's "I'm here" is the lock's limits, the game and the seat locked, the seat's write
    # and the version, and whether anyone is still missing; the last one also starts the clock and announces.
    # Two seats or seven, the same: nothing here reads or writes per seat.
    from games.platform.services.sitting import here_say

    game = game_services.game_create(season=season, game_type="tally_duel", name="Here", hosts=[hank])
    for seat in (0, 1):
        game_services.game_seat(game=game, user=make_user(f"here{seat}"), actor=hank)
    game_services.game_start(game=game, actor=hank)
    first, last = game.seats.order_by("number")
    assert count(lambda: here_say(seat=first)) <= FIRST_HERE
    assert count(lambda: here_say(seat=last)) <= LAST_HERE
    assert Game.objects.get(pk=game.pk).clocks_started_at is not None


# Counted on this code: the last adds the game's and the clock's writes and the announcement's (the event, the
# version, the webhooks asked, the hosts' stamps), as any announced move does, and the first turn's email
# (its outbox row, written in the same transaction: games/platform/outbox.py).
FIRST_HERE, LAST_HERE = 8, 21
