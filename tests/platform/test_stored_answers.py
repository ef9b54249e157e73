"""A host's (or a player's) action that was stored is answered as stored, even when showing the game after it
fails (issue 28.3): a host's Retry that took effect was answered 500 because rendering the game afterwards
raised, and a host who sees a 500 presses again. The API answers what was done (200, `stored`), the console
says what was done and still shows its buttons, and an action on several games names each one's outcome."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.messages import get_messages
from django.urls import reverse

from games.platform.api import views as api_views
from games.platform.models import Game, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve
from tests.api_support import api, page_client
from tests.sitting import all_here
from tests.toy_game import Tally

pytestmark = pytest.mark.django_db


def failing(*args, **kwargs):
    raise RuntimeError("the game could not be shown")


@pytest.fixture
def failed(tally, settings, monkeypatch):
    """Tally's Round 0, failed: its rules raised at the one attempt a round has here."""
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 1
    rnd = tally.rounds.get(number=0)
    with monkeypatch.context() as patched:
        patched.setattr(Tally, "resolve_round", failing)
        with time_machine.travel(rnd.closes_at, tick=False):
            round_resolve(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FAILED
    return rnd


def test_a_retry_through_the_api_is_answered_as_stored_when_the_game_cannot_be_shown(
    failed, tally, hank, monkeypatch
):
    monkeypatch.setattr(api_views, "observe", failing)
    answer = api(hank).post(reverse("api-host-retry", args=[tally.id]))
    assert answer.status_code == 200, answer.content
    assert answer.json()["stored"] is True
    assert answer.json()["detail"].startswith("The failed round is open again.")
    failed.refresh_from_db()
    assert failed.status == Round.Status.OPEN  # it took effect


def test_a_move_and_a_pause_through_the_api_are_answered_as_stored_when_the_game_cannot_be_shown(
    season, hank, alice, bob, monkeypatch
):
    duel = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=duel, user=user, actor=hank)
    game_services.game_start(game=duel, actor=hank)
    all_here(duel)
    version = Game.objects.get(pk=duel.pk).version
    monkeypatch.setattr(api_views, "observe", failing)
    moved = api(alice).post(reverse("api-action", args=[duel.id]), {"payload": {"say": 1}}, format="json")
    assert moved.status_code == 200 and moved.json() == {
        "detail": "Your move was made. It could not be read back just now: read the game again to see it.",
        "stored": True,
    }
    assert Game.objects.get(pk=duel.pk).version > version
    paused = api(hank).post(reverse("api-host-pause", args=[duel.id]))
    assert paused.status_code == 200 and paused.json()["stored"] is True
    assert Game.objects.get(pk=duel.pk).paused_at is not None


def console_of(client, game):
    return client.get(f"/admin/platform/game/{game.id}/change/")


def test_the_console_of_a_game_its_code_cannot_describe_still_shows_its_buttons(
    failed, tally, hank, monkeypatch
):
    monkeypatch.setattr(Tally, "describe_submission", failing)
    monkeypatch.setattr(Tally, "verdicts", failing)
    client = page_client(hank)
    page = console_of(client, tally)
    assert page.status_code == 200
    html = page.content.decode()
    assert "The console could not read this game just now (RuntimeError: the game could not be shown)" in html
    assert ">Retry</button>" in html and "Round 0 failed after 1 attempts" in html
    pressed = client.post(f"/admin/platform/game/{tally.id}/host/retry/")
    assert pressed.status_code == 302
    assert str(list(get_messages(pressed.wsgi_request))[-1]).startswith("Round 0 is open again")
    assert console_of(client, tally).status_code == 200


def test_a_console_button_that_took_effect_says_so_when_what_came_of_it_cannot_be_read(
    tally, hank, monkeypatch
):
    from games.platform.admin import console

    monkeypatch.setattr(console, "_after", failing)
    client = page_client(hank)
    pressed = client.post(f"/admin/platform/game/{tally.id}/host/resolve/", {"confirm": "yes"})
    assert pressed.status_code == 302
    said = str(list(get_messages(pressed.wsgi_request))[-1])
    assert (
        said
        == "Round 0 resolved. What came of it could not be read back just now: reload this page to see it."
    )
    assert tally.rounds.get(number=0).status == Round.Status.RESOLVED


def test_an_action_on_several_games_names_each_ones_outcome_when_one_raises(
    season, hank, alice, bob, monkeypatch
):
    games = []
    for name in ("Good", "Bad"):
        game = game_services.game_create(
            season=season, game_type="tally", name=name, hosts=[hank], actor=hank
        )
        for user in (alice, bob):
            game_services.game_seat(game=game, user=user, actor=hank)
        games.append(game)
    real = Tally.start

    def start(self, game):
        if game.name == "Bad":
            raise RuntimeError("the setup blew up")
        return real(self, game)

    monkeypatch.setattr(Tally, "start", start)
    client = page_client(hank)
    changelist = reverse("admin:platform_game_changelist")
    answer = client.post(changelist, {"action": "start", "_selected_action": [g.id for g in games]})
    assert answer.status_code == 302
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert "Start Good: done." in said
    assert "Start Bad: failed (RuntimeError); nothing of it was kept. The traceback is in the log." in said
    statuses = dict(Game.objects.values_list("name", "status"))
    assert statuses == {"Good": Game.Status.RUNNING, "Bad": Game.Status.DRAFT}


def test_a_console_button_still_says_what_came_of_it_when_all_is_well(tally, hank):
    # The usual answer is unchanged: what came of the press, read back.
    client = page_client(hank)
    with time_machine.travel(tally.rounds.get(number=0).opens_at + dt.timedelta(minutes=1), tick=False):
        pressed = client.post(f"/admin/platform/game/{tally.id}/host/resolve/", {"confirm": "yes"})
    said = str(list(get_messages(pressed.wsgi_request))[-1])
    assert said.startswith("Round 0 resolved. Round 1 is open until")


def test_im_here_with_the_script_reloads_the_page_when_its_live_part_cannot_be_shown(
    season, hank, alice, bob, monkeypatch
):
    from games.platform import views
    from games.platform.models import Seat

    duel = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=duel, user=user, actor=hank)
    game_services.game_start(game=duel, actor=hank)
    monkeypatch.setattr(views, "observe", failing)
    answer = page_client(alice).post(f"/games/{duel.id}/", {"here": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer["HX-Refresh"] == "true"
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [
        "You are here. The clocks start when everyone is."
    ]
    assert Seat.objects.get(game=duel, user=alice).here_at is not None
