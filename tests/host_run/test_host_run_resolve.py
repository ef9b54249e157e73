"""The hosts' resolve page of a host-run game (issue 31.3-4): the round's submissions by question, a draft
kept unsent, Resolve announcing the public results, each private result in one inbox only, the points, the
private values and the next round; asking first before the deadline; the end with its candidate, its tie
note, the season's garnets and Tokens of Life, and the season's pick or elimination after it."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine as machine
from django.contrib.messages import get_messages
from django.utils import timezone

from games.host_run.models import Design, Field, PrivateColumn, PrivateValue, Resolution
from games.platform.models import AuditLog, DeathMatchPick, Event, Game, LedgerAccount, Round, SeasonPlayer
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_create
from games.platform.services.rounds import submission_save
from games.platform.services.season import pick_submit

pytestmark = pytest.mark.django_db

NOON = timezone.make_aware(dt.datetime(2025, 3, 3, 12, 0))
AFTER = NOON + dt.timedelta(hours=1, minutes=5)  # Round 1 (an hour) is closed


@pytest.fixture(autouse=True)
def soon(time_machine):
    time_machine.move_to(NOON + dt.timedelta(minutes=5), tick=False)


def make_game(season, hank, players, *, game_type="host_run", rounds=2, name="The Vault") -> Game:
    """A host-run game set up through the models and started at noon: hour-long rounds, three questions,
    a private "Role" per seat."""
    with machine.travel(NOON, tick=False):
        game = game_services.game_create(
            season=season, game_type=game_type, name=name, hosts=[hank], actor=hank
        )
        for user in players:
            game_services.game_seat(game=game, user=user, actor=hank)
        design = Design.objects.create(
            game=game, rules="Bid for the key.", rounds=rounds, window=1, board="The vault is closed."
        )
        Field.objects.create(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=10)
        Field.objects.create(design=design, order=2, kind="long_text", label="Plan", required=False)
        Field.objects.create(design=design, order=3, kind="player", label="Suspect", required=False)
        column = PrivateColumn.objects.create(design=design, order=1, name="Role")
        roles = ["Spy", "Guard", "Thief", "Clerk"]
        for seat in game.seats.all():
            PrivateValue.objects.create(column=column, seat=seat, value=roles[seat.number])
        game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture
def game(season, hank, alice, bob, charlie):
    return make_game(season, hank, [alice, bob, charlie])


def url(game) -> str:
    return f"/admin/host_run/resolution/resolve/{game.pk}/"


def form_data(game, **extra) -> dict:
    """The form as the page fills it (nothing typed), with `extra` on top."""
    data = {"public_text": "", "board": game.state["board"], "tie_note": "", "candidate": ""}
    for seat in game.seats.all():
        s = f"s{seat.number}"
        data.update(
            {
                f"{s}_points": "0",
                f"{s}_private_text": "",
                f"{s}_rank": "",
                f"{s}_tokens_of_life": "0",
                f"{s}_garnets": "0",
            }
        )
        for i, column in enumerate(game.state["columns"]):
            data[f"{s}_col{i}"] = game.state["private"][str(seat.number)].get(column, "")
    data.update({k: str(v) for k, v in extra.items()})
    return data


def seat_of(game, user):
    return game.seats.get(user=user)


def told(answer) -> str:
    return str(list(get_messages(answer.wsgi_request))[-1])


def page_of(client, user, game) -> str:
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def test_the_console_links_to_the_resolve_page_and_the_page_lists_each_submission_by_question(
    client, game, hank, alice, bob, charlie
):
    submission_save(
        seat=seat_of(game, alice),
        round_number=1,
        payload={"bid": 7, "plan": "Go left at the\nsecond door", "suspect": 1},
        final=True,
    )
    submission_save(seat=seat_of(game, bob), round_number=1, payload={"bid": 2})
    client.force_login(hank)
    console = client.get(f"/admin/platform/game/{game.pk}/change/").content.decode()
    assert f'href="{url(game)}"' in console
    assert "Prepare the results of Round 1" in console
    with machine.travel(AFTER, tick=False):
        console = client.get(f"/admin/platform/game/{game.pk}/change/").content.decode()
        assert "Write the results of Round 1" in console
        page = client.get(url(game)).content.decode()
    assert '<th scope="col">Bid</th><th scope="col">Plan</th><th scope="col">Suspect</th>' in page

    def row(user):
        return page.split(f"<td>{seat_of(game, user).number + 1}</td><td>{user.username}</td>")[1].split(
            "</tr>"
        )[0]

    alices = row(alice)
    assert "final" in alices and "<td>7</td>" in alices and "Go left at the<br>second door" in alices
    assert f"<td>{bob.username}</td>" in alices  # the player she suspects, by name
    bobs = row(bob)
    assert "saved, not final" in bobs and "<td>2</td>" in bobs
    assert "not submitted" in row(charlie)
    assert "closed" in page and "waits for your results" in page
    assert "\nSpy</textarea>" in page  # each private value prefilled
    assert "The vault is closed.</textarea>" in page  # the board prefilled


def test_save_draft_keeps_it_unsent_for_the_next_visit_and_players_see_nothing(
    client, game, hank, alice, bob
):
    client.force_login(hank)
    alice_seat = seat_of(game, alice)
    with machine.travel(AFTER, tick=False):
        data = form_data(
            game,
            public_text="The vault held.",
            **{f"s{alice_seat.number}_private_text": "You found a key.", f"s{alice_seat.number}_points": 3},
            do="draft",
        )
        answer = client.post(url(game), data)
        assert answer.status_code == 302 and answer.url == url(game)
        assert "Draft saved" in told(answer)
        again = client.get(url(game)).content.decode()
    assert "The vault held.</textarea>" in again and "You found a key.</textarea>" in again
    assert "A draft of these results was saved" in again
    draft = Resolution.objects.get(game=game, round_number=1)
    assert draft.sent_at is None
    assert not Event.objects.filter(game=game, kind=Event.Kind.REVEAL).exists()
    assert game.rounds.get(number=1).status == Round.Status.OPEN
    with machine.travel(AFTER, tick=False):
        page = page_of(client, alice, game)
    assert "You found a key." not in page and "The vault held." not in page
    assert "Round 1 closed: the hosts are working out the results." in page


def test_resolve_after_the_deadline_announces_gives_each_inbox_its_own_and_opens_the_next_round(
    client, game, hank, alice, bob, charlie, make_user
):
    a, b = seat_of(game, alice).number, seat_of(game, bob).number
    client.force_login(hank)
    with machine.travel(AFTER, tick=False):
        data = form_data(
            game,
            public_text="**alice** takes the key.",
            board="The vault is open.",
            do="resolve",
            **{
                f"s{a}_private_text": "The key is fake.",
                f"s{a}_points": 3,
                f"s{b}_points": -1,
                f"s{a}_col0": "Spy (exposed)",
            },
        )
        answer = client.post(url(game), data)
        assert answer.status_code == 302, answer.content.decode()
        assert answer.url.endswith(f"/admin/platform/game/{game.pk}/change/#console")
        assert told(answer).startswith(
            "Round 1 resolved: the results are announced and Round 2 is open until"
        )
    game.refresh_from_db()
    assert game.state["scores"][str(a)] == 3 and game.state["scores"][str(b)] == -1
    assert game.state["private"][str(a)]["Role"] == "Spy (exposed)"
    assert game.state["board"] == "The vault is open."
    assert game.rounds.get(number=1).status == Round.Status.RESOLVED
    assert game.rounds.get(number=2).status == Round.Status.OPEN
    assert Resolution.objects.get(game=game, round_number=1).sent_at is not None
    assert AuditLog.objects.filter(game=game, action="resolution_send", detail__round=1).exists()
    with machine.travel(AFTER, tick=False):
        mine = page_of(client, alice, game)
        theirs = page_of(client, bob, game)
        client.force_login(make_user("sam"))
        watching = client.get(f"/games/{game.pk}/").content.decode()
    assert "The key is fake." in mine and "Spy (exposed)" in mine
    assert "<strong>alice</strong> takes the key." in theirs and "The vault is open." in theirs
    for other in (theirs, watching):
        assert "The key is fake." not in other and "Spy (exposed)" not in other


def test_resolve_before_the_deadline_asks_first_and_keeps_the_draft(client, game, hank, alice):
    client.force_login(hank)
    data = form_data(game, public_text="Early results.", do="resolve")
    page = client.post(url(game), data)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Close Round 1 now, 55 min early? 3 players have not submitted." in text
    assert "Early results.</textarea>" in text  # nothing typed lost
    assert Resolution.objects.get(game=game, round_number=1).sent_at is None
    assert game.rounds.get(number=1).status == Round.Status.OPEN
    answer = client.post(url(game), {**data, "do": "resolve_confirmed"})
    assert answer.status_code == 302 and told(answer).startswith("Round 1 resolved")
    assert game.rounds.get(number=1).status == Round.Status.RESOLVED


def test_only_the_games_hosts_reach_the_page(client, season, game, alice, make_user, hank):
    other_host = make_user("olga", is_staff=True)
    make_game(season, other_host, [alice, hank], name="Another")  # olga hosts another game
    client.force_login(other_host)
    assert client.get(url(game)).status_code == 404
    assert client.post(url(game), form_data(game, do="draft")).status_code == 404
    client.force_login(alice)
    refused = client.get(url(game))
    assert refused.status_code == 302 and "/login/" in refused.url
    assert not Resolution.objects.exists()


def test_resolve_refused_by_the_round_sends_nothing_and_says_why(client, game, hank):
    client.force_login(hank)
    with machine.travel(AFTER, tick=False):
        game_services.game_pause(game=game, actor=hank)
        page = client.post(url(game), form_data(game, public_text="Kept.", do="resolve"))
    assert page.status_code == 200
    assert "Nothing was sent: The game is paused" in page.content.decode()
    assert Resolution.objects.get(game=game, round_number=1).sent_at is None
    assert not Event.objects.filter(game=game, text__contains="Kept.").exists()


def resolve_round_one(client, game):
    with machine.travel(AFTER, tick=False):
        answer = client.post(url(game), form_data(game, public_text="Round one.", do="resolve"))
        assert answer.status_code == 302
    game.refresh_from_db()


LAST = NOON + dt.timedelta(hours=2, minutes=10)  # Round 2 (the last) is closed


def test_the_last_round_requires_the_candidate_and_a_tie_note_when_last_place_ties(
    client, game, hank, alice, bob, charlie
):
    client.force_login(hank)
    resolve_round_one(client, game)
    a, b, c = (seat_of(game, u).number for u in (alice, bob, charlie))
    with machine.travel(LAST, tick=False):
        shown = client.get(url(game)).content.decode()
        assert "This is the game&#x27;s last round" in shown
        assert "alice, bob and charlie tie for last with 0 points" in shown
        page = client.post(url(game), form_data(game, do="resolve", **{f"s{a}_points": 2}))
        text = page.content.decode()
        assert page.status_code == 200
        assert "Choose the Elimination Candidate: the game ends with this round." in text
        assert "bob and charlie both tie for last with 0 points: choose the Elimination Candidate." in text
        assert "Say how the tie was decided" in text
        assert 'name="s0_points" value="2"' in text or f'name="s{a}_points" value="2"' in text
    assert game.rounds.get(number=2).status == Round.Status.OPEN
    assert not Resolution.objects.filter(game=game, round_number=2, sent_at__isnull=False).exists()


def test_the_end_finishes_the_game_posts_garnets_and_tokens_and_opens_the_pick(
    client, season, game, hank, alice, bob, charlie
):
    client.force_login(hank)
    resolve_round_one(client, game)
    a, b, c = (seat_of(game, u).number for u in (alice, bob, charlie))
    with machine.travel(LAST, tick=False):
        answer = client.post(
            url(game),
            form_data(
                game,
                do="resolve",
                public_text="The end.",
                candidate=c,
                tie_note="charlie bid later",
                **{
                    f"s{a}_points": 5,
                    f"s{a}_rank": 1,
                    f"s{a}_winner": "on",
                    f"s{a}_garnets": 3,
                    f"s{a}_tokens_of_life": 1,
                    f"s{b}_rank": 2,
                    f"s{c}_rank": 3,
                },
            ),
        )
        assert answer.status_code == 302, answer.content.decode()
        assert told(answer) == "Round 2 resolved: the game is over: charlie is the Elimination Candidate."
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.state["final"]["candidate"] == c and game.state["final"]["winners"] == [a]
    balances = {
        acc.what: acc.balance
        for acc in LedgerAccount.objects.filter(season=season, user=alice, game__isnull=True)
    }
    assert balances.get("garnets", 0) >= 3 and balances.get("tokens_of_life", 0) >= 1
    assert (
        LedgerAccount.objects.get(season=season, user=alice, what="garnets", game__isnull=True)
        .entries.filter(delta=3)
        .exists()
    )
    pick = DeathMatchPick.objects.get(main_match=game)
    assert pick.candidate == charlie
    assert "The tie: charlie bid later" in " ".join(
        Event.objects.filter(game=game, kind=Event.Kind.ANNOUNCEMENT).values_list("text", flat=True)
    )


def test_a_host_run_death_match_from_the_pick_eliminates_its_loser(client, season, hank, alice, bob, charlie):
    main = make_game(season, hank, [alice, bob, charlie], rounds=1)
    client.force_login(hank)
    with machine.travel(AFTER, tick=False):
        points = {f"s{seat_of(main, alice).number}_points": 2, f"s{seat_of(main, bob).number}_points": 1}
        answer = client.post(
            url(main), form_data(main, do="resolve", candidate=seat_of(main, charlie).number, **points)
        )
        assert answer.status_code == 302, answer.content.decode()
        pick = DeathMatchPick.objects.get(main_match=main)
        pick_submit(pick=pick, user=charlie, opponent=bob)
        dm = death_match_create(pick=pick, actor=hank, game_type="host_run_death")
    design = Design.objects.create(game=dm, rules="One duel.", rounds=1, window=1)
    Field.objects.create(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=10)
    with machine.travel(AFTER, tick=False):
        game_services.game_start(game=dm, actor=hank)
    dm.refresh_from_db()
    later = AFTER + dt.timedelta(hours=1, minutes=5)
    with machine.travel(later, tick=False):
        page = client.get(url(dm)).content.decode()
        assert "The loser" in page
        points = {f"s{seat_of(dm, bob).number}_points": 1}
        answer = client.post(
            url(dm), form_data(dm, do="resolve", candidate=seat_of(dm, charlie).number, **points)
        )
        assert answer.status_code == 302, answer.content.decode()
        assert told(answer) == "Round 1 resolved: the game is over: charlie is the loser."
    assert SeasonPlayer.objects.get(season=season, user=charlie).eliminated
    assert not SeasonPlayer.objects.get(season=season, user=bob).eliminated


def test_the_resolutions_list_shows_a_host_their_own_games_only(client, season, game, hank, alice, make_user):
    client.force_login(hank)
    with machine.travel(AFTER, tick=False):
        client.post(url(game), form_data(game, do="draft"))
    listed = client.get("/admin/host_run/resolution/")
    assert listed.status_code == 200 and "The Vault" in listed.content.decode()
    other = make_user("olga", is_staff=True)
    client.force_login(other)
    assert "The Vault" not in client.get("/admin/host_run/resolution/").content.decode()


def test_an_open_ended_game_ends_when_the_host_ticks_it_naming_the_candidate(
    client, season, hank, alice, bob, charlie
):
    game = make_game(season, hank, [alice, bob, charlie], rounds=None)
    a, b, c = (seat_of(game, u).number for u in (alice, bob, charlie))
    points = {f"s{a}_points": 2, f"s{b}_points": 1}
    client.force_login(hank)
    with machine.travel(AFTER, tick=False):
        page = client.get(url(game)).content.decode()
        assert "Tick to end the game with this round" in page
        refused = client.post(url(game), form_data(game, do="resolve", ends_game="on", **points))
        assert "Choose the Elimination Candidate: the game ends with this round." in refused.content.decode()
        answer = client.post(url(game), form_data(game, do="resolve", ends_game="on", candidate=c, **points))
        assert told(answer) == "Round 1 resolved: the game is over: charlie is the Elimination Candidate."
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rounds.filter(number=2).exists()
