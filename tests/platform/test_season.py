"""The season around the games: grants, transfers, standings, and the Main Match to Death Match flow."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games.platform.models import AuditLog, DeathMatchPick, Game, LedgerAccount, SeasonPlayer
from games.platform.people import UTC
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_create
from games.platform.services.ledger import ledger_post
from games.platform.services.rounds import round_resolve, submission_save
from games.platform.services.season import pick_submit
from games.platform.zones import local_text
from tests.api_support import api, told
from tests.conftest import seat_of
from tests.platform.admin_support import game_form
from tests.sitting import all_here

pytestmark = pytest.mark.django_db


def garnets(season, user):
    account = LedgerAccount.objects.filter(season=season, user=user, what="garnets").first()
    return account.balance if account else 0


def test_a_host_grants_with_a_reason_in_the_audit_log_and_players_cannot(season, hank, alice):
    response = api(hank).post(
        reverse("api-grant", args=[season.id]),
        {"username": "alice", "what": "garnets", "delta": 5, "reason": "late join"},
    )
    assert response.status_code == 200 and response.json()["balances"]["garnets"] == 5
    assert AuditLog.objects.filter(action="season_grant", detail__reason="late join").exists()
    assert (
        api(alice)
        .post(
            reverse("api-grant", args=[season.id]),
            {"username": "alice", "what": "garnets", "delta": 5, "reason": "x"},
        )
        .status_code
        == 403
    )


def test_transfers_need_the_seasons_permission_and_enough_garnets(tally, alice, bob):
    season = tally.season
    ledger_post(season=season, user=alice, what="garnets", delta=3, reason="award")
    url = reverse("api-transfer", args=[season.id])
    assert api(alice).post(url, {"to": "bob", "amount": 2}).status_code == 403
    season.settings = {"transfers_allowed": True}
    season.save()
    assert api(alice).post(url, {"to": "bob", "amount": 2}).status_code == 200
    short = api(alice).post(url, {"to": "bob", "amount": 2})
    assert short.status_code == 400 and "You have 1 garnets" in short.json()["detail"]
    assert (garnets(season, alice), garnets(season, bob)) == (1, 2)


def play_tally_to_the_end(game, picks):
    for number in range(game.settings["rounds"]):
        for user, value in picks.items():
            submission_save(seat=seat_of(game, user), round_number=number, payload={"number": value})
        round_resolve(round_id=game.rounds.get(number=number).id, early=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_ec_to_dm_flow_end_to_end(season, hank, alice, bob, charlie, make_user):
    dora = make_user("dora")
    season.settings = {"death_match_type": "tally_duel"}
    season.save()
    ledger_post(season=season, user=dora, what="tokens_of_life", delta=1, reason="earlier win")
    mm = game_services.game_create(season=season, game_type="tally", name="MM", hosts=[hank], actor=hank)
    for user in (alice, bob, charlie, dora):
        game_services.game_seat(game=mm, user=user, actor=hank)
    game_services.game_start(game=mm, actor=hank)
    all_here(mm)  # the players sit down: the clocks run
    play_tally_to_the_end(mm, {alice: 1, bob: 5, charlie: 3, dora: 4})

    # alice scored least: she is the EC; dora holds a ToL and cannot be picked.
    pick = DeathMatchPick.objects.get(main_match=mm)
    assert pick.candidate == alice
    (said,) = [t for t in told(mm) if t.startswith("alice is the Elimination Candidate")]
    # How long, and the deadline as the reader reads it (here UTC, named: test_stored_texts has the zones).
    deadline = local_text(pick.deadline, UTC)
    assert said.endswith(f"picks a Death Match opponent within 24 hours, by {deadline}.")
    refused = api(alice).post(reverse("api-pick", args=[mm.id]), {"opponent": "dora"})
    assert refused.status_code == 400 and refused.json()["errors"] == {"opponent": ["dora cannot be picked."]}
    assert api(bob).post(reverse("api-pick", args=[mm.id]), {"opponent": "charlie"}).status_code == 403
    assert api(alice).post(reverse("api-pick", args=[mm.id]), {"opponent": "charlie"}).status_code == 200

    # The hosts create the Death Match in one step; it is played; its loser is eliminated.
    created = api(hank).post(reverse("api-death-match", args=[mm.id]))
    assert created.status_code == 201
    dm = Game.objects.get(pk=created.json()["death_match"])
    assert sorted(dm.seats.values_list("user__username", flat=True)) == ["alice", "charlie"]
    game_services.game_start(game=dm, actor=hank)
    all_here(dm)  # the players sit down: the clocks run
    dm.refresh_from_db()
    with time_machine.travel(dm.started_at + timedelta(hours=1)):
        from tests.sweeping import sweep

        for _ in range(4):
            sweep()
    dm.refresh_from_db()
    assert dm.status == Game.Status.FINISHED
    loser = dm.seats.get(number=dm.state["loser"]).user
    assert SeasonPlayer.objects.get(season=season, user=loser).eliminated
    assert f"{loser.username} is eliminated." in told(dm)


def test_a_token_of_life_is_spent_instead_of_elimination(season, hank, alice, bob):
    season.settings = {"death_match_type": "tally_duel", "tol_holders_immune": False}
    season.save()
    ledger_post(season=season, user=alice, what="tokens_of_life", delta=1, reason="won it")
    mm = game_services.game_create(
        season=season, game_type="tally", name="MM", hosts=[hank], settings={"rounds": 1}, actor=hank
    )
    for user in (alice, bob):
        game_services.game_seat(game=mm, user=user, actor=hank)
    game_services.game_start(game=mm, actor=hank)
    all_here(mm)  # the players sit down: the clocks run
    play_tally_to_the_end(mm, {alice: 0, bob: 2})
    pick = DeathMatchPick.objects.get(main_match=mm)
    pick_submit(pick=pick, user=alice, opponent=bob)
    dm = death_match_create(pick=pick, actor=hank)
    game_services.game_start(game=dm, actor=hank)
    all_here(dm)  # the players sit down: the clocks run
    dm.refresh_from_db()
    # alice moves first and lets her time and reserve run out: she loses the Death Match.
    with time_machine.travel(dm.started_at + timedelta(hours=2)):
        from tests.sweeping import sweep

        for _ in range(4):
            sweep()
    dm.refresh_from_db()
    assert dm.seats.get(number=dm.state["loser"]).user == alice
    assert not SeasonPlayer.objects.get(season=season, user=alice).eliminated
    assert LedgerAccount.objects.get(season=season, user=alice, what="tokens_of_life").balance == 0
    assert "alice spends a Token of Life and survives." in told(dm)


def test_the_pick_is_refused_after_its_deadline_and_the_hosts_override_it(season, hank, alice, bob):
    mm = game_services.game_create(
        season=season, game_type="tally", name="MM", hosts=[hank], settings={"rounds": 1}, actor=hank
    )
    for user in (alice, bob):
        game_services.game_seat(game=mm, user=user, actor=hank)
    game_services.game_start(game=mm, actor=hank)
    all_here(mm)  # the players sit down: the clocks run
    play_tally_to_the_end(mm, {alice: 0, bob: 2})
    pick = DeathMatchPick.objects.get(main_match=mm)
    with time_machine.travel(pick.deadline + timedelta(seconds=1)):
        late = api(alice).post(reverse("api-pick", args=[mm.id]), {"opponent": "bob"})
    assert late.status_code == 409 and "the hosts decide" in late.json()["detail"]
    assert api(alice).post(reverse("api-pick-override", args=[mm.id]), {"opponent": "bob"}).status_code == 403
    assert api(hank).post(reverse("api-pick-override", args=[mm.id]), {"opponent": "bob"}).status_code == 200
    assert AuditLog.objects.filter(action="pick_override").exists()


def test_the_standings_page_shows_balances_and_elimination(tally, alice, client):
    ledger_post(season=tally.season, user=alice, what="tokens_of_life", delta=2, reason="x")
    SeasonPlayer.objects.filter(user=alice).update(eliminated=True)
    page = client.get(reverse("season", args=[tally.season_id])).content.decode()
    assert "<td>alice</td>" in page and "<td>2</td>" in page and "eliminated" in page


def test_garnets_spent_inside_a_running_game_show_in_the_standings_when_it_ends(tally, alice, client):
    # A purchase inside a game (a horse card, a secret wild card) is private while the game runs.
    ledger_post(season=tally.season, user=alice, what="garnets", delta=10, reason="season start")
    ledger_post(season=tally.season, user=alice, what="garnets", delta=-3, reason="a wild card", game=tally)

    def alices_garnets():
        page = client.get(reverse("season", args=[tally.season_id])).content.decode()
        return page.split('<td>alice</td><td class="status">in</td><td>', 1)[1].split("</td>", 1)[0]

    assert alices_garnets() == "10"
    Game.objects.filter(pk=tally.pk).update(status=Game.Status.FINISHED)
    assert alices_garnets() == "7"


def test_hosts_read_the_season_ledger_but_not_another_games_chips(tally, hank, alice, make_user, client):
    from games.platform.models import Season

    ledger_post(season=tally.season, user=alice, what="garnets", delta=2, reason="CANARY-SEASON-GRANT")
    ledger_post(
        season=tally.season, user=alice, what="chips", delta=30, reason="CANARY-TALLY-CHIPS", game=tally
    )
    client.force_login(hank)
    page = client.get(reverse("admin:platform_ledgerentry_changelist")).content.decode()
    assert "CANARY-SEASON-GRANT" in page and "CANARY-TALLY-CHIPS" in page
    olga = make_user("olga", is_staff=True)
    tally.season.hosts.add(olga)  # a season host who does not host this game
    client.force_login(olga)
    page = client.get(reverse("admin:platform_ledgerentry_changelist")).content.decode()
    assert "CANARY-SEASON-GRANT" in page and "CANARY-TALLY-CHIPS" not in page
    stranger = make_user("stan", is_staff=True)
    Season.objects.create(name="Stan's season").hosts.add(stranger)
    client.force_login(stranger)
    page = client.get(reverse("admin:platform_ledgerentry_changelist")).content.decode()
    assert "CANARY-SEASON-GRANT" not in page and "CANARY-TALLY-CHIPS" not in page


def test_an_eliminated_player_cannot_be_seated_in_the_seasons_next_game(season, hank, alice, bob, client):
    SeasonPlayer.objects.create(season=season, user=alice, eliminated=True)
    game = game_services.game_create(season=season, game_type="tally", name="Next", hosts=[hank], actor=hank)
    refused = api(hank).post(reverse("api-host-seat", args=[game.id]), {"username": "alice"})
    assert refused.status_code == 400
    assert refused.json()["errors"] == {"username": ["alice has been eliminated from Season 1."]}
    client.force_login(hank)
    page = client.post(
        reverse("admin:platform_game_change", args=[game.id]),
        game_form(client, game, seat_players="alice bob"),
        follow=True,
    ).content.decode()
    assert "alice has been eliminated from Season 1." in page
    assert list(game.seats.values_list("user__username", flat=True)) == ["bob"]


def test_the_pick_page_tells_a_candidate_with_nobody_to_pick_that_the_hosts_decide(season, hank, alice, bob):
    ledger_post(season=season, user=bob, what="tokens_of_life", delta=1, reason="won it")
    mm = game_services.game_create(
        season=season, game_type="tally", name="MM", hosts=[hank], settings={"rounds": 1}, actor=hank
    )
    for user in (alice, bob):
        game_services.game_seat(game=mm, user=user, actor=hank)
    game_services.game_start(game=mm, actor=hank)
    all_here(mm)  # the players sit down: the clocks run
    play_tally_to_the_end(mm, {alice: 0, bob: 2})
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("death-match-pick", args=[mm.id])).content.decode()
    assert "Nobody can be picked" in page and "The hosts set your opponent." in page
    assert 'name="opponent"' not in page
