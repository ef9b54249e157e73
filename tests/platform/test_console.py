"""The host's console on the game's admin page (issue 21.1): seats with their status, this round in the game's
words, a button per host action answering with what actually happened, reminders, announcements; and none of
it for anybody but the game's hosts."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine as machine
from django.contrib.messages import get_messages
from django.core import mail
from django.utils import timezone

from games.platform import registry
from games.platform.models import AuditLog, Event, Game, NotificationPreference, OutboxTask, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import submission_save
from tests.sitting import all_here

pytestmark = pytest.mark.django_db

NOON = timezone.make_aware(dt.datetime(2025, 3, 3, 12, 0))


def console_of(client, game) -> str:
    return client.get(f"/admin/platform/game/{game.id}/change/").content.decode()


def press(client, game, action, **data) -> str:
    """POST one console button; the words it answered with (the admin's newest message)."""
    # confirm=yes: the press as confirmed (Resolve now and Pause ask first: test_console_answers.py)
    answer = client.post(f"/admin/platform/game/{game.id}/host/{action}/", {"confirm": "yes", **data})
    assert answer.status_code == 302, answer.status_code
    return str(list(get_messages(answer.wsgi_request))[-1])


@pytest.fixture(autouse=True)
def soon(time_machine):
    """Every test looks at the game five minutes after noon (unless it moves the clock itself)."""
    time_machine.move_to(NOON + dt.timedelta(minutes=5), tick=False)


@pytest.fixture
def running(season, hank, alice, bob):
    """A Tally started at noon, Round 0 open for an hour."""
    with machine.travel(NOON, tick=False):
        game = game_services.game_create(
            season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank
        )
        for user in (alice, bob):
            game_services.game_seat(game=game, user=user, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def test_the_console_lists_the_seats_who_submitted_and_each_submission_in_the_games_words(
    client, running, hank, alice
):
    submission_save(seat=running.seats.get(user=alice), round_number=0, payload={"number": 7}, final=True)
    client.force_login(hank)
    page = console_of(client, running)
    assert "Round 0: 1 final, 0 saved, 1 not submitted" in page
    assert "<td>alice</td><td>final" in page and "picks 7" in page
    assert "<td>bob</td><td>not submitted</td>" in page
    assert "Not submitted: bob." in page and "Remind those missing" in page
    assert '"number"' not in page.split('id="console"')[1].split("</section>")[0], "no JSON in the console"


def test_each_button_answers_with_what_actually_happened(client, running, hank):
    client.force_login(hank)
    with machine.travel(NOON + dt.timedelta(minutes=10), tick=False):
        assert press(client, running, "pause") == "Paused: every clock is stopped; Round 0 keeps 50 min."
        assert press(client, running, "resolve") == "Nothing to resolve: the game is paused. Resume it first."
        assert (
            press(client, running, "extend_hour")
            == "Round 0 extended by 1 hour: 1 h 50 min left when resumed."
        )
        assert press(client, running, "resume") == "Resumed: Round 0 closes Mon 14:00 UTC."
        assert (
            press(client, running, "extend_day")
            == "Round 0 extended by 24 hours: it now closes Tue 14:00 UTC."
        )
        assert press(client, running, "retry") == "No round of this game has failed."
        assert press(client, running, "resolve") == "Round 0 resolved. Round 1 is open until Mon 13:10 UTC."
        assert press(client, running, "start") == "This game has already started."
    assert Round.objects.get(game=running, number=0).status == Round.Status.RESOLVED
    done = set(AuditLog.objects.filter(game=running).values_list("action", flat=True))
    assert {"game_pause", "game_resume", "round_extend", "round_resolve_now"} <= done


def test_start_answers_which_round_opened_or_what_blocks_it(client, season, hank, alice, bob):
    game = game_services.game_create(season=season, game_type="tally", name="New", hosts=[hank], actor=hank)
    client.force_login(hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    assert press(client, game, "start") == "Tally (test game) needs 2-12 players; 1 are seated."
    game_services.game_seat(game=game, user=bob, actor=hank)
    with machine.travel(NOON, tick=False):
        assert press(client, game, "start") == "Started: Round 0 is open until Mon 13:00 UTC."


def test_remind_those_missing_sends_the_reminder_email_at_once(
    client, running, hank, alice, bob, make_user, django_capture_on_commit_callbacks
):
    carol = make_user("carol")
    Game.objects.filter(pk=running.pk).update(status=Game.Status.DRAFT)
    game_services.game_seat(game=running, user=carol, actor=hank)
    Game.objects.filter(pk=running.pk).update(status=Game.Status.RUNNING)
    NotificationPreference.objects.create(user=carol, reminder=False)
    submission_save(seat=running.seats.get(user=alice), round_number=0, payload={"number": 1})
    client.force_login(hank)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert press(client, running, "remind") == "bob: email sent; carol: turned reminders off."
    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert not OutboxTask.objects.exists()  # sent by the press itself: its safety net is gone
    assert "You have not submitted for Round 0" in mail.outbox[0].body


def test_an_announcement_is_posted_from_the_console(client, running, hank):
    client.force_login(hank)
    assert press(client, running, "announce", text="Round 2 lasts 48 hours.", category="erratum") == (
        "Announcement posted (erratum)."
    )
    assert Event.objects.filter(game=running, category="erratum", text="Round 2 lasts 48 hours.").exists()
    assert (
        press(client, running, "announce", text="  ", category="general") == "Write the announcement first."
    )


@pytest.fixture
def strangers(season, hank, make_user):
    """A staff user hosting another game, a season host who does not host this game, and a player."""
    olga = make_user("olga", is_staff=True)
    game_services.game_create(season=season, game_type="tally", name="Olga's", hosts=[olga], actor=olga)
    sam = make_user("sam", is_staff=True)
    season.hosts.add(sam)
    return {"olga": olga, "sam": sam}


@pytest.mark.parametrize("who", ["olga", "sam", "alice", "anonymous"])
def test_nobody_but_the_games_hosts_reaches_the_console_or_its_buttons(
    client, running, alice, strangers, who
):
    submission_save(
        seat=running.seats.get(user=alice), round_number=0, payload={"number": 7, "secret_note": "CANARY"}
    )
    if who != "anonymous":
        client.force_login(alice if who == "alice" else strangers[who])
    page = client.get(f"/admin/platform/game/{running.id}/change/")
    assert page.status_code in (302, 404) and b"CANARY" not in page.content and b"picks 7" not in page.content
    mail.outbox.clear()
    before = (Event.objects.filter(game=running).count(), AuditLog.objects.filter(game=running).count())
    for action in (
        "start",
        "pause",
        "resume",
        "extend_hour",
        "extend_day",
        "resolve",
        "retry",
        "remind",
        "verdict",
    ):
        answer = client.post(f"/admin/platform/game/{running.id}/host/{action}/")
        assert answer.status_code in (302, 404), action
        if answer.status_code == 302:
            assert "/login/" in answer["Location"], action  # the admin's login page, not the console
    answer = client.post(
        f"/admin/platform/game/{running.id}/host/announce/", {"text": "hi", "category": "general"}
    )
    assert answer.status_code in (302, 404)
    running.refresh_from_db()
    assert running.paused_at is None and mail.outbox == []
    assert (
        Event.objects.filter(game=running).count(),
        AuditLog.objects.filter(game=running).count(),
    ) == before
    assert Round.objects.get(game=running, number=0).status == Round.Status.OPEN


def test_a_get_of_a_button_changes_nothing(client, running, hank):
    client.force_login(hank)
    assert client.get(f"/admin/platform/game/{running.id}/host/pause/").status_code == 405
    running.refresh_from_db()
    assert running.paused_at is None


def test_each_press_of_remind_sends_its_own_email(
    client, running, hank, bob, alice, django_capture_on_commit_callbacks
):
    submission_save(seat=running.seats.get(user=alice), round_number=0, payload={"number": 1})
    client.force_login(hank)
    mail.outbox.clear()
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert press(client, running, "remind") == "bob: email sent."
    assert [m.to for m in mail.outbox] == [[bob.email], [bob.email]]


def test_an_unstarted_games_console_says_what_blocks_the_start_and_links_its_hidden_data(
    client, season, hank
):
    game = game_services.game_create(
        season=season, game_type="horse_race", name="Race", hosts=[hank], actor=hank
    )
    client.force_login(hank)
    page = console_of(client, game)
    assert "Before the start: the movement table is missing" in page
    assert f'href="/admin/horse_race/movementtable/add/?game={game.id}"' in page
    assert "Nobody is seated yet" in page and ">Start</button>" in page


def test_the_console_reads_the_same_number_of_queries_for_two_players_or_nine(
    client, season, hank, make_user
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (2, 9):
        with machine.travel(NOON, tick=False):
            game = game_services.game_create(season=season, game_type="tally", name=f"T{size}", hosts=[hank])
            players = [make_user(f"p{size}_{n}") for n in range(size)]
            for user in players:
                game_services.game_seat(game=game, user=user, actor=hank)
            game_services.game_start(game=game, actor=hank)
            all_here(game)  # the players sit down: the clocks run
        for seat in game.seats.all():
            submission_save(seat=seat, round_number=0, payload={"number": 1}, final=seat.number % 2 == 0)
        client.force_login(hank)
        client.get(f"/admin/platform/game/{game.id}/change/")  # the first look fills the process's caches
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/admin/platform/game/{game.id}/change/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_live_matchs_console_says_whose_move_it_is_and_until_when(client, season, hank, alice, bob):
    with machine.travel(NOON, tick=False):
        duel = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
        for user in (alice, bob):
            game_services.game_seat(game=duel, user=user, actor=hank)
        game_services.game_start(game=duel, actor=hank)
        all_here(duel)  # the players sit down: the clocks run
    client.force_login(hank)
    page = console_of(client, duel)
    assert "alice is to move (turn) until Mon 12:01 UTC" in page
    assert "<td>alice</td><td>to move (turn)</td>" in page and "<td>bob</td><td>waiting</td>" in page
    assert ">Pause</button>" in page and ">Resolve now</button>" not in page


def test_after_a_retry_the_console_no_longer_shows_the_old_traceback(
    client, season, hank, alice, bob, settings
):
    settings.GENIUS_RESOLVE_MAX_ATTEMPTS = 1
    with machine.travel(NOON, tick=False):
        game = game_services.game_create(
            season=season,
            game_type="tally",
            name="Tally",
            hosts=[hank],
            settings={"rounds": 3, "window_minutes": 60, "explode_on_round": 0},
            actor=hank,
        )
        for user in (alice, bob):
            game_services.game_seat(game=game, user=user, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    client.force_login(hank)
    press(client, game, "resolve")
    page = console_of(client, game)
    assert "Round 0 failed after 1 attempts" in page and "Its traceback is below." in page
    assert "the rules blew up half-way" in page
    assert press(client, game, "retry").startswith("Round 0")
    page = console_of(client, game)
    assert "Its traceback is below." not in page and "blew up" not in page
    assert "Waiting:" not in page and "The last failure" not in page
    assert "Round 0 is open until" in page
    # The traceback is not lost: the retry's line in the audit log keeps it.
    assert "blew up" in AuditLog.objects.get(game=game, action="round_retry").detail["error"]


def test_a_round_that_failed_once_and_now_waits_shows_what_it_waits_for(client, running, hank, monkeypatch):
    from games.platform.errors import NotReady
    from games.platform.services.rounds import round_resolve
    from tests.toy_game import Tally

    answers = iter([RuntimeError("the rules blew up half-way"), NotReady("the hosts' verdict on seat 1")])

    def resolve(self, game, round, submissions):
        raise next(answers)

    monkeypatch.setattr(Tally, "resolve_round", resolve)
    rnd = running.rounds.get(number=0)
    with machine.travel(rnd.closes_at + dt.timedelta(seconds=1), tick=False):
        assert round_resolve(round_id=rnd.pk) == "failed"
        client.force_login(hank)
        assert "The last failure of Round 0" in console_of(client, running)
        assert round_resolve(round_id=rnd.pk) == "waiting"
        page = console_of(client, running)
        game_page = client.get(f"/games/{running.id}/").content.decode()
    assert "Waiting: the hosts&#x27; verdict on seat 1" in page and "blew up" not in page
    assert "The round is waiting: the hosts&#x27; verdict on seat 1" in game_page


def test_the_console_links_to_the_pages_the_game_type_names(client, running, hank, monkeypatch):
    """GameType.console_links: a game's own host pages (a host-run game's resolve page) beside the round."""
    kind = registry.get("tally")
    monkeypatch.setattr(
        type(kind), "console_links", lambda self, game: [("Write the results of Round 0", "/somewhere/")]
    )
    client.force_login(hank)
    page = console_of(client, running)
    assert '<li><a href="/somewhere/">Write the results of Round 0</a></li>' in page
