"""A player joins a season: the membership, and the season's starting garnets and Tokens of Life.

Every way into a season goes through `season_join`: an invitation, a seat in one of its games, a seat given
to a replacement. Each player is given each starting amount once, and the ledger row with its starting
reason is the record of it: as they join, or, for those who joined while it was 0, when the hosts set it
(`starting_balances_catch_up`, from the settings' save). A later change of the amount gives nothing more to
those who had it; the hosts' grant corrects anyone by hand.

The season's row is locked while a membership is made, and the hosts' save of its settings holds it too (it
updates the row), so a player who joins while the hosts set the starting garnets is given them once: by
their joining, or by the save that sees them.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from ..models import LedgerEntry, Season, SeasonPlayer
from ..season_settings import starting_amounts
from .audit import audit
from .ledger import ledger_post_many

# The reason of a starting grant's ledger row, and the mark that the player has had it.
STARTING_REASONS = {"garnets": "Starting garnets", "tokens_of_life": "Starting Tokens of Life"}


def season_join(*, season: Season, user, actor=None) -> SeasonPlayer:
    """`user` is a player of the season, given its starting balances if they were not one already."""
    member = SeasonPlayer.objects.filter(season=season, user=user).first()
    if member is not None:
        return member
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        member, made = SeasonPlayer.objects.get_or_create(season=locked, user=user)
        amounts = starting_amounts(locked)
        if made and amounts:
            _give(locked, {what: [user] for what in amounts}, amounts, actor)
    return member


def starting_balances_catch_up(*, season: Season, actor) -> dict[str, list]:
    """Each starting amount set, to the players still in the season who have never had it (those who joined
    while it was 0). Answers {what: [users given it]}; call it inside the transaction that saved the
    settings."""
    amounts = starting_amounts(season)
    players = get_user_model().objects.filter(seasons__season=season, seasons__eliminated=False)
    given = {}
    for what in amounts:
        had = LedgerEntry.objects.filter(
            account__season=season,
            account__what=what,
            account__game__isnull=True,
            reason=STARTING_REASONS[what],
        ).values("account__user_id")
        users = list(players.exclude(pk__in=had).order_by("username"))
        if users:
            given[what] = users
    if given:
        _give(season, given, amounts, actor)
    return given


def _give(season: Season, given: dict[str, list], amounts: dict[str, int], actor) -> None:
    reasons = STARTING_REASONS
    postings = [(u, what, amounts[what], reasons[what], "") for what, users in given.items() for u in users]
    ledger_post_many(season=season, game=None, postings=postings, actor=actor)
    for user in {u.pk: u for users in given.values() for u in users}.values():
        got = {what: amounts[what] for what, users in given.items() if user in users}
        audit(action="season_starting_balances", actor=actor, season=season, user=user.username, **got)
