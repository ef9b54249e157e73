"""Console answers in view (issue 29.4): a button's answer stands first in the console, where the page comes
back (#console), with the buttons just under it; an early or destructive action (Resolve now, Pause) asks
first, naming its consequence, as a step of the page that works without a script and that no hand-made POST
skips."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine as machine
from django.utils import timezone

from games.platform.admin import confirm
from games.platform.models import Event, Game, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from tests.sitting import all_here

pytestmark = pytest.mark.django_db

NOON = timezone.make_aware(dt.datetime(2025, 3, 3, 12, 0))


@pytest.fixture(autouse=True)
def soon(time_machine):
    time_machine.move_to(NOON + dt.timedelta(minutes=5), tick=False)


@pytest.fixture
def running(season, hank, alice, bob):
    """A Tally started at noon: Round 0 open for an hour, alice and bob seated."""
    with machine.travel(NOON, tick=False):
        game = game_services.game_create(
            season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank
        )
        for user in (alice, bob):
            game_services.game_seat(game=game, user=user, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)
    game.refresh_from_db()
    return game


def url(game, action) -> str:
    return f"/admin/platform/game/{game.id}/host/{action}/"


def the_console(page) -> str:
    return page.content.decode().split('id="console"', 1)[1].split("</section>", 1)[0]


def test_the_answer_stands_first_in_the_console_with_the_buttons_under_it(client, running, hank):
    client.force_login(hank)
    answer = client.post(url(running, "extend_hour"), follow=True)
    assert answer.redirect_chain[-1][0].endswith(f"/admin/platform/game/{running.id}/change/#console")
    html = answer.content.decode()
    console = the_console(answer)
    # The answer is the console's first thing, before its title, and nowhere above it (the admin's own list).
    said = console.index("Round 0 extended by 1 hour: it now closes Mon 14:00 UTC.")
    assert said < console.index("<h2>") < console.index('value="extend_day"')
    assert '<div role="status"><ul class="messagelist console-answer">' in console
    assert html.count('class="messagelist') == 1
    above = html.split('id="console"')[0]
    assert 'value="pause"' not in above, "the buttons are in the console, not above it"


def test_resolve_now_asks_first_naming_how_early_and_who_has_not_submitted(client, running, hank, alice):
    submission_save(seat=running.seats.get(user=alice), round_number=0, payload={"number": 3}, final=True)
    client.force_login(hank)
    first = client.post(url(running, "resolve"))
    assert first.status_code == 302
    assert first["Location"] == f"/admin/platform/game/{running.id}/change/?confirm=resolve#console"
    assert Round.objects.get(game=running, number=0).status == Round.Status.OPEN, "nothing happened yet"
    console = the_console(client.get(first["Location"]))
    asked = "Close Round 0 now, 55 min early? bob has not submitted."
    assert f'<p id="console-question" role="alert">{asked}</p>' in console
    assert 'name="confirm" value="yes" class="console-danger">Yes, resolve now</button>' in console
    assert f'href="/admin/platform/game/{running.id}/change/#console">No, leave it</a>' in console
    # The question comes before the game's title: where the page opens.
    assert console.index("console-question") < console.index("<h2>")
    done = client.post(url(running, "resolve"), {"confirm": "yes"}, follow=True)
    assert "Round 0 resolved. Round 1 is open until" in the_console(done)
    assert Round.objects.get(game=running, number=0).status == Round.Status.RESOLVED


def test_the_question_counts_the_players_missing(client, running, hank):
    client.force_login(hank)
    Round.objects.filter(game=running, number=0).update(closes_at=NOON + dt.timedelta(hours=41, minutes=20))
    page = client.get(f"/admin/platform/game/{running.id}/change/?confirm=resolve")
    assert "Close Round 0 now, 41 h early? 2 players have not submitted." in the_console(page)


def test_resolve_now_looks_like_a_danger_and_extend_does_not(client, running, hank):
    client.force_login(hank)
    console = the_console(client.get(f"/admin/platform/game/{running.id}/change/"))
    assert 'value="resolve" class="console-danger">Resolve now</button>' in console
    assert 'value="pause" class="console-danger">Pause</button>' in console
    assert 'value="extend_day">Extend 24 h</button>' in console


def test_pause_asks_first_and_acts_on_yes(client, running, hank):
    client.force_login(hank)
    first = client.post(url(running, "pause"), follow=True)
    running.refresh_from_db()
    assert running.paused_at is None
    assert (
        "Pause Tally? Every clock stops until you press Resume (Round 0 keeps its 55 min left)."
        in the_console(first)
    )
    done = client.post(url(running, "pause"), {"confirm": "yes"}, follow=True)
    assert "Paused: every clock is stopped; Round 0 keeps 55 min." in the_console(done)
    running.refresh_from_db()
    assert running.paused_at is not None
    # Resume undoes nothing: it acts at once.
    assert "Resumed: Round 0 closes" in the_console(client.post(url(running, "resume"), follow=True))


def test_a_round_whose_time_is_up_resolves_without_a_question(client, running, hank):
    client.force_login(hank)
    with machine.travel(NOON + dt.timedelta(hours=1, minutes=1), tick=False):
        done = client.post(url(running, "resolve"))
        assert done["Location"].endswith("/change/#console")
    assert Round.objects.get(game=running, number=0).status == Round.Status.RESOLVED


def test_a_stale_question_is_not_shown_once_its_action_no_longer_asks(client, running, hank):
    client.force_login(hank)
    client.post(url(running, "resolve"), {"confirm": "yes"})
    Game.objects.filter(pk=running.pk).update(status=Game.Status.FINISHED)
    page = client.get(f"/admin/platform/game/{running.id}/change/?confirm=resolve")
    assert "console-question" not in the_console(page)


def test_an_action_that_asks_first_carries_its_fields_to_the_yes(client, running, hank, monkeypatch):
    """The way other actions (replace a player, create a Death Match) ask: a question from their fields."""
    monkeypatch.setitem(confirm.ASKS_FIRST, "announce", lambda game, fields: f"Post “{fields['text']}”?")
    client.force_login(hank)
    first = client.post(url(running, "announce"), {"text": "Round 2 & more", "category": "erratum"})
    assert not Event.objects.filter(game=running, text="Round 2 & more").exists()
    console = the_console(client.get(first["Location"]))
    assert "Post “Round 2 &amp; more”?" in console
    assert '<input type="hidden" name="text" value="Round 2 &amp; more">' in console
    assert '<input type="hidden" name="category" value="erratum">' in console
    client.post(url(running, "announce"), {"text": "Round 2 & more", "category": "erratum", "confirm": "yes"})
    assert Event.objects.filter(game=running, category="erratum", text="Round 2 & more").exists()


@pytest.mark.parametrize("who", ["olga", "alice", "anonymous"])
def test_nobody_but_the_hosts_sees_a_question_or_gets_past_it(client, running, alice, make_user, who):
    olga = make_user("olga", is_staff=True)
    game_services.game_create(
        season=running.season, game_type="tally", name="Olga's", hosts=[olga], actor=olga
    )
    if who != "anonymous":
        client.force_login(olga if who == "olga" else alice)
    page = client.get(f"/admin/platform/game/{running.id}/change/?confirm=resolve")
    assert page.status_code in (302, 404) and b"Close Round" not in page.content
    answer = client.post(url(running, "resolve"), {"confirm": "yes"})
    assert answer.status_code in (302, 404)
    if answer.status_code == 302:
        assert "/login/" in answer["Location"]
    assert Round.objects.get(game=running, number=0).status == Round.Status.OPEN
