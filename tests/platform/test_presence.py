"""Presence (issue 30.2): no "your turn" while the player watches the game's page, one per turn and player
otherwise, a few seconds late and dropped if they moved meanwhile; the page says when it is in view."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.platform import outbox, presence, tasks
from games.platform.models import OutboxTask, TurnClock
from games.platform.services import games as game_services
from games.platform.services.live import action_apply
from tests.api_support import page_client
from tests.conftest import seat_of
from tests.platform.test_notifications import your_turn_by_email
from tests.sitting import all_here

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


@pytest.fixture
def duel(season, hank, alice, bob, django_capture_on_commit_callbacks):
    """A live match whose clocks started at T0: alice (seat 1) is on turn; her "your turn" is owed. Both
    asked for "your turn" by email (by default it comes by the other ways only)."""
    your_turn_by_email(alice, bob)
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
        )
        game_services.game_seat(game=game, user=alice, actor=hank)
        game_services.game_seat(game=game, user=bob, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)
    game.refresh_from_db()
    return game


def at(seconds: float):
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def move(game, user, capture, **payload):
    with capture(execute=True):
        action_apply(seat=seat_of(game, user), payload={"say": 1, **payload})


def relay_at(seconds: float) -> int:
    with at(seconds):
        return outbox.relay()


def sent(mailoutbox):
    return [(m.to[0], m.subject) for m in mailoutbox]


def test_the_your_turn_waits_and_goes_once_to_a_player_not_watching(duel, mailoutbox):
    assert OutboxTask.objects.filter(name="notify_your_turn").count() == 1
    assert relay_at(9) == 0 and mailoutbox == []  # not yet: she may move at once
    assert relay_at(11) == 1
    assert sent(mailoutbox) == [("alice@example.com", "Duel: your turn")]
    assert not OutboxTask.objects.exists()


def test_a_player_watching_the_page_gets_nothing(duel, alice, mailoutbox):
    with at(5):
        presence.seen(alice.pk, duel.pk, True)
    assert relay_at(11) == 1
    assert mailoutbox == []
    assert not OutboxTask.objects.exists()  # dropped, not kept for later


def test_a_player_who_moved_meanwhile_is_told_nothing_and_the_next_one_once(
    duel, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    with at(4):
        move(duel, alice, django_capture_on_commit_callbacks)
    assert relay_at(11) == 1  # alice's: she moved, so nothing
    assert mailoutbox == []
    assert relay_at(13) == 0  # bob's waits its ten seconds from his turn
    assert relay_at(15) == 1
    assert sent(mailoutbox) == [("bob@example.com", "Duel: your turn")]


def test_one_message_per_turn_and_player_however_often_the_move_comes_back(
    duel, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    relay_at(11)
    with at(20):
        move(duel, alice, django_capture_on_commit_callbacks)  # turn 1: bob's
    relay_at(31)
    with at(40):
        move(duel, bob, django_capture_on_commit_callbacks, ask=True)  # alice must answer, in bob's turn
    relay_at(51)
    with at(60):
        move(duel, alice, django_capture_on_commit_callbacks)  # answered: the move is bob's again
    relay_at(71)
    assert sent(mailoutbox) == [
        ("alice@example.com", "Duel: your turn"),
        ("bob@example.com", "Duel: your turn"),
        ("alice@example.com", "Duel: your decision (answer)"),
    ]  # bob's turn came back to him and told him nothing more
    assert not OutboxTask.objects.exists()


def test_a_duplicate_task_sends_nothing_more(duel, alice, mailoutbox):
    clock = TurnClock.objects.get(game=duel)
    args = (duel.pk, alice.pk, "turn", clock.generation, clock.turn_key)
    with at(11):
        tasks.notify_your_turn(*args)
        assert len(mailoutbox) == 1
        tasks.notify_your_turn(*args)  # told already under the turn's key: nothing goes again
        assert len(mailoutbox) == 1
        outbox.relay()  # the owed copy of the same turn
    assert sent(mailoutbox) == [("alice@example.com", "Duel: your turn")]


def test_a_visible_pages_poll_makes_its_player_watching_for_a_while_and_a_hidden_one_does_not(duel, alice):
    client = page_client(alice)
    feed = reverse("game-feed", args=[duel.pk])
    with at(0):
        client.get(feed, {"v": "0"})  # a hidden tab's poll carries no `seen`
        assert not presence.watching(alice.pk, duel.pk)
        client.get(feed, {"v": "0", "seen": "1"})
        assert presence.watching(alice.pk, duel.pk)
    with at(39):
        assert presence.watching(alice.pk, duel.pk)
    with at(41):
        assert not presence.watching(alice.pk, duel.pk)  # no poll since: the page is gone


def test_the_pages_beacon_says_hidden_and_visible_at_once(duel, alice):
    client = page_client(alice)
    url = reverse("game-presence", args=[duel.pk])
    assert client.post(url, {"visible": "1"}).status_code == 204
    assert presence.watching(alice.pk, duel.pk)
    assert client.post(url, {"visible": "0"}).status_code == 204
    assert not presence.watching(alice.pk, duel.pk)


def test_only_the_games_players_are_heard_and_others_find_nothing(duel, hank, charlie):
    url = reverse("game-presence", args=[duel.pk])
    assert page_client(None).post(url, {"visible": "1"}).status_code == 302  # to the login
    assert page_client(hank).post(url, {"visible": "1"}).status_code == 404  # its host plays no seat
    assert page_client(charlie).post(url, {"visible": "1"}).status_code == 404
    assert page_client(charlie).get(url).status_code == 405  # a read says nothing, of any game
    assert not presence.watching(hank.pk, duel.pk) and not presence.watching(charlie.pk, duel.pk)


def test_a_players_page_names_where_to_say_it_is_in_view_and_a_spectators_does_not(duel, alice, charlie):
    url = reverse("game-presence", args=[duel.pk])
    assert f'data-presence-url="{url}"' in page_client(alice).get(reverse("game", args=[duel.pk])).text
    assert "data-presence-url" not in page_client(charlie).get(reverse("game", args=[duel.pk])).text


def test_a_player_whose_time_runs_into_the_reserve_is_warned_once_unless_watching(
    duel, alice, bob, mailoutbox
):
    from tests.sweeping import sweep

    sweep(now=T0 + timedelta(seconds=61))  # alice's 60 s are gone: the first 30 s of her reserve are drawn
    sweep(now=T0 + timedelta(seconds=91))  # and the next
    assert sent(mailoutbox) == [("alice@example.com", "Duel: your time is up, your reserve is running")]
    assert "it is gone at 2 Mar 2026, 18:02 (UTC) (in 59 seconds)" in mailoutbox[0].body
    assert f"http://localhost:8000/games/{duel.pk}/" in mailoutbox[0].body


def test_a_player_watching_the_page_is_not_warned_of_the_reserve(duel, alice, mailoutbox):
    from tests.sweeping import sweep

    with at(50):
        presence.seen(alice.pk, duel.pk, True)
    sweep(now=T0 + timedelta(seconds=61))
    assert mailoutbox == []
