"""The season's part of the contract: every Main Match names its Elimination Candidate, every Death Match its
loser, and a game type that forgets its hook is refused when it registers (as `hidden_perturb` is required).
"""

from __future__ import annotations

import pytest

from games.platform import registry
from games.platform.kit import RulesError
from games.platform.models import DeathMatchPick, Season
from games.platform.registry import DEATH_MATCH, MAIN_MATCH, GameType, Outcome
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_create
from tests.proof.test_hidden_perturbation import every_type, running_game

pytestmark = pytest.mark.django_db


class ForgetfulMainMatch(GameType):
    slug = "forgetful_main"
    name = "Forgetful Main Match"
    match_kind = MAIN_MATCH

    def start(self, game):
        return Outcome(state={})


class ForgetfulDeathMatch(GameType):
    slug = "forgetful_death"
    name = "Forgetful Death Match"
    match_kind = DEATH_MATCH
    min_players = max_players = 2

    def elimination_candidate(self, game):
        return 0  # the other kind's hook does not stand in for its own


class NoKind(GameType):
    slug = "no_kind"
    name = "A game of no kind"

    def elimination_candidate(self, game):
        return 0

    def match_loser(self, game):
        return 1


def test_every_registered_game_type_says_its_kind_of_match_and_defines_its_hook():
    kinds = {t.slug: t for t in registry.all_types()}
    assert {"horse_race", "cards_table", "arms_race", "middle_marathon"} <= set(kinds)
    problems = {slug: registry.contract_problems(kind) for slug, kind in kinds.items()}
    assert problems == dict.fromkeys(kinds, [])
    games = ("horse_race", "cards_table", "arms_race", "middle_marathon")
    assert [kinds[slug].match_kind for slug in games] == [MAIN_MATCH, MAIN_MATCH, MAIN_MATCH, DEATH_MATCH]


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        (ForgetfulMainMatch(), "forgetful_main: a Main Match must define elimination_candidate(game)"),
        (ForgetfulDeathMatch(), "forgetful_death: a Death Match must define match_loser(game)"),
        (NoKind(), "no_kind: match_kind must be MAIN_MATCH or DEATH_MATCH, not ''"),
    ],
    ids=["main-match-without-its-ec", "death-match-without-its-loser", "no-kind-of-match"],
)
def test_a_game_type_that_forgets_its_season_hook_is_refused_when_it_registers(kind, says):
    assert registry.contract_problems(kind) == [says]
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        registry.register(kind)
    with pytest.raises(LookupError):
        registry.get(kind.slug)


def test_the_base_hooks_raise_rather_than_name_nobody():
    # A forgotten hook cannot pass for "no Elimination Candidate" or "a draw": both raise.
    with pytest.raises(NotImplementedError, match="does not name its Elimination Candidate"):
        ForgetfulMainMatch().elimination_candidate(None)
    with pytest.raises(NotImplementedError, match="does not name its loser"):
        ForgetfulDeathMatch().match_loser(None)


@pytest.mark.parametrize("slug", every_type())
def test_each_types_hook_answers_a_seat_or_nobody_for_any_started_game(slug, make_user):
    # The platform asks only once the game is over; the hook must still read any started state unharmed.
    kind = registry.get(slug)
    game = running_game(kind, make_user)[0]
    hook = getattr(kind, registry.SEASON_HOOK[kind.match_kind])
    assert hook(game) in (None, *range(game.seats.count()))


def test_the_hosts_cannot_make_a_death_match_of_a_main_match_type(hank, alice, bob):
    season = Season.objects.create(name="S", settings={"death_match_type": "horse_race"})
    season.hosts.add(hank)
    mm = game_services.game_create(
        season=season, game_type="tally", name="MM", hosts=[hank], settings={"rounds": 1}, actor=hank
    )
    pick = DeathMatchPick.objects.create(
        main_match=mm, candidate=alice, opponent=bob, deadline=mm.created_at, status="picked"
    )
    with pytest.raises(RulesError, match="Blackout Middle Horse Race is not a Death Match."):
        death_match_create(pick=pick, actor=hank)
    assert mm.season.games.count() == 1
