"""Every model constraint holds in the database itself, not only in Python."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.platform.errors import NotEnough
from games.platform.models import Event, Game, LedgerAccount, LedgerEntry, Round, Seat, Submission
from games.platform.services.ledger import ledger_post

pytestmark = pytest.mark.django_db


def raises_integrity(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


def test_a_balance_cannot_go_below_zero_in_the_database(season, alice):
    account = LedgerAccount.objects.create(season=season, user=alice, what="garnets", balance=1)
    raises_integrity(lambda: LedgerAccount.objects.filter(pk=account.pk).update(balance=-1))


def test_points_alone_may_go_negative(tally, alice):
    entry = ledger_post(
        season=tally.season, user=alice, what="points", delta=-2, reason="crowd penalty", game=tally
    )
    assert entry.balance_after == -2
    chips = LedgerAccount.objects.create(season=tally.season, user=alice, game=tally, what="chips")
    raises_integrity(lambda: LedgerAccount.objects.filter(pk=chips.pk).update(balance=-1))


def test_a_ledger_entry_must_change_something(season, alice):
    account = LedgerAccount.objects.create(season=season, user=alice, what="garnets")
    raises_integrity(
        lambda: LedgerEntry.objects.create(account=account, delta=0, balance_after=0, reason="x")
    )


def test_garnets_belong_to_the_season_not_a_game(tally, alice):
    raises_integrity(
        lambda: LedgerAccount.objects.create(season=tally.season, user=alice, game=tally, what="garnets")
    )


def test_chips_belong_to_a_game(season, alice):
    raises_integrity(lambda: LedgerAccount.objects.create(season=season, user=alice, what="chips"))


def test_one_season_account_per_thing(season, alice):
    LedgerAccount.objects.create(season=season, user=alice, what="garnets")
    raises_integrity(lambda: LedgerAccount.objects.create(season=season, user=alice, what="garnets"))


def test_one_game_account_per_thing(tally, alice):
    LedgerAccount.objects.create(season=tally.season, user=alice, game=tally, what="cards", item="A")
    raises_integrity(
        lambda: LedgerAccount.objects.create(
            season=tally.season, user=alice, game=tally, what="cards", item="A"
        )
    )


def test_ledger_post_refuses_to_overdraw_and_keeps_the_balance(season, alice):
    ledger_post(season=season, user=alice, what="garnets", delta=3, reason="award")
    with pytest.raises(NotEnough) as err:
        ledger_post(season=season, user=alice, what="garnets", delta=-4, reason="purchase")
    assert "You have 3 garnets" in err.value.message
    account = LedgerAccount.objects.get(user=alice, what="garnets")
    assert account.balance == 3
    assert list(account.entries.values_list("delta", "balance_after")) == [(3, 3)]


def test_one_seat_per_player_and_one_player_per_seat(tally, alice, charlie):
    raises_integrity(lambda: Seat.objects.create(game=tally, user=alice, number=5))
    raises_integrity(lambda: Seat.objects.create(game=tally, user=charlie, number=0))


def test_one_round_per_number(tally):
    now = timezone.now()
    raises_integrity(lambda: Round.objects.create(game=tally, number=0, opens_at=now, closes_at=now))


def test_a_round_closes_after_it_opens(tally):
    now = timezone.now()
    raises_integrity(
        lambda: Round.objects.create(game=tally, number=9, opens_at=now, closes_at=now - timedelta(seconds=1))
    )


def test_a_reveal_needs_a_seat_and_an_announcement_has_none(tally):
    seat = tally.seats.first()
    raises_integrity(lambda: Event.objects.create(game=tally, kind="reveal", text="x"))
    raises_integrity(lambda: Event.objects.create(game=tally, kind="announcement", seat=seat, text="x"))


def test_only_finished_games_have_an_end(tally):
    raises_integrity(lambda: Game.objects.filter(pk=tally.pk).update(finished_at=timezone.now()))


def test_reserve_is_never_negative(tally):
    raises_integrity(lambda: Seat.objects.filter(game=tally).update(reserve_seconds=-1))


def test_submissions_are_append_only(tally, alice):
    seat = tally.seats.get(user=alice)
    sub = Submission.objects.create(round=tally.rounds.get(number=0), seat=seat, payload={"number": 1})
    sub.payload = {"number": 2}
    with pytest.raises(ValueError, match="append-only"):
        sub.save()
    with pytest.raises(ValueError, match="append-only"):
        sub.delete()
    assert Submission.objects.get(pk=sub.pk).payload == {"number": 1}


def test_many_postings_walk_the_balances_in_order_and_refuse_a_short_payment(tally, alice, bob):
    from games.platform.services.ledger import ledger_post_many

    ledger_post_many(
        season=tally.season,
        game=tally,
        postings=[
            (alice, "garnets", 3, "award", ""),
            (alice, "garnets", -2, "purchase", ""),
            (bob, "chips", 5, "start", ""),
        ],
    )
    assert LedgerAccount.objects.get(user=alice, what="garnets").balance == 1
    assert list(LedgerEntry.objects.filter(account__user=alice).values_list("balance_after", flat=True)) == [
        3,
        1,
    ]
    with pytest.raises(NotEnough, match="alice has 1 garnets; this needs 2"):
        with transaction.atomic():
            ledger_post_many(
                season=tally.season,
                game=tally,
                postings=[
                    (bob, "chips", 1, "more", ""),
                    (alice, "garnets", -2, "purchase", ""),
                ],
            )
    assert LedgerAccount.objects.get(user=bob, what="chips").balance == 5
