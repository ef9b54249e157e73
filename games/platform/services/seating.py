"""Who may take a seat in a game: one rule for seating a player before the start and for the hosts giving a
seat to another player (an absent one's at a live match, services.sitting.seat_replace; a leaver's at a Main
Match, services.absence.leaver_replace), and what giving a seat does (`seat_give`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from .. import live_push, pagecache
from ..kit import RulesError
from ..models import Game, LedgerAccount, SeasonPlayer, Seat
from .ledger import ledger_post_many
from .membership import season_join


def seat_refusal_check(game: Game, user, *, field: str) -> None:
    """Raise RulesError (on `field`) when `user` may not sit at `game`: they host it, sit there already, or
    were eliminated from its season."""
    if game.hosts.filter(pk=user.pk).exists():
        raise RulesError(f"{user} hosts this game and cannot also play it.", field=field)
    seated = game.seats.filter(user=user).values_list("number", flat=True).first()
    if seated is not None:
        raise RulesError(f"{user} is already seated in this game (seat {seated + 1}).", field=field)
    if SeasonPlayer.objects.filter(season=game.season, user=user, eliminated=True).exists():
        raise RulesError(f"{user} has been eliminated from {game.season.name}.", field=field)


def seat_to_give(game: Game, seat_number: int) -> Seat:
    """The seat, locked, with its player; a RulesError on the seat field when the game has no such seat."""
    seat = (
        Seat.objects.select_for_update().select_related("user").filter(game=game, number=seat_number).first()
    )
    if seat is None:
        raise RulesError(f"There is no seat {seat_number + 1} in this game.", field="seat")
    return seat


def newcomer(username: str):
    """The user the hosts named, or a RulesError on the username field."""
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise RulesError("No player has that username.", field="username")
    return user


def seat_give(*, game: Game, seat: Seat, user, actor) -> tuple:
    """Seat `seat` (locked, in the caller's transaction, with the game locked) is now `user`'s, with its
    balances in the game. Answers (the player who had it, what was handed over in words)."""
    seat_refusal_check(game, user, field="username")
    season_join(season=game.season, user=user, actor=actor)
    leaver = seat.user
    handed = _game_balances_hand_over(game, seat, leaver, user, actor)
    seat.user = user
    seat.inbox_read_at = None  # the seat's inbox is news to its new player
    seat.save(update_fields=["user", "inbox_read_at"])
    pagecache.private_changed(game.pk, [leaver.pk, user.pk])
    live_push.counts([leaver.pk])  # no longer seated: the version's news to the players misses them
    return leaver, handed


def _game_balances_hand_over(game: Game, seat: Seat, leaver, user, actor) -> list[str]:
    """The leaver's balances in this game, moved to the newcomer: one posting out, one in, each with the
    reason (a points total below zero moves too: points may be negative)."""
    reason = f"Seat {seat.number + 1} handed over"
    postings, handed = [], []
    accounts = LedgerAccount.objects.filter(game=game, user=leaver).exclude(balance=0)
    for account in accounts.order_by("what", "item"):
        postings += [
            (leaver, account.what, -account.balance, reason, account.item),
            (user, account.what, account.balance, reason, account.item),
        ]
        handed.append(f"{account.what}{':' + account.item if account.item else ''} {account.balance}")
    ledger_post_many(season=game.season, game=game, postings=postings, actor=actor)
    return handed
