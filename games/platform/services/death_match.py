"""The hosts create the Death Match of an Elimination Candidate's pick in one step."""

from __future__ import annotations

from django.db import transaction

from genius.clock import site_now

from .. import registry
from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import DeathMatchPick, Game
from ..setting import AT_START_TIME, CLOCKS_START, START_TIME
from .audit import audit
from .games import game_create, game_seat, game_settings_update, game_start
from .season import is_season_host, season_setting


@transaction.atomic
def death_match_create(*, pick: DeathMatchPick, actor, game_type: str | None = None) -> Game:
    """One step from the pick to a Death Match with both players seated (the hosts then start it)."""
    pick = (
        DeathMatchPick.objects.select_for_update(of=("self",))
        .select_related("main_match__season")
        .get(pk=pick.pk)
    )
    season = pick.main_match.season
    if not is_season_host(season, actor):
        raise NotAllowed("Only a host of this season may create the Death Match.")
    if pick.opponent_id is None:
        raise StateChanged("Nobody has been picked yet.")
    if pick.death_match_id:
        raise StateChanged("The Death Match already exists.")
    slug = game_type or season_setting(season, "death_match_type")
    try:
        kind = registry.get(slug)
    except LookupError as error:
        raise RulesError(str(error), field="death_match_type") from None
    if kind.match_kind != registry.DEATH_MATCH:
        # Only a Death Match names the loser the season eliminates.
        raise RulesError(f"{kind.name} is not a Death Match.", field="death_match_type")
    dm = game_create(
        season=season,
        game_type=slug,
        # Named after its Main Match, not its players: a name kept in the row would not follow a display
        # name they change later (the page lists both players by the names they go by).
        name=f"Death Match after {pick.main_match.name}"[:120],
        hosts=list(pick.main_match.hosts.all()),
        actor=actor,
    )
    game_seat(game=dm, user=pick.candidate, actor=actor)
    game_seat(game=dm, user=pick.opponent, actor=actor)
    pick.death_match, pick.status = dm, DeathMatchPick.Status.CREATED
    pick.save(update_fields=["death_match", "status"])
    audit(action="death_match_create", actor=actor, game=pick.main_match, death_match=dm.id)
    return dm


@transaction.atomic
def death_match_open(*, pick: DeathMatchPick, actor, start_at, now=None) -> Game:
    """One press from a made pick to a Death Match its two players can sit down at: created and seated
    (`death_match_create`), its clocks set to start at `start_at` (the host's choice), and started, so each
    says "I'm here" from now on and the sweep starts the clocks then. All of it or nothing: a start the game
    refuses leaves no draft behind. A type whose hosts must set the match up first (`hidden_problems`: a
    host-run Death Match has no design yet) is left a draft, created and seated, for them to start."""
    now = now or site_now()
    if start_at <= now:
        raise RulesError("Pick a start time in the future: the players need time to come.", field="start_at")
    dm = death_match_create(pick=pick, actor=actor)
    if not actor.is_superuser:
        dm.hosts.add(
            actor
        )  # the season's host who made it runs it from its console, hosting its Main Match or not
    kind = registry.get(dm.game_type)
    if kind.flow == "turns":
        timed = {CLOCKS_START: AT_START_TIME, START_TIME: start_at.isoformat()}
        dm = game_settings_update(game=dm, settings=timed, actor=actor)
    if kind.hidden_problems(dm):
        return dm  # the hosts set it up on its console, then start it
    return game_start(game=dm, actor=actor, now=now)
