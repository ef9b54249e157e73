"""Ledgers: every change to a countable thing is a row with its reason; no balance goes below zero."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Case, F, IntegerField, OuterRef, Q, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce

from .. import pagecache
from ..errors import NotEnough
from ..models import Game, LedgerAccount, LedgerEntry
from ..people import shown_name

WORDS = {
    "garnets": "garnets",
    "tokens_of_life": "Tokens of Life",
    "chips": "chips",
    "cards": "cards",
    "points": "points",
}


def account_for(*, season, user, what: str, game=None, item: str = "") -> LedgerAccount:
    game = None if what in LedgerAccount.SEASON_WIDE else game
    account, _ = LedgerAccount.objects.get_or_create(
        season=season, user=user, game=game, what=what, item=item
    )
    return account


@transaction.atomic
def ledger_post(
    *,
    season,
    user,
    what: str,
    delta: int,
    reason: str,
    game=None,
    item: str = "",
    round_number=None,
    actor=None,
) -> LedgerEntry:
    """Add `delta` (negative to take) to the user's balance, or raise NotEnough leaving it untouched.

    Points alone may go below zero: a game's penalties can take a score negative.

    The conditional UPDATE takes the row lock and checks the balance in one statement, so two concurrent
    payments can never both pass; the CHECK constraint backs it up in the database.
    """
    if delta == 0:
        raise ValueError("A ledger entry must change something.")
    account = account_for(season=season, user=user, what=what, game=game, item=item)
    try:
        with transaction.atomic():
            enough = {} if what == LedgerAccount.What.POINTS else {"balance__gte": -delta}
            changed = LedgerAccount.objects.filter(pk=account.pk, **enough).update(
                balance=F("balance") + delta
            )
    except IntegrityError:
        changed = 0
    if not changed:
        have = LedgerAccount.objects.values_list("balance", flat=True).get(pk=account.pk)
        thing = WORDS.get(what, what) + (f" ({item})" if item else "")
        raise NotEnough(f"You have {have} {thing}; this needs {-delta}.", field=what)
    balance = LedgerAccount.objects.values_list("balance", flat=True).get(pk=account.pk)
    pagecache.ledger_changed(season.pk, [user.pk])
    return LedgerEntry.objects.create(
        account=account,
        delta=delta,
        balance_after=balance,
        reason=reason,
        game=game,
        round_number=round_number,
        actor=actor,
    )


def secret_from(viewer) -> Q:
    """The season entries (garnets, Tokens of Life) that a game still running moved and `viewer` does not
    host: what they say ("Bought a C card", "a look at R2C3") is that game's secret until it ends. The
    season's own hosts see them then, like everyone on the public standings; the game's hosts see them live.
    """
    if viewer.is_superuser:
        return Q(pk__in=[])
    running = Q(account__game__isnull=True, game__isnull=False) & ~Q(game__status=Game.Status.FINISHED)
    return running & ~Q(game__in=Game.objects.filter(hosts=viewer).values("pk"))


def hidden_moves(viewer, *, account=None, up_to=None) -> Coalesce:
    """The sum of an account's entries kept from `viewer` (secret_from), up to an entry id when given:
    subtracted from a balance, what the viewer may know of it."""
    account = OuterRef("pk") if account is None else account
    entries = LedgerEntry.objects.filter(secret_from(viewer), account=account)
    if up_to is not None:
        entries = entries.filter(pk__lte=up_to)
    total = entries.order_by().values("account").annotate(total=Sum("delta")).values("total")
    return Coalesce(Subquery(total, output_field=IntegerField()), 0)


def known_balances(*, season, viewer, users=None) -> dict[tuple[int, str], int]:
    """{(user id, "garnets" or "tokens_of_life"): balance} of the season's players (or `users`), as `viewer`
    may know them: without what a running game they do not host moved in secret (secret_from). A host's
    grant is answered with these, never with the balance the database holds."""
    accounts = LedgerAccount.objects.filter(season=season, game__isnull=True)
    if users is not None:
        accounts = accounts.filter(user__in=[u.pk for u in users])
    rows = accounts.annotate(known=F("balance") - hidden_moves(viewer))
    return {(user_id, what): known for user_id, what, known in rows.values_list("user_id", "what", "known")}


def balances(*, season, user, game=None) -> dict[str, int]:
    """The user's season balances, and with `game` that game's balances too ("cards:A" for kinds)."""
    where = Q(game__isnull=True) | Q(game=game) if game is not None else Q(game__isnull=True)
    accounts = LedgerAccount.objects.filter(where, season=season, user=user).order_by("what", "item")
    return {(a.what + (f":{a.item}" if a.item else "")): a.balance for a in accounts}


@transaction.atomic
def ledger_post_many(*, season, game, postings, round_number=None, actor=None) -> list[LedgerEntry]:
    """Post many changes at once, in order, in a fixed number of queries however many players there are.

    `postings` are (user, what, delta, reason, item). The accounts are created if missing and locked, the
    balances are walked through in Python under the lock (a payment short at its turn raises NotEnough and
    the caller's transaction keeps nothing), then written back in one UPDATE and the entries in one INSERT.
    The database's CHECK constraint still guards every balance.
    """
    postings = [p for p in postings if p[2]]
    if not postings:
        return []

    def key(user, what, item):
        return (user.pk, None if what in LedgerAccount.SEASON_WIDE else game.pk, what, item)

    keys = {key(user, what, item) for user, what, _, _, item in postings}
    users = {user.pk for user, *_ in postings}
    LedgerAccount.objects.bulk_create(
        [LedgerAccount(season=season, user_id=u, game_id=g, what=w, item=i) for u, g, w, i in keys],
        ignore_conflicts=True,
    )
    accounts = {
        (a.user_id, a.game_id, a.what, a.item): a
        for a in LedgerAccount.objects.select_for_update()
        .filter(season=season, user_id__in=users, what__in={k[2] for k in keys})
        .filter(Q(game__isnull=True) | Q(game=game))
    }
    balance = {k: accounts[k].balance for k in keys}
    entries = []
    for user, what, delta, reason, item in postings:
        k = key(user, what, item)
        if what != LedgerAccount.What.POINTS and balance[k] + delta < 0:
            thing = WORDS.get(what, what) + (f" ({item})" if item else "")
            who = "You have" if actor is not None and actor.pk == user.pk else f"{shown_name(user)} has"
            raise NotEnough(f"{who} {balance[k]} {thing}; this needs {-delta}.", field=what)
        balance[k] += delta
        entries.append(
            LedgerEntry(
                account=accounts[k],
                delta=delta,
                balance_after=balance[k],
                reason=reason,
                game=game,
                round_number=round_number,
                actor=actor,
            )
        )
    LedgerAccount.objects.filter(pk__in=[accounts[k].pk for k in keys]).update(
        balance=Case(
            *[When(pk=accounts[k].pk, then=Value(balance[k])) for k in keys], output_field=IntegerField()
        )
    )
    pagecache.ledger_changed(season.pk, users)
    return LedgerEntry.objects.bulk_create(entries)
