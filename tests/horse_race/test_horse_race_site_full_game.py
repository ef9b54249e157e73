"""A full 11-round game of nine players through the API, from creation to the final scoreboard and the EC."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.horse_race.rules import ROUNDS
from games.platform.models import DeathMatchPick, Game, LedgerAccount
from games.platform.services.ledger import balances, ledger_post
from tests.api_support import told
from tests.horse_race.horse_race_support import table
from tests.horse_race.site_support import NAMES, api, make_game, observe, operate, resolve, submit
from tests.horse_race.test_horse_race_rules_full_game import SCRIPT

pytestmark = pytest.mark.django_db


def admin_grid(game, grid) -> dict:
    """The admin's add form for a movement table, filled in cell by cell."""
    data = {"game": game.id}
    for horse, row in grid.items():
        for r, value in enumerate(row, start=1):
            data[f"{horse}{r}"] = value
    return data


def test_nine_players_play_the_whole_match_through_the_api(season, hank, nine):
    ann, ben, cat, dan, eve, fay, gus, *_ = nine
    ledger_post(season=season, user=ben, what="garnets", delta=7, reason="earlier games")

    created = api(hank).post(
        reverse("api-games"),
        {"season": season.id, "type": "horse_race", "name": "Main Match 5", "settings": {}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = Game.objects.get(pk=created.json()["id"])
    for user in nine:
        assert (
            api(hank).post(reverse("api-host-seat", args=[game.id]), {"username": user.username}).status_code
            == 200
        )
    refused = api(hank).post(reverse("api-host-start", args=[game.id]))
    assert refused.status_code == 400 and "movement table is missing" in refused.json()["detail"]

    browser = Client()
    browser.force_login(hank)
    added = browser.post(reverse("admin:horse_race_movementtable_add"), admin_grid(game, table()))
    assert added.status_code == 302, added.content.decode()[-3000:]
    assert api(hank).post(reverse("api-host-start", args=[game.id])).status_code == 200
    game.refresh_from_db()
    round0 = game.rounds.get(number=0)
    assert round0.closes_at - round0.opens_at == timedelta(hours=48)

    # Between the rounds: ben buys an I card (2 garnets), fay and gus swap A for B.
    assert operate(game, ben, "purchase", {"horse": "I"}).status_code == 200
    offered = operate(game, fay, "offer_trade", {"give": "A", "want": "B", "to": "gus"})
    assert offered.status_code == 200
    offer = offered.json()["state"]["trades"][0]
    assert operate(game, gus, "accept_trade", {"offer": offer["id"]}).status_code == 200

    for round_number in range(ROUNDS + 1):
        for seat, payload in SCRIPT.get(round_number, {}).items():
            saved = submit(game, nine[seat], round_number, payload)
            assert saved.status_code == 201, (round_number, seat, saved.json())
        resolve(game, hank)

    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING  # the EC vote is still owed
    vote_round = game.rounds.order_by("-number").first()
    assert vote_round.number == ROUNDS + 1 and vote_round.status == "open"
    seen = observe(game, dan)
    assert seen["state"]["decision"]["kind"] == "ec_vote" and not seen["state"]["decision"]["yours"]
    assert "nothing to submit" in seen["state"]["decision"]["text"]
    outsider = submit(game, dan, ROUNDS + 1, {"vote": 5})
    assert outsider.status_code == 400 and "you have nothing to submit" in outsider.json()["detail"]
    not_tied = submit(game, ann, ROUNDS + 1, {"vote": 2})
    assert not_tied.status_code == 400 and not_tied.json()["errors"]["vote"]
    assert submit(game, ann, ROUNDS + 1, {"vote": 5}).status_code == 201
    assert submit(game, ben, ROUNDS + 1, {"vote": 6}).status_code == 201
    final = resolve(game, hank)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = final["state"]
    assert state["scores"] == [92, 94, 22, 9, 1, 0, 0, 0, 0]
    assert [row["name"] for row in state["scoreboard"][:3]] == ["ben", "ann", "cat"]
    # 1-1 vote: ben's garnets (7 - 2 + 3 = 8) outweigh ann's (3), so ben's choice, gus (seat 6), is the EC
    assert state["elimination_candidate"] == 6
    ec = [t for t in told(game, kind="announcement") if t.startswith("The Elimination Candidate")]
    assert ec == ["The Elimination Candidate is gus (tied vote broken by the voters' garnets)."]
    assert balances(season=season, user=ben)["garnets"] == 8
    assert balances(season=season, user=ben)["tokens_of_life"] == 2
    assert balances(season=season, user=ann)["tokens_of_life"] == 1
    assert LedgerAccount.objects.get(user=ann, game=game, what="points").balance == 92
    assert LedgerAccount.objects.get(user=ben, game=game, what="cards", item="I").balance == 2
    assert LedgerAccount.objects.get(user=fay, game=game, what="cards", item="B").balance == 2
    assert LedgerAccount.objects.get(user=ann, game=game, what="chips").balance == 15
    # the public scoreboard and the table are shown to a spectator once the game is over
    public = observe(game)
    assert public["state"]["scores"] == state["scores"] and public["state"]["movement"] == table()
    assert "Final scoreboard: ben 94 points; ann 92 points" in " ".join(
        e["text"] for e in public["announcements"]
    )


def four_player_game(season, hank, make_user):
    players = [make_user(name) for name in NAMES[:4]]
    game = make_game(season, hank, players)
    for _ in range(ROUNDS):
        resolve(game, hank)
    # Round 10: ann alone scores (9 x 1² from one card of each horse); ben, cat and dan tie on 0 points.
    every = {h: 1 for h in "ABCDEFGHI"}
    assert submit(game, players[0], ROUNDS, {"ability": {"kind": "utility", "use": every}}).status_code == 201
    resolve(game, hank)
    game.refresh_from_db()
    return game, players


def test_the_sole_winner_chooses_in_round_11_then_the_ec_vote_in_round_12(season, hank, make_user):
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    assert game.rounds.order_by("-number").first().number == ROUNDS + 1
    assert observe(game, ann)["state"]["decision"]["kind"] == "winner_choice"
    refused = submit(game, ben, ROUNDS + 1, {"choice": 2})
    assert refused.status_code == 400 and "winner's choice" in refused.json()["detail"]
    assert submit(game, ann, ROUNDS + 1, {"choice": 0}).status_code == 400
    assert submit(game, ann, ROUNDS + 1, {"choice": 2}).status_code == 201
    resolve(game, hank)
    assert balances(season=season, user=cat)["tokens_of_life"] == 1

    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.rounds.order_by("-number").first().number == ROUNDS + 2
    assert observe(game, ann)["state"]["decision"]["kind"] == "ec_vote"
    assert submit(game, ann, ROUNDS + 2, {"vote": 3}).status_code == 201
    final = resolve(game, hank)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert final["state"]["elimination_candidate"] == 3
    assert final["state"]["tokens_of_life_given"] == [0, 0, 1, 0]


def test_an_unmade_winners_choice_is_drawn_from_the_seed(season, hank, make_user):
    game, _ = four_player_game(season, hank, make_user)
    resolve(game, hank)  # Round 11 closes with no choice
    expected = random.Random(game.seed + ROUNDS + 1).choice([1, 2, 3])
    assert observe(game, hank)["state"]["tokens_of_life_given"][expected] == 1


def test_the_ec_vote_names_the_elimination_candidate_whose_death_match_pick_opens(season, hank, make_user):
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    assert submit(game, ann, ROUNDS + 1, {"choice": 2}).status_code == 201
    resolve(game, hank)
    assert not DeathMatchPick.objects.filter(main_match=game).exists()  # the vote is still owed
    assert submit(game, ann, ROUNDS + 2, {"vote": 1}).status_code == 201
    resolve(game, hank)
    pick = DeathMatchPick.objects.get(main_match=game)
    assert pick.candidate == ben and pick.status == "open"
    assert any(t.startswith("ben is the Elimination Candidate and picks") for t in told(game))


def test_a_sole_last_place_is_the_elimination_candidate_when_round_10_resolves(season, hank, make_user):
    ann, ben, cat = (make_user(name) for name in NAMES[:3])
    game = make_game(season, hank, [ann, ben, cat])
    for _ in range(ROUNDS):
        resolve(game, hank)
    # Round 10's Utility: ann 9 points (one card of each horse), ben 1 (one card), cat none.
    every = {h: 1 for h in "ABCDEFGHI"}
    assert submit(game, ann, ROUNDS, {"ability": {"kind": "utility", "use": every}}).status_code == 201
    assert submit(game, ben, ROUNDS, {"ability": {"kind": "utility", "use": {"A": 1}}}).status_code == 201
    resolve(game, hank)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # nothing to decide: no tie for second, none for last
    assert DeathMatchPick.objects.get(main_match=game).candidate == cat
