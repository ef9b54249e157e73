"""A season's page is its console (issue 29.2): its players with their balances, and every game with its
state and the one next step, a button or a link; a finished game's own console says the same; and none of
it for anybody but the season's hosts."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine as machine
from django.contrib.messages import get_messages
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.platform.models import AuditLog, DeathMatchPick, Event, Game, Season, SeasonPlayer
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_create
from games.platform.services.ledger import ledger_post
from games.platform.services.outcomes import game_finish
from games.platform.services.rounds import submission_save
from games.platform.services.season import pick_submit
from games.platform.setting import AT_START_TIME, CLOCKS_START, START_TIME
from tests.platform.test_season import play_tally_to_the_end
from tests.sitting import all_here

pytestmark = pytest.mark.django_db

NOON = timezone.make_aware(dt.datetime(2025, 3, 3, 12, 0))  # a Monday


def console_of(client, season) -> str:
    page = client.get(f"/admin/platform/season/{season.id}/change/")
    assert page.status_code == 200, page.status_code
    return page.content.decode().split('id="season-console"')[1].split("</section>")[0]


def row_of(page: str, game) -> str:
    return page.split(f'id="game-{game.id}"')[1].split("</tr>")[0]


def press(client, season, action, game, **data) -> str:
    """POST one of the season console's buttons; the words it answered with (the newest message)."""
    answer = client.post(f"/admin/platform/season/{season.id}/console/{action}/", {"game": game.id, **data})
    assert answer.status_code == 302, answer.status_code
    return str(list(get_messages(answer.wsgi_request))[-1])


@pytest.fixture(autouse=True)
def soon(time_machine):
    """Every test looks at the season five minutes after noon (unless it moves the clock itself)."""
    time_machine.move_to(NOON + dt.timedelta(minutes=5), tick=False)


def tally(season, hank, players, name="Tally", **settings):
    game = game_services.game_create(
        season=season, game_type="tally", name=name, hosts=[hank], settings=settings, actor=hank
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    return game


def finished_main_match(season, hank, picks: dict, name="MM") -> Game:
    """A one-round Tally played at noon to its end: the lowest pick is the Elimination Candidate."""
    with machine.travel(NOON, tick=False):
        game = tally(season, hank, list(picks), name=name, rounds=1)
        game_services.game_start(game=game, actor=hank)
        play_tally_to_the_end(game, picks)
    return game


def death_match(season, hank, pick) -> Game:
    season.settings = {**season.settings, "death_match_type": "tally_duel"}
    season.save()
    dm = death_match_create(pick=pick, actor=hank)
    game_services.game_start(game=dm, actor=hank)
    return all_here(dm)


def death_match_lost_by(dm, seat_number: int) -> None:
    """The Death Match ends with `seat_number` its loser, as the rules' end would (the season settles it)."""
    dm.state = {**dm.state, "loser": seat_number}
    dm.save(update_fields=["state"])
    game_finish(game=dm)


def test_the_console_lists_the_players_with_their_balances_and_who_is_out(
    client, season, hank, alice, bob, charlie
):
    tally(season, hank, [alice, bob, charlie])
    ledger_post(season=season, user=alice, what="garnets", delta=7, reason="start")
    ledger_post(season=season, user=alice, what="tokens_of_life", delta=2, reason="won")
    SeasonPlayer.objects.filter(season=season, user=bob).update(eliminated=True)
    client.force_login(hank)
    page = console_of(client, season)
    assert "Season 1 · 3 players · 1 game" in page
    assert "<td>alice</td><td>7</td><td>2</td><td>in</td>" in page
    assert "<td>charlie</td><td>0</td><td>0</td><td>in</td>" in page
    assert '<tr class="status-eliminated"><td>bob</td><td>0</td><td>0</td><td>eliminated</td>' in page


def test_a_draft_that_is_ready_has_a_start_button_that_starts_it(client, season, hank, alice, bob):
    lonely = tally(season, hank, [alice], name="Lonely")
    ready = tally(season, hank, [alice, bob], name="Ready")
    client.force_login(hank)
    page = console_of(client, season)
    assert "Seat players: 1 seated, Tally (test game) needs 2 to 12." in row_of(page, lonely)
    assert f'href="/admin/platform/game/{lonely.id}/change/">Seat them</a>' in row_of(page, lonely)
    assert "Ready: 2 seated." in row_of(page, ready) and ">Start</button>" in row_of(page, ready)
    answer = press(client, season, "start", ready)
    assert answer == (
        f'Started <a href="/admin/platform/game/{ready.id}/change/">Ready</a>. '
        "Round 0 closes in 1 h (2 not submitted)."
    )
    ready.refresh_from_db()
    assert ready.status == Game.Status.RUNNING
    assert press(client, season, "start", ready) == "This game has already started."


def test_a_running_round_says_when_it_closes_and_how_many_have_not_submitted(
    client, season, hank, alice, bob, charlie, make_user
):
    with machine.travel(NOON, tick=False):
        game = tally(season, hank, [alice, bob, charlie], window_minutes=300)
        game_services.game_start(game=game, actor=hank)
    submission_save(seat=game.seats.get(user=alice), round_number=0, payload={"number": 3})
    client.force_login(hank)
    row = row_of(console_of(client, season), game)
    assert "<td>Running</td>" in row
    assert "Round 0 closes in 4 h (2 not submitted)." in row
    assert f'href="/admin/platform/game/{game.id}/change/">Its console</a>' in row
    # A host of the season who does not host the game is told when its round closes, not who has saved.
    olga = make_user("olga", is_staff=True)
    season.hosts.add(olga)
    client.force_login(olga)
    row = row_of(console_of(client, season), game)
    assert "Round 0 closes in 4 h." in row and "submitted" not in row


def test_a_pick_waiting_says_by_when_and_remind_tells_the_candidate_through_the_outbox(
    client, season, hank, alice, bob, django_capture_on_commit_callbacks
):
    mm = finished_main_match(season, hank, {alice: 1, bob: 5})
    client.force_login(hank)
    row = row_of(console_of(client, season), mm)
    assert "Finished: no Token of Life won; alice is the EC" in row
    assert "alice picks a Death Match opponent by Tue 12:00 UTC." in row and ">Remind</button>" in row
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = press(client, season, "remind_pick", mm)
    assert answer == (
        "Reminded alice to pick a Death Match opponent by Tue 12:00 UTC: a line in their inbox and a "
        f'message. <a href="/games/{mm.id}/pick/">See the pick</a>'
    )
    (email,) = mail.outbox
    assert email.to == [alice.email] and email.subject == "MM: pick your Death Match opponent"
    assert "by 4 Mar 2025, 12:00 (UTC)" in email.body and f"/games/{mm.id}/pick/" in email.body
    inbox = Event.objects.filter(game=mm, seat__user=alice, kind=Event.Kind.REVEAL).last()
    assert inbox.text.startswith("The hosts remind you: pick your Death Match opponent by")
    assert AuditLog.objects.filter(game=mm, action="pick_remind", actor=hank).exists()
    pick_submit(pick=DeathMatchPick.objects.get(main_match=mm), user=alice, opponent=bob)
    again = press(client, season, "remind_pick", mm)
    assert again == "The opponent is already picked: nobody needs a reminder."


def test_a_pick_past_its_deadline_links_to_where_the_hosts_set_the_opponent(client, season, hank, alice, bob):
    mm = finished_main_match(season, hank, {alice: 1, bob: 5})
    pick = DeathMatchPick.objects.get(main_match=mm)
    client.force_login(hank)
    with machine.travel(pick.deadline + dt.timedelta(minutes=1), tick=False):
        row = row_of(console_of(client, season), mm)
        late = press(client, season, "remind_pick", mm)
    assert "alice did not pick by Tue 12:00 UTC: set the opponent." in row
    assert f'href="/admin/platform/deathmatchpick/{pick.pk}/change/">Set the opponent</a>' in row
    assert late == "The pick closed at 4 Mar 2025, 12:00 (UTC): set the opponent yourself."


def test_a_made_pick_is_one_button_that_creates_seats_times_and_opens_the_death_match(
    client, season, hank, alice, bob, charlie
):
    season.settings = {"death_match_type": "tally_duel"}
    season.save()
    mm = finished_main_match(season, hank, {alice: 1, bob: 5, charlie: 3})
    pick = DeathMatchPick.objects.get(main_match=mm)
    pick_submit(pick=pick, user=alice, opponent=charlie)
    client.force_login(hank)
    row = row_of(console_of(client, season), mm)
    assert "Create the Death Match alice vs charlie." in row
    # The start time proposed: the next full hour, a day on; the host may pick another.
    field = f'type="datetime-local" id="start-at-{mm.id}" name="start_at" value="2025-03-04T13:00"'
    assert field in row
    assert ">Create and open it</button>" in row and "Start time (UTC)</label>" in row

    # It asks first, naming what it does (issue 29.4), and makes nothing until the host says yes.
    asked = client.post(
        f"/admin/platform/season/{season.id}/console/create_death_match/",
        {"game": mm.id, "start_at": "2025-03-04T18:30"},
        follow=True,
    ).content.decode()
    question = "Create the Death Match alice vs charlie, its clocks starting Tue 18:30 UTC? Both are seated"
    assert question in asked and 'name="confirm" value="yes"' in asked
    assert not Game.objects.filter(decides_pick__main_match=mm).exists()
    answer = press(client, season, "create_death_match", mm, start_at="2025-03-04T18:30", confirm="yes")
    dm = Game.objects.get(decides_pick__main_match=mm)
    assert answer == (
        f'Created <a href="/admin/platform/game/{dm.id}/change/">Death Match after MM</a>: alice vs charlie, '
        "seated and open for them to sit down; its clocks start Tue 18:30 UTC."
    )
    assert dm.status == Game.Status.RUNNING and dm.sitting_down
    assert sorted(dm.seats.values_list("user__username", flat=True)) == ["alice", "charlie"]
    assert dm.settings[CLOCKS_START] == AT_START_TIME
    assert dm.clocks_start_at == timezone.make_aware(dt.datetime(2025, 3, 4, 18, 30))
    assert dm.settings[START_TIME].startswith("2025-03-04T18:30")
    page = console_of(client, season)
    assert "The Death Match alice vs charlie is made." in row_of(page, mm)
    assert "The match starts at 4 Mar 2025, 18:30 (UTC) (0 of 2 here so far)." in row_of(page, dm)
    assert press(client, season, "create_death_match", mm, start_at="2025-03-04T18:30") == (
        "The Death Match already exists."
    )


def test_a_start_time_that_cannot_be_is_refused_beside_its_field_as_typed_and_nothing_is_made(
    client, season, hank, alice, bob
):
    mm = finished_main_match(season, hank, {alice: 1, bob: 5})
    pick_submit(pick=DeathMatchPick.objects.get(main_match=mm), user=alice, opponent=bob)
    client.force_login(hank)
    for typed, said in [
        ("2025-03-02T09:00", "The start time Sun 09:00 UTC has passed: pick one in the future."),
        ("next friday", "Write the start time as a date and a time, like 2026-11-28 20:00."),
    ]:
        answer = client.post(
            f"/admin/platform/season/{season.id}/console/create_death_match/",
            {"game": mm.id, "start_at": typed},
            follow=True,
        )
        assert str(list(answer.context["messages"])[-1]) == said
        row = row_of(answer.content.decode().split('id="season-console"')[1], mm)
        assert f'value="{typed}"' in row and 'aria-invalid="true"' in row and said in row
    assert not Game.objects.filter(game_type="tally_duel").exists()
    assert DeathMatchPick.objects.get(main_match=mm).status == DeathMatchPick.Status.PICKED


def test_a_finished_main_match_says_who_won_tokens_of_life_and_who_is_the_ec_on_both_consoles(
    client, season, hank, alice, bob, charlie
):
    mm = finished_main_match(season, hank, {alice: 1, bob: 5, charlie: 3})
    for user, count in ((bob, 1), (charlie, 1), (bob, 1)):
        ledger_post(season=season, user=user, what="tokens_of_life", delta=count, reason="Won", game=mm)
    client.force_login(hank)
    said = "Finished: bob won 2 ToLs, charlie 1; alice is the EC"
    assert said in row_of(console_of(client, season), mm)
    game_console = client.get(f"/admin/platform/game/{mm.id}/change/").content.decode()
    assert f"{said}." in game_console
    assert "alice picks a Death Match opponent by Tue 12:00 UTC." in game_console
    assert f'action="/admin/platform/season/{season.id}/console/remind_pick/"' in game_console


def test_a_finished_death_match_says_who_is_eliminated_or_spent_a_token_of_life(
    client, season, hank, alice, bob, charlie
):
    season.settings = {"tol_holders_immune": False}
    season.save()
    first = finished_main_match(season, hank, {alice: 1, bob: 5}, name="MM1")
    pick_submit(pick=DeathMatchPick.objects.get(main_match=first), user=alice, opponent=bob)
    out = death_match(season, hank, DeathMatchPick.objects.get(main_match=first))
    death_match_lost_by(out, 0)  # alice
    ledger_post(season=season, user=charlie, what="tokens_of_life", delta=1, reason="won earlier")
    second = finished_main_match(season, hank, {bob: 5, charlie: 2}, name="MM2")
    pick_submit(pick=DeathMatchPick.objects.get(main_match=second), user=charlie, opponent=bob)
    saved = death_match(season, hank, DeathMatchPick.objects.get(main_match=second))
    death_match_lost_by(saved, 0)  # charlie, who holds a Token of Life
    client.force_login(hank)
    page = console_of(client, season)
    assert "Finished: alice eliminated" in row_of(page, out)
    assert "The Death Match alice vs bob is over." in row_of(page, first)
    assert "Finished: charlie lost and spent a Token of Life to stay" in row_of(page, saved)
    assert '<tr class="status-eliminated"><td>alice</td>' in page
    game_console = client.get(f"/admin/platform/game/{out.id}/change/").content.decode()
    assert "Finished: alice eliminated." in game_console


def test_only_the_seasons_hosts_see_the_console_or_press_its_buttons(
    client, season, hank, alice, bob, make_user
):
    ready = tally(season, hank, [alice, bob], name="Ready")
    mm = finished_main_match(season, hank, {alice: 1, bob: 5})
    olga = make_user("olga", is_staff=True)
    other = Season.objects.create(name="Season 2")
    other.hosts.add(olga)
    theirs = tally(other, olga, [alice, bob], name="Theirs")
    for who in (olga, alice, None):
        client.logout()
        if who is not None:
            client.force_login(who)
        page = client.get(f"/admin/platform/season/{season.id}/change/")
        assert page.status_code == 302 and "season-console" not in page.content.decode()
        for action, game in (("start", ready), ("remind_pick", mm), ("create_death_match", mm)):
            pressed = client.post(f"/admin/platform/season/{season.id}/console/{action}/", {"game": game.id})
            # Another season's host: no such season; a player or a visitor: the admin's login.
            assert pressed.status_code == (404 if who is olga else 302), (who, action)
            assert pressed.status_code == 404 or "/admin/login/" in pressed["Location"]
    ready.refresh_from_db()
    assert ready.status == Game.Status.DRAFT and not AuditLog.objects.filter(action="pick_remind").exists()
    # A host of this season cannot reach another season's game through it.
    client.force_login(hank)
    assert press(client, season, "start", theirs) == "That game is not in this season."
    assert client.get(f"/admin/platform/season/{season.id}/console/start/").status_code == 405
    theirs.refresh_from_db()
    assert theirs.status == Game.Status.DRAFT


def test_the_death_match_picks_admin_action_still_creates_the_death_match(client, season, hank, alice, bob):
    season.settings = {"death_match_type": "tally_duel"}
    season.save()
    mm = finished_main_match(season, hank, {alice: 1, bob: 5})
    pick = DeathMatchPick.objects.get(main_match=mm)
    pick_submit(pick=pick, user=alice, opponent=bob)
    client.force_login(hank)
    client.post(
        "/admin/platform/deathmatchpick/",
        {"action": "create_death_match", "_selected_action": [pick.pk]},
    )
    assert DeathMatchPick.objects.get(pk=pick.pk).status == DeathMatchPick.Status.CREATED


def test_the_console_reads_the_same_number_of_queries_for_one_set_of_games_or_three(
    client, season, hank, make_user, django_assert_max_num_queries
):
    season.settings = {"death_match_type": "tally_duel"}
    season.save()
    counts = []
    for size in (1, 3):
        for n in range(len(counts), size):  # 1 set of games, then 2 more
            players = [make_user(f"p{size}_{n}_{i}") for i in range(3)]
            tally(season, hank, players, name=f"Draft {size} {n}")
            with machine.travel(NOON, tick=False):
                running = tally(season, hank, players, name=f"Running {size} {n}")
                game_services.game_start(game=running, actor=hank)
            picks = dict(zip(players, (1, 4, 6), strict=True))
            mm = finished_main_match(season, hank, picks, f"MM {size} {n}")
            ledger_post(season=season, user=players[1], what="tokens_of_life", delta=1, reason="Won", game=mm)
            pick = DeathMatchPick.objects.get(main_match=mm)
            pick_submit(pick=pick, user=players[0], opponent=players[2])
            death_match_lost_by(death_match(season, hank, pick), 0)
        client.force_login(hank)
        client.get(f"/admin/platform/season/{season.id}/change/")  # the first look fills the caches
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/admin/platform/season/{season.id}/change/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(counts[1]):
        console_of(client, season)
