"""Awaiting you: what a player's games need from them, the soonest first, on the home page and in the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.platform.awaiting import awaiting
from games.platform.services import games as game_services
from games.platform.services.chat import chat_post
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of
from tests.sitting import all_here

pytestmark = pytest.mark.django_db


def duel_of(season, hank, first, second, name="Duel"):
    game = game_services.game_create(
        season=season, game_type="tally_duel", name=name, hosts=[hank], actor=hank
    )
    game_services.game_seat(game=game, user=first, actor=hank)
    game_services.game_seat(game=game, user=second, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def needs(user):
    return [(a.game_name, a.need) for a in awaiting(user)]


def test_an_unsubmitted_round_awaits_each_player_until_they_save(tally, alice, bob):
    assert needs(alice) == [("Tally", "not_submitted")] and needs(bob) == [("Tally", "not_submitted")]
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3})
    assert needs(alice) == [("Tally", "saved_not_final")]
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3}, final=True)
    assert needs(alice) == [] and needs(bob) == [("Tally", "not_submitted")]


def test_the_soonest_deadline_comes_first(season, hank, alice, bob, tally):
    duel = duel_of(season, hank, alice, bob)  # alice's turn: a minute, well before the round's hour
    items = awaiting(alice)
    assert [(a.game_id, a.need) for a in items] == [(duel.id, "your_turn"), (tally.id, "not_submitted")]
    assert items[0].deadline < items[1].deadline
    assert needs(bob) == [("Tally", "not_submitted")]  # not bob's turn: the duel asks nothing of him


def test_a_paused_game_waits_after_the_running_ones(season, hank, alice, bob, tally):
    duel = duel_of(season, hank, alice, bob)
    game_services.game_pause(game=duel, actor=hank)
    items = awaiting(alice)
    assert [a.game_id for a in items] == [tally.id, duel.id]
    assert items[1].paused_seconds is not None


def test_finished_and_unseated_games_await_nothing(tally, charlie, hank):
    assert awaiting(charlie) == [] and awaiting(hank) == []


def test_the_home_page_lists_what_awaits_with_a_countdown_and_the_count_in_the_title(client, tally, alice):
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert "<title>(1) genius</title>" in html
    assert "Awaiting you" in html and "Round 0: not submitted" in html
    assert f'href="{reverse("game", args=[tally.id])}"' in html and 'class="countdown"' in html


def test_the_home_page_of_someone_awaited_by_nothing_says_so(client, tally, charlie):
    client.force_login(charlie)
    html = client.get(reverse("home")).content.decode()
    assert "<title>genius</title>" in html and "Nothing awaits you right now." in html


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_api_lists_only_the_callers_own_games(season, hank, alice, bob, charlie, tally, make_user):
    dave = make_user("dave")
    other = duel_of(season, hank, charlie, dave, name="Other duel")  # charlie's turn; alice is not in it
    answer = api_as(alice).get("/api/me/awaiting/").json()
    assert [(a["game"], a["need"]) for a in answer] == [(tally.id, "not_submitted")]
    assert answer[0]["url"] == reverse("game", args=[tally.id]) and answer[0]["deadline"]
    assert [a["game"] for a in api_as(charlie).get("/api/me/awaiting/").json()] == [other.id]
    assert api_as(dave).get("/api/me/awaiting/").json() == []  # a seat whose turn it is not
    assert api_as(hank).get("/api/me/awaiting/").json() == []  # the host owes nothing
    assert APIClient().get("/api/me/awaiting/").status_code in (401, 403)


def test_the_api_answers_in_the_same_queries_however_many_games(season, hank, alice, bob, tally, make_user):
    api = api_as(alice)

    def queries():
        with CaptureQueriesContext(connection) as ctx:
            assert api.get("/api/me/awaiting/").status_code == 200
        return len(ctx)

    one = queries()
    for n in range(3):
        rival = make_user(f"rival{n}")
        duel = duel_of(season, hank, alice, rival, name=f"Duel {n}")
        chat_post(game=duel, author_seat=seat_of(duel, rival), other_seat=seat_of(duel, alice), text="psst")
    submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 1})
    assert len(api.get("/api/me/awaiting/").json()) == 7
    # seats (with their unread results), open rounds, the seat's saves, clocks, picks, unread chats
    assert queries() == one == 6


def test_a_closed_round_awaits_nothing(tally, alice):
    with time_machine.travel(timezone.now() + timedelta(hours=2), tick=False):
        from tests.sweeping import sweep

        sweep()
    assert all(a.round_number != 0 for a in awaiting(alice))


def test_a_turn_on_the_home_page_counts_on_into_the_reserve_not_to_closing(client, season, hank, alice, bob):
    # Issue 20.2: the home page's clock of a turn said "closing…" at the turn's deadline while the reserve
    # was being drawn. It is the live page's turn clock: the reserve and its steps go with the deadline.
    from games.platform.models import TurnClock
    from games.platform.services.clocks import clock_expire

    duel = duel_of(season, hank, alice, bob)
    client.force_login(alice)
    home = client.get(reverse("home")).content.decode()
    assert 'class="countdown turn-countdown"' in home and 'data-reserve="60" data-step="30"' in home
    clock = TurnClock.objects.get(game=duel)
    clock_expire(game_id=duel.id, generation=clock.generation, now=clock.deadline + timedelta(seconds=1))
    home = client.get(reverse("home")).content.decode()
    assert 'data-reserve="30" data-step="30" data-in-reserve="1"' in home
    item = APIClient()
    item.force_authenticate(alice)
    [turn] = item.get(reverse("api-awaiting")).json()
    assert (turn["need"], turn["reserve_seconds"], turn["reserve_increment"]) == ("your_turn", 30, 30)


def test_the_home_pages_list_answers_alone_when_it_asks_for_itself(client, tally, alice):
    client.force_login(alice)
    part = client.get("/?part=awaiting", headers={"HX-Request": "true"}).content.decode()
    assert part.lstrip().startswith('<section class="card awaiting"') and "Round 0: not submitted" in part
    assert "Your games" not in part and 'data-awaiting-count="1"' in part
    # Asked every minute by every open home page: the user, then what the API's list costs
    # (test_the_api_answers_in_the_same_queries_however_many_games); the session, read from Redis when
    # there is one, is not counted.
    with CaptureQueriesContext(connection) as ctx:
        client.get("/?part=awaiting", headers={"HX-Request": "true"})
    queries = [q["sql"] for q in ctx if "django_session" not in q["sql"]]
    assert len(queries) == 1 + 6, [q[:60] for q in queries]
