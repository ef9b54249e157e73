"""A season host who does not host a game never reads that game's secret purchases while it runs (17.4).

Buying a horse card or a wild card, or a look at a board cell, is a season ledger entry (garnets) whose
reason names the secret. The admin's ledger lists and balances keep those entries, and what they moved,
from every staff user but the game's own hosts until the game ends.
"""

from __future__ import annotations

import pytest

from games.platform.models import Game, LedgerEntry
from games.platform.services import games as game_services
from games.platform.services.ledger import ledger_post
from games.platform.services.season import season_grant

pytestmark = pytest.mark.django_db

SECRET = "Bought a C card"


@pytest.fixture
def hugo(make_user):
    return make_user("hugo", is_staff=True)


@pytest.fixture
def purchase(season, hank, hugo, alice, bob):
    """Game B, hosted by hugo only, in hank's season: alice buys a card in secret between two grants."""
    game = game_services.game_create(season=season, game_type="tally", name="B", hosts=[hugo], actor=hugo)
    game_services.game_seat(game=game, user=alice, actor=hugo)
    game_services.game_seat(game=game, user=bob, actor=hugo)
    game_services.game_start(game=game, actor=hugo)
    season_grant(season=season, user=alice, what="garnets", delta=10, reason="season start", actor=hank)
    bought = ledger_post(season=season, user=alice, what="garnets", delta=-3, reason=SECRET, game=game)
    later = season_grant(season=season, user=alice, what="garnets", delta=5, reason="prize", actor=hank)
    return game, bought, later


def _rows(client, user, path):
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response, list(response.context["cl"].result_list)


def test_a_season_host_who_does_not_host_the_game_sees_no_secret_purchase_in_the_ledger(
    client, hank, purchase
):
    _, bought, later = purchase
    response, rows = _rows(client, hank, "/admin/platform/ledgerentry/")
    assert SECRET not in response.content.decode()
    assert [r.reason for r in rows if r.pk == bought.pk] == []
    (prize,) = [r for r in rows if r.pk == later.pk]
    assert prize.known_after == 15, "the balance after the prize, without the purchase"
    searched = client.get("/admin/platform/ledgerentry/", {"q": "Bought"})
    assert list(searched.context["cl"].result_list) == []
    assert client.get(f"/admin/platform/ledgerentry/{bought.pk}/change/").status_code == 302


def test_a_season_host_who_does_not_host_the_game_sees_balances_without_its_secret_moves(
    client, hank, alice, purchase
):
    response, rows = _rows(client, hank, "/admin/platform/ledgeraccount/")
    (account,) = [r for r in rows if r.user_id == alice.pk and r.what == "garnets"]
    assert account.known == 15
    assert "= 12" not in response.content.decode() and ">12<" not in response.content.decode()
    change = client.get(f"/admin/platform/ledgeraccount/{account.pk}/change/").content.decode()
    assert "= 12" not in change and ">12<" not in change and ">15<" in change.replace(" ", "")


def test_the_games_own_host_sees_its_purchases_live(client, hugo, purchase):
    _, bought, _ = purchase
    response, rows = _rows(client, hugo, "/admin/platform/ledgerentry/")
    assert bought.pk in [r.pk for r in rows] and SECRET in response.content.decode()


def test_the_season_host_sees_the_purchase_once_the_game_has_ended(client, hank, alice, purchase):
    game, bought, later = purchase
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response, rows = _rows(client, hank, "/admin/platform/ledgerentry/")
    assert SECRET in response.content.decode()
    assert {r.pk: r.known_after for r in rows}[later.pk] == 12
    _, accounts = _rows(client, hank, "/admin/platform/ledgeraccount/")
    assert [a.known for a in accounts if a.user_id == alice.pk] == [12]
    assert LedgerEntry.objects.filter(pk=bought.pk).exists()
