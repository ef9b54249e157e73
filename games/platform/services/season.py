"""The season around the games: host grants, the settings' save, transfers, and the Main Match to Death Match
flow. What each season setting is and its default: season_settings.py."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from genius.clock import site_now

from .. import registry
from ..errors import NotAllowed, NotEnough, RoundClosed, StateChanged
from ..kit import Announce, RulesError
from ..models import DeathMatchPick, Game, LedgerAccount, Season, SeasonPlayer
from ..people import shown_name
from ..season_settings import SEASON, STARTING, season_setting
from ..wording import instant_ref, typed, user_ref
from ..zones import local_text, span_text
from .audit import audit
from .events import events_write
from .ledger import known_balances, ledger_post, ledger_post_many
from .locks import one_game_at_a_time
from .membership import starting_balances_catch_up


def is_season_host(season: Season, user) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and (user.is_superuser or season.hosts.filter(pk=user.pk).exists())
    )


@transaction.atomic
def season_grant_many(*, season: Season, users: list, what: str, delta: int, reason: str, actor) -> list:
    """A host's grant or correction of garnets or Tokens of Life to several players at once, with one
    reason: each a ledger row and an audit row, all or none (a correction one player cannot pay takes
    nothing from anyone). Answers the ledger rows."""
    if not is_season_host(season, actor):
        raise NotAllowed("Only a host of this season may grant or correct balances.")
    if what not in LedgerAccount.SEASON_WIDE:
        raise RulesError("Only garnets and Tokens of Life belong to the season.", field="what")
    if not reason.strip():
        raise RulesError("Say why: the reason is kept with the entry.", field="reason")
    if not users:
        raise RulesError("Choose at least one player.", field="players")
    if not delta:
        raise RulesError("Grant at least 1, or take at least 1 with a minus sign.", field="delta")
    why = f"Host: {typed(reason)}"
    try:
        entries = ledger_post_many(
            season=season, game=None, postings=[(u, what, delta, why, "") for u in users], actor=actor
        )
    except NotEnough:
        # The balance the database holds may count a running game's secret purchase (ledger.secret_from):
        # the answer names who is short, never their balance.
        raise NotEnough(_short(season, users, what, delta), field="delta") from None
    for user in users:
        audit(
            action="season_grant",
            actor=actor,
            season=season,
            user=user.username,
            what=what,
            delta=delta,
            reason=reason,
        )
    return entries


def season_grant(*, season: Season, user, what: str, delta: int, reason: str, actor):
    """A host's grant or correction to one player (the API's): its ledger row."""
    one = {"users": [user], "what": what, "delta": delta, "reason": reason}
    return season_grant_many(season=season, actor=actor, **one)[0]


def _short(season: Season, users: list, what: str, delta: int) -> str:
    accounts = LedgerAccount.objects.filter(season=season, game__isnull=True, what=what, user__in=users)
    held = dict(accounts.values_list("user_id", "balance"))
    short = [u.username for u in users if held.get(u.pk, 0) + delta < 0] or [u.username for u in users]
    have = "has" if len(short) == 1 else "have"
    return f"{_listed(short)} {have} fewer than {amount_words(-delta, what)}: nothing was taken from anyone."


def grant_done(*, users: list, what: str, delta: int) -> str:
    """What a grant did, in words: "Granted 3 garnets to ann, ben, cat", "Took 1 garnet from ann"."""
    names = _listed([u.username for u in users])
    if delta > 0:
        return f"Granted {amount_words(delta, what)} to {names}"
    return f"Took {amount_words(-delta, what)} from {names}"


def grant_answer(*, season: Season, users: list, what: str, delta: int, viewer) -> str:
    """The answer to a grant, with each player's balance after it as `viewer` may know it:
    "Granted 3 garnets to ann, ben, cat: ann 5, ben 3, cat 3."."""
    known = known_balances(season=season, viewer=viewer, users=users)
    after = ", ".join(f"{u.username} {known.get((u.pk, what), 0)}" for u in users)
    return f"{grant_done(users=users, what=what, delta=delta)}: {after}."


UNITS = {"garnets": ("garnet", "garnets"), "tokens_of_life": ("Token of Life", "Tokens of Life")}


def amount_words(count: int, what: str) -> str:
    one, many = UNITS[what]
    return f"{count} {one if count == 1 else many}"


def _listed(names: list[str]) -> str:
    return ", ".join(names)


def season_settings_changed(*, season: Season, before: dict, actor) -> dict[str, list]:
    """After the hosts saved the season's settings (inside that transaction): the change in the audit log,
    and a starting amount just set given to the players already in the season who have had none. Answers
    {what: [players given it]}."""
    # A setting left at its default and then written out with it has not changed.
    before = {**SEASON.default_settings(), **before}
    after = {**SEASON.default_settings(), **(season.settings or {})}
    keys = sorted(set(before) | set(after))
    changed = {k: [before.get(k), after.get(k)] for k in keys if before.get(k) != after.get(k)}
    if not changed:
        return {}
    audit(action="season_settings", actor=actor, season=season, changed=changed)
    if not any(key in changed for key in STARTING.values()):
        return {}
    return starting_balances_catch_up(season=season, actor=actor)


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
