"""The hosts create the Death Match of an Elimination Candidate's pick in one step."""

from __future__ import annotations

from django.db import transaction

from .. import registry
from ..errors import NotAllowed, StateChanged
from ..kit import RulesError
from ..models import DeathMatchPick, Game
from .audit import audit
from .games import game_create, game_seat
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
