"""Rounds that open by a host's hand (GameType.round_opens_by_hand): the round before resolves and the game
runs on with no round open; the host's console, the season's console and the API offer "Open Round N"; the
round opens once, for its window, and the sweep closes it as any other; the players' page says what it
waits for."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine as machine
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.platform import registry
from games.platform.errors import NotAllowed, StateChanged
from games.platform.models import AuditLog, Event, Game, Round
from games.platform.next_step import next_step
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve
from tests.api_support import api
from tests.sweeping import sweep
from tests.toy_game import TallyByHand

pytestmark = pytest.mark.django_db

NOON = timezone.make_aware(dt.datetime(2025, 3, 3, 12, 0))  # a Monday


@pytest.fixture(autouse=True)
def by_hand_type():
    registry.register(TallyByHand())
    yield
    registry.unregister("tally_by_hand")


@pytest.fixture(autouse=True)
def at_noon(time_machine):
    time_machine.move_to(NOON, tick=False)


@pytest.fixture
def game(season, hank, alice, bob):
    """A Tally by hand, started at noon: Round 1 open for an hour, Round 2 waits for a host."""
    game = game_services.game_create(
        season=season, game_type="tally_by_hand", name="Tally", hosts=[hank], actor=hank
    )
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


@pytest.fixture
def resolved(game, django_capture_on_commit_callbacks):
    """Round 1 resolved (its results told), at 12:10."""
    with machine.travel(NOON + dt.timedelta(minutes=10), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert round_resolve(round_id=game.rounds.get(number=1).id, early=True)
    game.refresh_from_db()
    mail.outbox.clear()
    return game


def test_resolving_the_round_before_leaves_the_game_running_with_no_round_open(resolved):
    assert resolved.status == Game.Status.RUNNING
    assert list(resolved.rounds.values_list("number", "status")) == [(1, Round.Status.RESOLVED)]


def test_the_next_step_is_open_round_2(resolved):
    step = next_step(resolved, NOON + dt.timedelta(minutes=15))
    assert step.words == "Round 1 is resolved; Round 2 opens when a host opens it."
    assert (step.action, step.button, step.game_id) == ("open_round", "Open Round 2", resolved.pk)


def test_a_player_may_not_open_it(resolved, alice):
    with pytest.raises(NotAllowed):
        game_services.round_open_by_hand(game=resolved, actor=alice)
    assert api(alice).post(reverse("api-host-open-round", args=[resolved.id])).status_code == 403
    assert not resolved.rounds.filter(number=2).exists()


def test_opening_it_works_once_and_tells_the_players(resolved, hank, django_capture_on_commit_callbacks):
    version = resolved.version
    at = NOON + dt.timedelta(minutes=30)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = game_services.round_open_by_hand(game=resolved, actor=hank, now=at)
    assert (rnd.number, rnd.status, rnd.opens_at, rnd.closes_at) == (
        2,
        "open",
        at,
        at + dt.timedelta(hours=1),
    )
    said = Event.objects.filter(game=resolved, kind=Event.Kind.ANNOUNCEMENT).latest("id")
    assert said.text == "Round 2 is open until {at:2025-03-03T13:30:00+00:00}."
    assert (said.round_number, said.author) == (2, hank)
    assert AuditLog.objects.filter(action="round_open_by_hand", actor=hank, game=resolved).count() == 1
    resolved.refresh_from_db()
    assert resolved.version > version
    assert sorted((m.to[0], m.subject) for m in mail.outbox) == [
        ("alice@example.com", "Tally: Round 2 is open"),
        ("bob@example.com", "Tally: Round 2 is open"),
    ]
    with pytest.raises(StateChanged, match="Round 2 is open: it must be resolved before the next one opens."):
        game_services.round_open_by_hand(game=resolved, actor=hank)
    assert resolved.rounds.count() == 2


def test_it_is_refused_with_words_while_paused_and_after_the_end(resolved, hank):
    game_services.game_pause(game=resolved, actor=hank)
    with pytest.raises(StateChanged, match="The game is paused: resume it before opening Round 2."):
        game_services.round_open_by_hand(game=resolved, actor=hank)
    game_services.game_resume(game=resolved, actor=hank)
    game_services.round_open_by_hand(game=resolved, actor=hank)
    round_resolve(round_id=resolved.rounds.get(number=2).id, early=True)
    resolved.refresh_from_db()
    assert resolved.status == Game.Status.FINISHED  # Round 3 does not exist: the game ends as ever
    with pytest.raises(StateChanged, match="The game is not running"):
        game_services.round_open_by_hand(game=resolved, actor=hank)


def test_a_round_that_opens_by_itself_is_not_opened_by_hand(tally, hank):
    with pytest.raises(StateChanged, match="Round 0 is open"):
        game_services.round_open_by_hand(game=tally, actor=hank)
    # Round 1 of a plain Tally opens when Round 0 resolves, never on a press.
    assert round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    assert tally.rounds.get(number=1).status == Round.Status.OPEN


def test_the_opened_round_closes_on_its_window_and_the_sweep_resolves_it(resolved, hank):
    at = NOON + dt.timedelta(minutes=30)
    rnd = game_services.round_open_by_hand(game=resolved, actor=hank, now=at)
    with machine.travel(at + dt.timedelta(minutes=59), tick=False):
        assert sweep()["resolved"] == 0  # not due yet
    with machine.travel(rnd.closes_at + dt.timedelta(seconds=1), tick=False):
        assert sweep()["resolved"] == 1
    rnd.refresh_from_db()
    resolved.refresh_from_db()
    assert rnd.status == Round.Status.RESOLVED
    assert resolved.status == Game.Status.FINISHED


def test_the_players_page_says_the_hosts_open_the_next_round(resolved, alice, client):
    client.force_login(alice)
    page = client.get(reverse("game", args=[resolved.id])).content.decode()
    assert "Round 2 opens when the hosts open it." in page
    assert "results coming" not in page.split('id="live"')[1].split("</section>")[0]
    body = api(alice).get(reverse("api-game", args=[resolved.id])).json()
    assert body["round"]["next_by_hand"] == 2


def test_the_console_shows_the_button_and_it_opens_the_round(resolved, hank, client):
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{resolved.id}/change/").content.decode()
    assert "Round 2 opens when you press Open Round 2." in page
    assert 'value="open_round">Open Round 2</button>' in page
    assert "Resolve now" not in page  # no round is open: nothing to resolve or extend
    with machine.travel(NOON + dt.timedelta(minutes=20), tick=False):
        answer = client.post(f"/admin/platform/game/{resolved.id}/host/open_round/")
        assert answer.status_code == 302
        said = str(list(get_messages(answer.wsgi_request))[-1])
    assert said == "Round 2 is open until Mon 13:20 UTC."
    again = client.post(f"/admin/platform/game/{resolved.id}/host/open_round/")
    assert str(list(get_messages(again.wsgi_request))[-1]).startswith("Round 2 is open: it must be resolved")
    assert resolved.rounds.filter(number=2).count() == 1


def test_the_season_console_offers_the_same_button(resolved, hank, client):
    client.force_login(hank)
    page = client.get(f"/admin/platform/season/{resolved.season_id}/change/").content.decode()
    assert "Round 2 opens when a host opens it." in page and ">Open Round 2</button>" in page
    answer = client.post(
        f"/admin/platform/season/{resolved.season_id}/console/open_round/", {"game": resolved.id}
    )
    assert "Opened Round 2 of" in str(list(get_messages(answer.wsgi_request))[-1])
    assert resolved.rounds.get(number=2).status == Round.Status.OPEN


def test_the_api_opens_it_for_a_host(resolved, hank):
    answer = api(hank).post(reverse("api-host-open-round", args=[resolved.id]))
    assert answer.status_code == 200, answer.content
    assert answer.json()["round"]["number"] == 2
    assert answer.json()["round"]["status"] == "open"
