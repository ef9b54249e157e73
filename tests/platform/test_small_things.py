"""The small things players saw (issue 29.6), each with its test."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.horse_race.models import TradeOffer
from games.platform.awaiting import OFFER, awaiting
from games.platform.services.rounds import submission_save
from tests.api_support import operate
from tests.horse_race.site_support import make_game

pytestmark = pytest.mark.django_db


# -- a trade offer made to you awaits your answer -------------------------------------------------------


@pytest.fixture
def three(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def offers_to(user):
    return [(a.game_name, a.text, a.url) for a in awaiting(user) if a.need == OFFER]


def test_a_trade_offer_made_to_you_awaits_you_and_counts_in_the_title(client, season, hank, three):
    ann, ben, cat = three
    race = make_game(season, hank, three)
    for user in three:  # everyone has submitted: only the offer is left to await
        submission_save(seat=race.seats.get(user=user), round_number=0, payload={}, final=True)
    assert operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"}).status_code == 200
    page = reverse("game", args=[race.id])
    assert offers_to(ben) == [("Horse Race", "A trade offer awaits your answer", page)]
    assert offers_to(ann) == offers_to(cat) == [], "the offer awaits only the one it is made to"
    client.force_login(ben)
    html = client.get(reverse("home")).content.decode()
    assert "<title>(1) genius</title>" in html and "A trade offer awaits your answer" in html
    assert operate(race, cat, "offer_trade", {"give": "C", "want": "D", "to": "ben"}).status_code == 200
    assert offers_to(ben) == [("Horse Race", "2 trade offers await your answer", page)]
    for offer in TradeOffer.objects.filter(offered_to__user=ben):
        assert operate(race, ben, "decline_trade", {"offer": offer.ref}).status_code == 200
    assert offers_to(ben) == []


def test_offers_are_read_in_one_query_however_many_races(season, hank, three, make_user):
    ann, ben, cat = three

    def queries():
        with CaptureQueriesContext(connection) as ctx:
            awaiting(ben)
        return len(ctx)

    first = make_game(season, hank, three)
    operate(first, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    one = queries()
    for n in range(2):
        race = make_game(season, hank, [ann, ben, make_user(f"dan{n}")])
        operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    assert len([a for a in awaiting(ben) if a.need == OFFER]) == 3
    assert queries() == one


# -- the standings say who is out, even on a phone ------------------------------------------------------


def test_the_standings_put_who_is_out_right_after_the_name_and_let_long_names_wrap(client, tally, alice):
    from games.platform.models import SeasonPlayer

    SeasonPlayer.objects.filter(user=alice).update(eliminated=True)
    page = client.get(reverse("season", args=[tally.season_id])).content.decode()
    table = page.split('<table class="standings roster">', 1)[1].split("</table>", 1)[0]
    headers = table.split("</thead>", 1)[0]
    assert headers.index(">Player<") < headers.index(">Status<") < headers.index(">Garnets<")
    assert '<tr class="out"><td>alice</td><td class="status"><strong>eliminated</strong></td>' in table
    assert '<td>bob</td><td class="status">in</td>' in table
    # The CSS that keeps the status whole at 390 px: it never wraps, the names do, the cells are narrow.
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    assert "table.roster .status { white-space: nowrap; }" in css
    assert "table.roster td:first-child { overflow-wrap: anywhere; }" in css


# -- the horse race's ending says "ann votes", and why a player given a ToL can be the EC ---------------


def test_the_ending_says_who_votes_in_the_right_number_and_why_a_tol_holder_is_the_ec(
    season, hank, make_user
):
    from games.horse_race.rules import ROUNDS
    from tests.api_support import told
    from tests.horse_race.site_support import resolve, submit
    from tests.horse_race.test_horse_race_site_full_game import four_player_game

    # ann alone scores; ben, cat and dan tie on 0: tied for second and for fewest points alike.
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    feed = told(game, kind="announcement")
    assert (
        "ben, cat and dan are tied for fewest points; ann votes on the Elimination Candidate among them. "
        "They are also the players tied for second: whoever is given the other Token of Life stays in this "
        "vote, as a Token of Life does not change who has the fewest points."
    ) in feed
    assert not any(" vote on the Elimination Candidate" in text for text in feed), "ann votes, not vote"
    resolve(game, hank)  # Round 11: ann does not choose, the seed draws who is given the ToL
    game.refresh_from_db()
    drawn = game.state["ending"]["choice"]
    name = ("ann", "ben", "cat", "dan")[drawn]
    assert (
        f"{name} is given a Token of Life (drawn at random: the winner did not choose). {name} is also tied "
        "for fewest points, so may still be named the Elimination Candidate: a Token of Life does not "
        "change who has the fewest points."
    ) in told(game, kind="announcement")
    assert submit(game, ann, ROUNDS + 2, {"vote": drawn}).status_code == 201
    resolve(game, hank)
    assert (
        f"The Elimination Candidate is {name} (most votes). {name} was given a Token of Life for second "
        "place but was also tied for fewest points, and the Elimination Candidate is chosen among those with "
        "the fewest points, Tokens of Life or not."
    ) in told(game, kind="announcement")


# -- a finished game's chat says it is closed instead of offering a form that refuses ------------------


def test_a_finished_games_chat_says_it_is_closed_and_shows_no_form(client, tally, alice, bob):
    from games.platform.models import Game
    from games.platform.services.chat import chat_post
    from tests.conftest import seat_of

    chat_post(game=tally, author_seat=seat_of(tally, bob), other_seat=seat_of(tally, alice), text="gg")
    url = reverse("chat", args=[tally.id, 0, 1])
    client.force_login(alice)
    running = client.get(url).content.decode()
    assert 'name="text"' in running and "its chats are closed" not in running
    Game.objects.filter(pk=tally.pk).update(status=Game.Status.FINISHED)
    finished = client.get(url).content.decode()
    assert 'name="text"' not in finished and ">Send</button>" not in finished
    assert "The game is over; its chats are closed." in finished and "gg" in finished


# -- usernames and game names keep their case in the admin's answers ------------------------------------


def test_the_admin_never_capitalises_a_username_or_a_games_name(client, season, hank, make_user):
    from games.horse_race.models import MovementTable
    from games.platform.models import SeasonPlayer
    from tests.platform.admin_support import game_form

    ann = make_user("ann")

    SeasonPlayer.objects.create(season=season, user=ann, eliminated=True)
    race = make_game(season, hank, [make_user("ben"), make_user("cat")], start=False)
    client.force_login(hank)
    # Seating refused: the console (the game's page) says it as written.
    race.name = "tuesday race"
    race.save(update_fields=["name"])
    answer = client.post(
        f"/admin/platform/game/{race.id}/change/", game_form(client, race, seat_players="ann"), follow=True
    )
    page = answer.content.decode()
    assert "ann was not seated" in page and "Ann was not seated" not in page
    # Any other admin page: a game's name as its hosts spelled it ("tuesday race: generated ...").
    table = MovementTable.objects.get(game=race)
    answer = client.post(
        reverse("admin:horse_race_movementtable_changelist"),
        {"action": "generate_from_seed", "_selected_action": [table.pk]},
        follow=True,
    )
    page = answer.content.decode()
    assert "tuesday race: generated from the seed." in page and "Tuesday race" not in page


# -- admin lists name the zone of their times -----------------------------------------------------------


def test_the_admin_lists_write_their_times_in_the_viewers_zone_named(client, tally, hank, alice, make_user):
    import datetime as dt

    from django.utils import timezone

    from games.platform.models import DeathMatchPick, Game, Invitation, OutboxTask
    from games.platform.services.profiles import profile_save

    boss = make_user("boss", is_staff=True, is_superuser=True)
    profile_save(user=boss, time_zone="Europe/Berlin")
    noon = timezone.make_aware(dt.datetime(2026, 3, 3, 12, 0), dt.UTC)
    Game.objects.filter(pk=tally.pk).update(paused_at=noon)
    submission_save(seat=tally.seats.get(user=alice), round_number=0, payload={"number": 3})
    DeathMatchPick.objects.create(main_match=tally, candidate=alice, deadline=noon)
    Invitation.objects.create(season=tally.season, expires_at=noon, created_by=hank)
    OutboxTask.objects.create(name="send_reminder", due_at=noon)
    berlin = "3 Mar 2026, 13:00 (Europe/Berlin)"
    client.force_login(boss)
    for model in ("game", "submission", "deathmatchpick", "invitation", "outboxtask"):
        page = client.get(reverse(f"admin:platform_{model}_changelist")).content.decode()
        assert "(Europe/Berlin)" in page, model
        assert "p.m." not in page and "a.m." not in page, model
    assert berlin in client.get(reverse("admin:platform_game_changelist")).content.decode()
    assert berlin in client.get(reverse("admin:platform_deathmatchpick_changelist")).content.decode()
    # Still sorted by the time itself.
    ordered = client.get(reverse("admin:platform_game_changelist") + "?o=5")
    assert ordered.status_code == 200 and berlin in ordered.content.decode()
    # The rounds, listed on the game's page.
    page = client.get(reverse("admin:platform_game_change", args=[tally.id])).content.decode()
    opens = tally.rounds.get(number=0).opens_at.astimezone(dt.timezone(dt.timedelta(hours=1)))
    assert f"{opens:%H:%M} (Europe/Berlin)" in page
