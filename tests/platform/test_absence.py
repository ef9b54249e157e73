"""Absence during a Main Match (issue 29.5): a host gives the seat of a player who left to another player (the
seat keeps its hand, its saved submission and its balances in the game; each keeps their own season ledger),
or excuses a seat's missed round; both from the game's console (with a box to tick) and the API, announced
and audit-logged; and nobody but the game's hosts reaches either."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.platform.models import (
    AuditLog,
    Event,
    ExcusedRound,
    Game,
    LedgerAccount,
    LedgerEntry,
    SeasonPlayer,
)
from games.platform.services import games as game_services
from games.platform.services.ledger import balances, ledger_post
from games.platform.services.reminders import reminder_send_now
from games.platform.services.rounds import latest_submissions
from games.platform.services.sitting import here_say, start_time
from games.platform.services.sweep import reminder_claim
from tests.api_support import api, observe, operate, page_client, submit, told
from tests.cards_table.site_support import NAMES as TEN
from tests.cards_table.site_support import make_game as make_cards
from tests.horse_race.site_support import NAMES as NINE
from tests.horse_race.site_support import make_game as make_race
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db

CONFIRM = {"confirm": "yes"}


def press(client, game, action, **data) -> str:
    """POST one console button; the words it answered with (the admin's newest message)."""
    answer = client.post(f"/admin/platform/game/{game.id}/host/{action}/", data)
    assert answer.status_code == 302, answer.status_code
    return str(list(get_messages(answer.wsgi_request))[-1])


def console_of(client, game) -> str:
    return client.get(f"/admin/platform/game/{game.id}/change/").content.decode()


@pytest.fixture
def nine(make_user):
    return [make_user(name) for name in NINE]


@pytest.fixture
def race(season, hank, nine):
    """A running nine-player Horse Race, Round 0 open."""
    return make_race(season, hank, nine)


@pytest.fixture
def ten(make_user):
    return [make_user(name) for name in TEN]


@pytest.fixture
def cards(season, hank, ten):
    """A running ten-player Cards on the Table, Round 1 open."""
    return make_cards(season, hank, ten)


@pytest.fixture
def zoe(make_user):
    return make_user("zoe")


@pytest.fixture
def left(race, nine, season, zoe):
    """ann bought a C card with season garnets and saved her Round 0 submission; then she left."""
    ann = nine[0]
    ledger_post(season=season, user=ann, what="garnets", delta=5, reason="earlier games")
    assert operate(race, ann, "purchase", {"horse": "C"}).status_code == 200
    assert submit(race, ann, 0, {"ability": {"kind": "clue", "use": {"A": 1}}}).status_code == 201
    return ann


def test_the_new_player_takes_the_seat_its_hand_its_submission_and_its_game_balances(
    client, race, left, hank, zoe, season
):
    ann = left
    client.force_login(hank)
    answer = press(client, race, "replace", seat="0", username="zoe", **CONFIRM)
    assert answer == "Seat 1: ann's seat is now played by zoe. Everyone is told."
    seat = race.seats.get(number=0)
    assert seat.user == zoe
    assert told(race)[-1] == "ann's seat is now played by zoe (ann left the game)."
    entry = AuditLog.objects.get(game=race, action="seat_replace")
    assert entry.actor == hank and entry.detail["left"] == "ann" and entry.detail["by"] == "zoe"
    # The hand (the rules' state is per seat) and the game's ledger follow the seat ...
    assert observe(race, zoe)["state"]["you"]["hand"]["C"] == 2
    assert balances(season=season, user=zoe, game=race)["cards:C"] == 2
    assert balances(season=season, user=zoe, game=race)["chips"] == 30
    assert not LedgerAccount.objects.filter(user=ann, game=race).exclude(balance=0).exists()
    # ... the season's does not: ann keeps her garnets and her history, zoe joins with nothing of hers.
    assert balances(season=season, user=ann)["garnets"] == 3
    assert LedgerEntry.objects.filter(account__user=ann, account__game=None).count() == 2
    assert not LedgerEntry.objects.filter(account__user=zoe, account__game=None).exists()
    assert SeasonPlayer.objects.filter(season=season, user=zoe).exists()
    # Ruling: what the seat saved for the open round stays the seat's.
    saved = latest_submissions(race.rounds.get(number=0))[0]
    assert saved.seat_id == seat.pk and saved.payload["ability"]["use"] == {"A": 1}


def test_the_games_state_knows_the_seat_so_an_offer_to_the_leaver_is_the_newcomers(
    race, nine, hank, zoe, season
):
    ann, ben = nine[:2]
    assert operate(race, ben, "offer_trade", {"give": "B", "want": "A", "to": "ann"}).status_code == 200
    url = reverse("api-host-replace", args=[race.id])
    assert api(hank).post(url, {"seat": 0, "username": "zoe"}, format="json").status_code == 200
    offer = observe(race, zoe)["state"]["trades"][0]
    assert operate(race, ann, "accept_trade", {"offer": offer["id"]}).status_code in (403, 404)
    assert operate(race, zoe, "accept_trade", {"offer": offer["id"]}).status_code == 200
    assert observe(race, zoe)["state"]["you"]["hand"] == {**{h: 1 for h in "ACDEFGHI"}, "A": 0, "B": 2}
    assert balances(season=season, user=zoe, game=race)["cards:B"] == 2
    assert balances(season=season, user=ann, game=race).get("cards:B", 0) == 0


def test_the_leaver_no_longer_sees_the_seats_hand_the_new_player_does_spectators_never(race, left, hank, zoe):
    api(hank).post(reverse("api-host-replace", args=[race.id]), {"seat": 0, "username": "zoe"}, format="json")
    for user, sees in ((left, False), (zoe, True), (None, False)):
        state = observe(race, user)["state"]
        assert ("you" in state and state["you"] is not None) is sees, user
        page = page_client(user).get(reverse("game", args=[race.id])).content.decode()
        assert ("Your hand" in page) is sees, user


def test_a_seat_that_cannot_be_given_is_refused_at_once_beside_the_field_keeping_what_was_typed(
    client, race, nine, hank, zoe
):
    client.force_login(hank)
    ben = nine[1]
    refusals = [
        ({"seat": "0", "username": "nobody"}, "username", "No player has that username."),
        (
            {"seat": "0", "username": "ben"},
            "username",
            "ben is already seated in this game (seat 2).",
        ),
        (
            {"seat": "0", "username": "hank"},
            "username",
            "hank hosts this game and cannot also play it.",
        ),
        ({"seat": "12", "username": "zoe"}, "seat", "There is no seat 13 in this game."),
    ]
    for data, field, words in refusals:
        assert press(client, race, "replace", **data) == words
        page = console_of(client, race)
        assert f'<span class="errornote" id="replace-{field}-error">{words}</span>' in page
        assert f'value="{data["username"]}"' in page, "what was typed stays"
        assert words not in console_of(client, race), "said once, beside the field"
    assert race.seats.get(number=0).user == nine[0] and race.seats.get(number=1).user == ben
    assert not AuditLog.objects.filter(game=race, action="seat_replace").exists()


def test_giving_a_seat_and_excusing_a_round_ask_first_naming_who_and_what_follows(client, race, hank, zoe):
    client.force_login(hank)
    console = f"/admin/platform/game/{race.id}/change/"
    for action, data, asked in (
        (
            "replace",
            {"seat": "0", "username": "zoe"},
            "Give seat 1 to zoe? zoe takes ann's hand, saved submissions and balances in Horse Race, and ann "
            "sees them no more. Everyone is told.",
        ),
        (
            "excuse",
            {"seat": "0", "round": "0"},
            "Excuse ann's missed Round 0? Everyone is told, and an excuse is not taken back.",
        ),
    ):
        first = client.post(f"/admin/platform/game/{race.id}/host/{action}/", data)
        assert first.status_code == 302 and first["Location"].startswith(f"{console}?confirm={action}&")
        page = client.get(first["Location"]).content.decode()
        assert f'<p id="console-question" role="alert">{asked}</p>' in page.replace("&#x27;", "'")
    assert race.seats.get(number=0).user.username == "ann" and not ExcusedRound.objects.exists()
    assert not AuditLog.objects.filter(game=race, action__in=["seat_replace", "round_excuse"]).exists()


def test_a_player_eliminated_from_the_season_cannot_take_a_seat(client, race, hank, zoe, season):
    SeasonPlayer.objects.create(season=season, user=zoe, eliminated=True)
    client.force_login(hank)
    answer = press(client, race, "replace", seat="0", username="zoe", **CONFIRM)
    assert answer == "zoe has been eliminated from Season 1."


def test_the_console_offers_both_forms_with_their_confirmations_only_while_the_game_runs(
    client, season, hank, nine, race
):
    client.force_login(hank)
    page = console_of(client, race)
    assert "Give a seat to another player" in page and "Excuse a missed round" in page
    draft = game_services.game_create(
        season=season, game_type="horse_race", name="Draft", hosts=[hank], actor=hank
    )
    assert "Give a seat to another player" not in console_of(client, draft)


def test_an_excused_round_in_the_horse_race_is_recorded_shown_and_not_reminded(client, race, nine, hank):
    ann = nine[0]
    client.force_login(hank)
    answer = press(client, race, "excuse", seat="0", round="0", **CONFIRM)
    assert answer.startswith("Excused ann's Round 0. Its rules cost a missed round nothing more")
    assert told(race)[-1] == "The hosts excused ann's missed Round 0."
    assert AuditLog.objects.get(game=race, action="round_excuse").detail["player"] == "ann"
    assert ExcusedRound.objects.get().seat.user == ann
    page = console_of(client, race)
    assert "<td>ann</td><td>excused</td>" in page and "<td>ben</td><td>not submitted</td>" in page
    mail.outbox.clear()
    reminded = reminder_send_now(game=race, actor=hank)
    assert ann not in reminded.missing and nine[1] in reminded.missing
    swept = reminder_claim(round_id=race.rounds.get(number=0).pk, now=timezone.now())
    assert ann.pk not in swept and nine[1].pk in swept
    asked = client.post(f"/admin/platform/game/{race.id}/host/resolve/")["Location"]
    assert "8 players have not submitted." in client.get(asked).content.decode()
    again = press(client, race, "excuse", seat="0", round="0", **CONFIRM)
    assert again == "ann's Round 0 is excused already."
    assert press(client, race, "excuse", seat="0", round="4", **CONFIRM) == "Round 4 has not opened yet."
    assert ExcusedRound.objects.count() == 1


def test_the_season_console_does_not_wait_for_an_excused_seat(client, race, hank, season):
    client.force_login(hank)

    def waiting():
        page = client.get(f"/admin/platform/season/{season.id}/change/").content.decode()
        return page.split('id="season-console"')[1].split("</section>")[0]

    assert "(9 not submitted)" in waiting()
    press(client, race, "excuse", seat="0", round="0", **CONFIRM)
    assert "(8 not submitted)" in waiting()


def test_an_excused_round_in_cards_on_the_table_lifts_its_missing_action(client, cards, ten, hank):
    client.force_login(hank)
    answer = press(client, cards, "excuse", seat="1", round="1", **CONFIRM)
    assert "its total is not set to 3 for that" in answer
    cards.refresh_from_db()
    assert cards.state["seats"][1][0]["excused"] is True
    assert cards.state["seats"][0][0]["excused"] is False


def test_the_api_excuses_a_round_and_says_what_it_means(cards, hank):
    url = reverse("api-host-excuse", args=[cards.id])
    answer = api(hank).post(url, {"seat": 2, "round": 1}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["detail"].startswith("Seat 3's Round 1 is excused. The action it did not carry out")
    again = api(hank).post(url, {"seat": 2, "round": 1}, format="json")
    assert again.status_code == 400 and again.json()["errors"] == {
        "round": ["cat's Round 1 is excused already."]
    }
    late = api(hank).post(url, {"seat": 2, "round": 3}, format="json")
    assert late.status_code == 400 and late.json()["errors"] == {"round": ["Round 3 has not opened yet."]}
    assert ExcusedRound.objects.count() == 1


@pytest.fixture
def strangers(season, hank, make_user):
    """A staff user hosting another game, a season host who does not host this game."""
    olga = make_user("olga", is_staff=True)
    game_services.game_create(season=season, game_type="tally", name="Olga's", hosts=[olga], actor=olga)
    sam = make_user("sam", is_staff=True)
    season.hosts.add(sam)
    return {"olga": olga, "sam": sam}


@pytest.mark.parametrize("who", ["olga", "sam", "ben", "anonymous"])
def test_nobody_but_the_games_hosts_gives_a_seat_or_excuses_a_round(client, race, nine, zoe, strangers, who):
    user = {"ben": nine[1], "anonymous": None, **strangers}[who]
    if user is not None:
        client.force_login(user)
    before = (Event.objects.filter(game=race).count(), AuditLog.objects.filter(game=race).count())
    for action, data in (
        ("replace", {"seat": "0", "username": "zoe", **CONFIRM}),
        ("excuse", {"seat": "0", "round": "0", **CONFIRM}),
    ):
        answer = client.post(f"/admin/platform/game/{race.id}/host/{action}/", data)
        assert answer.status_code in (302, 404), action
        if answer.status_code == 302:
            assert "/login/" in answer["Location"], action
    page = client.get(f"/admin/platform/game/{race.id}/change/")
    assert page.status_code in (302, 404) and b"Give a seat" not in page.content
    for name, data in (
        ("api-host-replace", {"seat": 0, "username": "zoe"}),
        ("api-host-excuse", {"seat": 0, "round": 0}),
    ):
        refused = api(user).post(reverse(name, args=[race.id]), data, format="json")
        assert refused.status_code in (401, 403, 404), name
    assert race.seats.get(number=0).user == nine[0] and not ExcusedRound.objects.exists()
    assert (Event.objects.filter(game=race).count(), AuditLog.objects.filter(game=race).count()) == before


# -- a live match is created with its start time -------------------------------------------------------------


def add_form(client, **changes) -> dict:
    """The game admin's add form as a host posts it, with `changes` over what it offers."""
    page = client.get("/admin/platform/game/add/")
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = field.initial() if callable(field.initial) else field.initial
        if value not in (None, False, ""):
            data[name] = field.prepare_value(value) if name == "start_time" else value
    data.update(changes)
    return data


@pytest.fixture
def t0():
    return timezone.now().replace(second=0, microsecond=0) + timedelta(days=1)


def live_made_in_the_admin(client, season, hank, t0, here=("alice",), **changes) -> Game:
    """A Tally Duel (alice and bob) added through the admin at t0, to start 10 minutes later, then started;
    those named `here` say "I'm here" at once."""
    start = t0 + timedelta(minutes=10)
    with time_machine.travel(t0, tick=False):
        client.force_login(hank)
        data = add_form(
            client,
            season=season.pk,
            game_type="tally_duel",
            name="Duel",
            hosts=[hank.pk],
            seat_players="alice bob",
            start_time=timezone.localtime(start).strftime("%Y-%m-%dT%H:%M"),
            **changes,
        )
        answer = client.post("/admin/platform/game/add/", data)
        assert answer.status_code == 302, answer.context["adminform"].form.errors
        game = Game.objects.get(name="Duel")
        assert press(client, game, "start").startswith("Started")
        for seat in game.seats.filter(user__username__in=here):
            here_say(seat=seat)
    game.refresh_from_db()
    assert game.settings["clocks_start"] == changes.get("clocks_start", "when all are here")
    assert start_time(game) == start and game.clocks_start_at in (start, None)  # None: started already
    return game


def test_the_add_form_offers_a_start_time_and_what_absence_means(client, season, hank):
    client.force_login(hank)
    page = client.get("/admin/platform/game/add/").content.decode()
    assert "A live match" in page and 'name="start_time"' in page and 'type="datetime-local"' in page
    assert "A player absent at the start time" in page and "is replaced by a player the hosts name" in page
    assert "when everyone is here, or at the start time at the latest" in page
    form = client.get("/admin/platform/game/add/").context["adminform"].form
    offered = form.fields["start_time"].initial()
    assert offered > timezone.now() and (offered.hour, offered.minute) == (20, 0)


def test_a_live_match_made_in_the_admin_starts_at_its_start_time_and_the_absent_loses(
    client, season, hank, alice, bob, t0
):
    game = live_made_in_the_admin(client, season, hank, t0)  # "loses", as the form offers; bob never comes
    assert game.settings["absent_at_start"] == "loses" and game.clocks_started_at is None
    with time_machine.travel(t0 + timedelta(minutes=10, seconds=1), tick=False):
        sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "The start time came and bob is not here." in told(game)


def test_a_live_match_made_in_the_admin_gives_the_absent_players_seat_as_the_hosts_chose(
    client, season, hank, alice, bob, charlie, t0
):
    game = live_made_in_the_admin(client, season, hank, t0, absent_at_start="is replaced")
    with time_machine.travel(t0 + timedelta(minutes=10, seconds=1), tick=False):
        sweep()
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.clocks_started_at is None
        page = console_of(client, game)
        assert "Give a seat to another player" in page and "Excuse a missed round" not in page
        answer = press(client, game, "replace", seat="1", username="charlie", **CONFIRM)
    assert answer == "Seat 2: bob's seat is now played by charlie. Everyone is told."
    game.refresh_from_db()
    assert game.clocks_started_at == t0 + timedelta(minutes=10, seconds=1)
    assert game.seats.get(number=1).user == charlie


def test_a_live_match_made_in_the_admin_starts_when_everyone_is_here_or_at_its_start_time_as_chosen(
    client, season, hank, alice, bob, t0
):
    early = live_made_in_the_admin(client, season, hank, t0, here=("alice", "bob"))
    assert early.clocks_started_at == t0  # everyone came before the start time: nobody waits for it
    early.delete()
    timed = live_made_in_the_admin(
        client, season, hank, t0, here=("alice", "bob"), clocks_start="at the start time"
    )
    assert timed.clocks_started_at is None
    with time_machine.travel(t0 + timedelta(minutes=10, seconds=1), tick=False):
        sweep()
    timed.refresh_from_db()
    assert timed.clocks_started_at == t0 + timedelta(minutes=10, seconds=1)


def test_a_live_match_needs_a_start_time_to_come_and_a_game_of_rounds_ignores_it(client, season, hank, t0):
    client.force_login(hank)
    base = {"season": season.pk, "name": "Duel", "hosts": [hank.pk]}
    for start, words in (
        ("", "A live match needs a start time: its clocks start then."),
        ("2001-01-01T20:00", "The start time has passed: pick a time to come."),
    ):
        answer = client.post(
            "/admin/platform/game/add/", add_form(client, game_type="tally_duel", start_time=start, **base)
        )
        assert answer.status_code == 200 and answer.context["adminform"].form.errors["start_time"] == [words]
    assert not Game.objects.exists()
    answer = client.post(
        "/admin/platform/game/add/", add_form(client, game_type="tally", start_time="", **base)
    )
    assert answer.status_code == 302
    assert "start_time" not in Game.objects.get().settings
