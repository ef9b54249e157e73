"""The season around the games: host grants, transfers, and the Main Match to Death Match flow."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from genius.clock import site_now

from .. import registry
from ..errors import NotAllowed, RoundClosed, StateChanged
from ..kit import Announce, RulesError
from ..models import DeathMatchPick, Game, LedgerAccount, Season, SeasonPlayer
from ..people import shown_name
from ..wording import instant_ref, typed, user_ref
from ..zones import local_text, span_text
from .audit import audit
from .events import events_write
from .ledger import ledger_post
from .locks import one_game_at_a_time

DEFAULTS = {
    "transfers_allowed": False,
    "death_match_type": "middle_marathon",
    "pick_hours": 24,
    "tol_holders_immune": True,
    "tol_saves_from_elimination": True,
}


def season_setting(season: Season, name: str):
    return (season.settings or {}).get(name, DEFAULTS[name])


def is_season_host(season: Season, user) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and (user.is_superuser or season.hosts.filter(pk=user.pk).exists())
    )


@transaction.atomic
def season_grant(*, season: Season, user, what: str, delta: int, reason: str, actor):
    """A host's grant or correction of garnets or Tokens of Life, with its reason, in the audit log."""
    if not is_season_host(season, actor):
        raise NotAllowed("Only a host of this season may grant or correct balances.")
    if what not in LedgerAccount.SEASON_WIDE:
        raise RulesError("Only garnets and Tokens of Life belong to the season.", field="what")
    if not reason.strip():
        raise RulesError("Say why: the reason is kept with the entry.", field="reason")
    entry = ledger_post(
        season=season, user=user, what=what, delta=delta, reason=f"Host: {typed(reason)}", actor=actor
    )
    audit(
        action="season_grant",
        actor=actor,
        season=season,
        user=user.username,
        what=what,
        delta=delta,
        reason=reason,
    )
    return entry


@one_game_at_a_time
def season_transfer(*, season: Season, sender, receiver, what: str, amount: int):
    """One player gives garnets (or ToLs) to another, where the season's settings allow it."""
    if not season_setting(season, "transfers_allowed"):
        raise NotAllowed("This season does not allow transfers between players.")
    if what not in LedgerAccount.SEASON_WIDE:
        raise RulesError("Only garnets and Tokens of Life can be given.", field="what")
    if amount <= 0:
        raise RulesError("Give at least 1.", field="amount")
    if sender.pk == receiver.pk:
        raise RulesError("Give to another player.", field="to")
    if not SeasonPlayer.objects.filter(season=season, user=receiver).exists():
        raise RulesError("That player is not in this season.", field="to")
    ledger_post(season=season, user=sender, what=what, delta=-amount, reason=f"Given to {user_ref(receiver)}")
    ledger_post(season=season, user=receiver, what=what, delta=amount, reason=f"Given by {user_ref(sender)}")
    audit(
        action="season_transfer", actor=sender, season=season, to=receiver.username, what=what, amount=amount
    )


def tokens_of_life(season: Season, user) -> int:
    account = LedgerAccount.objects.filter(
        season=season, user=user, what="tokens_of_life", game__isnull=True
    ).first()
    return account.balance if account else 0


def on_game_finished(*, game: Game, now) -> None:
    """Inside the transaction that finishes a game: name its Elimination Candidate, or settle its DM."""
    kind = registry.get(game.game_type)
    seats = {s.number: s for s in game.seats.select_related("user")}
    if kind.match_kind == registry.MAIN_MATCH:
        candidate = kind.elimination_candidate(game)
        if candidate is not None and candidate in seats:
            pick_open(game=game, candidate=seats[candidate].user, now=now)
        return
    # A Death Match settles only when it was made from a pick (a friendly one made by hand eliminates none).
    if DeathMatchPick.objects.filter(death_match=game).exists():
        loser = kind.match_loser(game)
        death_match_settle(game=game, loser=seats[loser].user if loser in seats else None)


def pick_open(*, game: Game, candidate, now) -> DeathMatchPick:
    season = game.season
    deadline = now + timedelta(hours=season_setting(season, "pick_hours"))
    pick = DeathMatchPick.objects.create(main_match=game, candidate=candidate, deadline=deadline)
    excluded = [candidate]
    players = [s.user for s in game.seats.select_related("user")]
    if season_setting(season, "tol_holders_immune"):
        excluded += [p for p in players if tokens_of_life(season, p) > 0]
    pick.excluded.set(excluded)
    events_write(
        game=game,
        events=[
            Announce(
                # How long, and until when: the time is kept as the instant, which each reader reads in
                # their own zone, named (a webhook's channel in UTC).
                f"{user_ref(candidate)} is the Elimination Candidate and picks a Death Match opponent "
                f"within {span_text(deadline - now)}, by {instant_ref(deadline)}.",
                {"candidate": candidate.pk, "deadline": deadline.isoformat()},
            )
        ],
    )
    return pick


def pick_options(pick: DeathMatchPick) -> list:
    excluded = set(pick.excluded.values_list("pk", flat=True))
    return [
        s.user
        for s in pick.main_match.seats.select_related("user__profile")
        if s.user_id not in excluded
        and not SeasonPlayer.objects.filter(
            season=pick.main_match.season, user=s.user, eliminated=True
        ).exists()
    ]


@one_game_at_a_time
def pick_submit(*, pick: DeathMatchPick, user, opponent, now=None) -> DeathMatchPick:
    """The Elimination Candidate's choice of opponent, before the deadline; changeable until then."""
    now = now or site_now()
    pick = DeathMatchPick.objects.select_for_update().get(pk=pick.pk)
    if user.pk != pick.candidate_id:
        raise NotAllowed("Only the Elimination Candidate picks the opponent.")
    if pick.status == DeathMatchPick.Status.CREATED:
        raise StateChanged("The Death Match has already been created.")
    if now >= pick.deadline:
        raise RoundClosed(
            pick.deadline, f"The pick closed at {local_text(pick.deadline)}; the hosts decide now."
        )
    if opponent not in pick_options(pick):
        raise RulesError(f"{shown_name(opponent)} cannot be picked.", field="opponent")
    pick.opponent, pick.picked_at, pick.status = opponent, now, DeathMatchPick.Status.PICKED
    pick.save(update_fields=["opponent", "picked_at", "status"])
    events_write(
        game=pick.main_match,
        events=[Announce(f"{user_ref(user)} picks {user_ref(opponent)} for the Death Match.")],
    )
    return pick


@one_game_at_a_time
def pick_override(*, pick: DeathMatchPick, opponent, actor) -> DeathMatchPick:
    """A host sets the opponent (e.g. the deadline passed without a pick); logged."""
    pick = DeathMatchPick.objects.select_for_update().get(pk=pick.pk)
    if not is_season_host(pick.main_match.season, actor):
        raise NotAllowed("Only a host of this season may override the pick.")
    pick.opponent, pick.picked_at, pick.status = opponent, site_now(), DeathMatchPick.Status.PICKED
    pick.save(update_fields=["opponent", "picked_at", "status"])
    audit(action="pick_override", actor=actor, game=pick.main_match, opponent=opponent.username)
    events_write(
        game=pick.main_match,
        events=[
            Announce(
                f"The hosts set the Death Match: {user_ref(pick.candidate)} against {user_ref(opponent)}."
            )
        ],
    )
    return pick


def death_match_settle(*, game: Game, loser) -> None:
    """The Death Match's loser is eliminated, unless a Token of Life is spent as the season allows."""
    season = game.season
    if loser is None:
        events_write(game=game, events=[Announce("The Death Match ended without a loser: the hosts decide.")])
        return
    if season_setting(season, "tol_saves_from_elimination") and tokens_of_life(season, loser) > 0:
        ledger_post(
            season=season,
            user=loser,
            what="tokens_of_life",
            delta=-1,
            reason=f"Spent to survive {typed(game.name)}",
            game=game,
        )
        events_write(game=game, events=[Announce(f"{user_ref(loser)} spends a Token of Life and survives.")])
        return
    SeasonPlayer.objects.filter(season=season, user=loser).update(eliminated=True)
    events_write(game=game, events=[Announce(f"{user_ref(loser)} is eliminated.")])


@transaction.atomic
def elimination_override(*, season: Season, user, eliminated: bool, actor, reason: str) -> None:
    if not is_season_host(season, actor):
        raise NotAllowed("Only a host of this season may change who is eliminated.")
    SeasonPlayer.objects.filter(season=season, user=user).update(eliminated=eliminated)
    audit(
        action="elimination_override",
        actor=actor,
        season=season,
        user=user.username,
        eliminated=eliminated,
        reason=reason,
    )
