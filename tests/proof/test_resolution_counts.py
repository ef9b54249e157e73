"""Every game type's resolution (or live move) and pages stay within a recorded number of queries.

For every registered game type, at its own size (its max_players: 9 for the Horse Race, 10 for Cards on the
Table, 2 for the Middle Marathon, 7 for Arms Race, 30 for the host-run Main Match, 2 for its Death Match), a
game is started on its demo data and:

- flow "rounds": every seat saves a valid submission for the open round, then `rounds.round_resolve` runs;
- flow "turns": the seat the game waits on (`kind.pending(game)`) makes one legal move (`live.action_apply`).

That one step is counted against the type's recorded bound, and so are the game page (/games/<id>/) and the
API observation (/api/games/<id>/) as a player, the host and a spectator, after the step. Tally, the one game
whose size varies, is played at 10 and at 30 players and 30 may take no more queries than 10.

The platform does not know how to play a game, so each type is taught here, in PLAYS: a valid submission of
a seat for the open round, or a legal move for the seat owing it. A round that waits for its hosts before it
resolves (the host-run games: `resolve_round` raises NotReady until the hosts' Resolution is sent) is taught
`hosts_resolve(game, rnd)` too: it writes the hosts' work for the round (a sent Resolution) after the
submissions and before the counted step, so the step counts only the resolution itself. A new type with no
entry in PLAYS, or no recorded bound in BOUNDS, fails with its name and its measured counts, to be taught and
recorded here.

The counts are the same on SQLite and on Postgres (CI runs these tests on both). bench/resolution.py times the
same steps on Postgres from the same plays.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.platform import registry
from games.platform.models import Game, Round, Seat
from games.platform.services import games as game_services
from games.platform.services import live, rounds
from tests.sitting import all_here
from tests.toy_game import Tally, TallyDuel

pytestmark = pytest.mark.django_db


class Tally30(Tally):
    """Tally for up to 30: the variable-size game, played at 10 (as Tally) and at 30 (as this)."""

    slug = "tally_30"
    name = "Tally for 30 (test game)"
    max_players = 30


# -- how to play each game type: a seat's submission for the open round, or the waited-on seat's move -------


def tally_submission(game: Game, seat: Seat, rnd: Round) -> dict:
    return {"number": seat.number % 11, "secret_note": f"seat {seat.number}"}


def horse_race_submission(game: Game, seat: Seat, rnd: Round) -> dict:
    """Round 0: every seat uses an ability (each costs a card, so the resolution posts to the ledger)."""
    from games.horse_race.rules import HORSES

    assert rnd.number == 0, f"the Horse Race play knows Round 0, not Round {rnd.number}"
    if seat.number % 2:
        return {"ability": {"kind": "utility", "select": HORSES[(seat.number + 1) % len(HORSES)]}}
    return {"ability": {"kind": "clue", "use": {HORSES[seat.number % len(HORSES)]: 1}}}


def cards_table_submission(game: Game, seat: Seat, rnd: Round) -> dict:
    """Every seat saves a board guess (and from Round 2 a top guess); no heat guess, which awaits a host."""
    payload: dict = {
        "board_guess": [[[(seat.number + r + c) % 3 + 1, "blue"] for c in range(5)] for r in range(5)]
    }
    if rnd.number > 1:
        payload["top_guess"] = (seat.number + 1) % game.seats.count()
    return payload


def tally_duel_move(game: Game, seat: Seat) -> dict:
    return {"say": 1}


def middle_marathon_move(game: Game, seat: Seat) -> dict:
    from games.middle_marathon import rules

    legal = rules.legal_actions(rules.state_from_json(game.state), seat.number)
    assert legal, f"the Middle Marathon offers seat {seat.number} no legal move"
    return legal[0]


def arms_race_move(game: Game, seat: Seat) -> dict:
    """An attack told truthfully, a truthful call, a redirect, or declining the wild card."""
    from games.arms_race import rules

    decision = rules.legal_actions(rules.state_from_json(game.state), seat.number)
    assert decision is not None, f"Arms Race asks seat {seat.number} for no decision"
    options = decision["options"]
    if decision["kind"] == "wild_card":
        return {"type": "decline_wild"}
    if decision["kind"] == "attack":
        card = next(c for c in options["cards"] if c != "wild")
        return {"type": "attack", "card": card, "target": options["targets"][0], "claim": card}
    if decision["kind"] == "redirect":
        return {"type": "redirect", "target": options["targets"][0], "claim": options["claims"][0]}
    return {"type": "challenge", "call": options["challenge"][0]}


def host_run_submission(game: Game, seat: Seat, rnd: Round) -> dict:
    """Every question of the open round's form (as the game's state has it) answered validly."""
    from games.host_run.rules import round_fields
    from games.host_run.rules.fields import choices_bounds, keyed

    answers: dict = {}
    for field in keyed(round_fields(game.state, rnd.number)):
        kind, key = field["kind"], field["key"]
        if kind in ("short_text", "long_text"):
            answers[key] = f"seat {seat.number}"
        elif kind == "number":
            least, most = field["minimum"], field["maximum"]
            value = seat.number if least is None else least + seat.number
            answers[key] = value if most is None else min(value, most)
        elif kind == "choice":
            answers[key] = field["options"][seat.number % len(field["options"])]
        elif kind == "choices":
            answers[key] = field["options"][: choices_bounds(field)[0]]
        elif kind == "player":
            answers[key] = (seat.number + 1) % game.seats.count()
        elif kind == "yes_no":
            answers[key] = seat.number % 2 == 0
        else:
            raise AssertionError(f"the host-run play knows no question of kind {kind!r}")
    return answers


def host_run_resolve(game: Game, rnd: Round) -> None:
    """The hosts send the round's results: a public text, and every seat a private message and points."""
    from django.utils import timezone

    from games.host_run.models import Resolution, SeatResult

    resolution = Resolution.objects.create(
        game=game,
        round_number=rnd.number,
        public_text=f"Round {rnd.number}: **the vault** stays shut.",
        sent_at=timezone.now(),
    )
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                resolution=resolution,
                seat=seat,
                private_text=f"Seat {seat.number}: you hear a click.",
                points=seat.number % 3,
            )
            for seat in game.seats.all()
        ]
    )


@dataclass(frozen=True)
class Play:
    """How to play one step of a game type: exactly one of submission and move is given, by the type's flow.

    hosts_resolve, for a round that waits for its hosts, writes their work for the open round (after the
    submissions, outside the count)."""

    submission: Callable[[Game, Seat, Round], dict] | None = None
    move: Callable[[Game, Seat], dict] | None = None
    hosts_resolve: Callable[[Game, Round], None] | None = None


PLAYS: dict[str, Play] = {
    "tally": Play(submission=tally_submission),
    "tally_30": Play(submission=tally_submission),
    "tally_duel": Play(move=tally_duel_move),
    "horse_race": Play(submission=horse_race_submission),
    "cards_table": Play(submission=cards_table_submission),
    "middle_marathon": Play(move=middle_marathon_move),
    "arms_race": Play(move=arms_race_move),
    "host_run": Play(submission=host_run_submission, hosts_resolve=host_run_resolve),
    "host_run_death": Play(submission=host_run_submission, hosts_resolve=host_run_resolve),
}

# What is counted, after the step: each page as each viewer, rendered (an empty page cache) and, for the game
# page of players and spectators, served again from the page cache (hosts' pages are never cached).
STEP = "step"
PAGES = {  # name: (path, viewer, whether the page cache serves it)
    "page player": ("/games/{id}/", "player", True),
    "page host": ("/games/{id}/", "host", False),
    "page spectator": ("/games/{id}/", "spectator", True),
    "api player": ("/api/games/{id}/", "player", False),
    "api host": ("/api/games/{id}/", "host", False),
    "api spectator": ("/api/games/{id}/", "spectator", False),
}
CACHED = {f"{name} cached": name for name, (_, _, cached) in PAGES.items() if cached}
COUNTED = [STEP, *PAGES, *CACHED]

# The recorded bounds, per type: at most this many queries for the step (one resolution, or one move) and
# for each page after it. Postgres makes one query more in a resolution or a move than SQLite (its lock and
# statement limits, services/locks.py); the bounds are Postgres's. A rendered page counts the viewer's own
# profile (the header's name, the zone): the page cache's clearing before it drops the cached copy. A
# player's rendered page also sums their unread pair chats (one query). A step that owes an email or a webhook
# post writes its outbox row in its own transaction (one INSERT, games/platform/outbox.py): every step but the
# Middle Marathon's. A type without bounds fails with its counts.
BOUNDS: dict[str, dict[str, int]] = {
    "arms_race": {
        "step": 20,
        "page player": 14,
        "page player cached": 3,
        "page host": 15,
        "page spectator": 9,
        "page spectator cached": 1,
        "api player": 12,
        "api host": 14,
        "api spectator": 8,
    },
    "cards_table": {
        "step": 21,
        "page player": 14,
        "page player cached": 3,
        "page host": 16,
        "page spectator": 7,
        "page spectator cached": 1,
        "api player": 11,
        "api host": 15,
        "api spectator": 6,
    },
    "horse_race": {
        "step": 24,
        "page player": 15,
        "page player cached": 3,
        "page host": 15,
        "page spectator": 8,
        "page spectator cached": 1,
        "api player": 13,
        "api host": 14,
        "api spectator": 7,
    },
    "host_run": {
        "step": 25,
        "page player": 14,
        "page player cached": 2,
        "page host": 13,
        "page spectator": 6,
        "page spectator cached": 0,
        "api player": 10,
        "api host": 11,
        "api spectator": 5,
    },
    "host_run_death": {
        "step": 25,
        "page player": 14,
        "page player cached": 2,
        "page host": 13,
        "page spectator": 6,
        "page spectator cached": 0,
        "api player": 10,
        "api host": 11,
        "api spectator": 5,
    },
    "middle_marathon": {
        "step": 19,
        "page player": 15,
        "page player cached": 3,
        "page host": 16,
        "page spectator": 11,
        "page spectator cached": 1,
        "api player": 14,
        "api host": 15,
        "api spectator": 10,
    },
    "tally": {
        "step": 23,
        "page player": 14,
        "page player cached": 3,
        "page host": 13,
        "page spectator": 6,
        "page spectator cached": 1,
        "api player": 10,
        "api host": 11,
        "api spectator": 5,
    },
    "tally_30": {
        "step": 23,
        "page player": 14,
        "page player cached": 3,
        "page host": 13,
        "page spectator": 6,
        "page spectator cached": 1,
        "api player": 10,
        "api host": 11,
        "api spectator": 5,
    },
    "tally_duel": {
        "step": 20,
        "page player": 14,
        "page player cached": 3,
        "page host": 14,
        "page spectator": 9,
        "page spectator cached": 1,
        "api player": 12,
        "api host": 13,
        "api spectator": 8,
    },
}

# Who plays what: every registered type at its own size, Tally at 10 and at 30.
VARIABLE = ("tally", 10, "tally_30", 30)


def players_for(kind) -> int:
    if kind.slug == VARIABLE[0]:
        return VARIABLE[1]
    if kind.slug == VARIABLE[2]:
        return VARIABLE[3]
    return kind.max_players


def register_test_types() -> list[str]:
    """Register the test-only types that are not registered yet; return their slugs (to unregister)."""
    added = []
    for kind in (Tally(), TallyDuel(), Tally30()):
        try:
            registry.get(kind.slug)
        except LookupError:
            registry.register(kind)
            added.append(kind.slug)
    return added


def every_case() -> list[str]:
    slugs = {k.slug for k in registry.all_types()} | {"tally", "tally_duel", "tally_30"}
    return sorted(slugs)


# -- one game of a type, ready for its step -----------------------------------------------------------------


def game_ready(slug: str, *, season, host, users) -> Game:
    """A running game of `slug` on its demo data, seated with the first players_for(kind) of `users`."""
    kind = registry.get(slug)
    players = players_for(kind)
    assert len(users) >= players, f"{slug} needs {players} players"
    game = game_services.game_create(
        season=season,
        game_type=slug,
        name=f"{kind.name} of {players}",
        hosts=[host],
        settings={"window_minutes": 24 * 60},
        actor=host,
    )
    for user in users[:players]:
        game_services.game_seat(game=game, user=user, actor=host)
    kind.demo_prepare(game)
    game_services.game_start(game=game, actor=host)
    all_here(game)  # the players sit down: the clocks run
    game.refresh_from_db()
    return game


def play_for(slug: str) -> Play:
    play = PLAYS.get(slug)
    if play is None:
        raise LookupError(
            f"The game type {slug!r} has no play in tests/proof/test_resolution_counts.py PLAYS: teach it a"
            " valid submission for the open round (flow 'rounds') or a legal move for the seat owing it (flow"
            " 'turns')."
        )
    return play


def step_prepare(game: Game) -> Callable[[], str | None]:
    """Save every seat's submission for the open round (and the hosts' results, where the round waits for
    them), or pick the move owed; return the step to run.

    The step returns None when it did what it should (the round resolved, the move applied), else what went
    wrong; it runs no query of its own besides the platform's, so its queries can be counted.
    """
    kind = registry.get(game.game_type)
    play = play_for(kind.slug)
    if kind.flow == "rounds":
        assert play.submission is not None, f"{kind.slug} plays rounds: its play needs a submission"
        rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
        assert rnd is not None, f"{kind.slug} opened no round"
        for seat in game.seats.select_related("user").order_by("number"):
            seat.game = game
            payload = play.submission(game, seat, rnd)
            rounds.submission_save(seat=seat, round_number=rnd.number, payload=payload)
        if play.hosts_resolve is not None:
            play.hosts_resolve(game, rnd)

        def resolve() -> str | None:
            if rounds.round_resolve(round_id=rnd.pk, early=True):
                return None
            rnd.refresh_from_db()
            return f"Round {rnd.number} of {kind.slug} did not resolve: {rnd.status} {rnd.last_error}"

        return resolve
    assert play.move is not None, f"{kind.slug} plays turns: its play needs a move"
    game.refresh_from_db()
    pending = kind.pending(game)
    assert pending is not None, f"{kind.slug} waits on nobody after its start"
    # The seat as the API's action view has it: the viewer's seat, with the game attached.
    seat = Seat.objects.get(game=game, number=pending.seat_number)
    seat.game = game
    payload = play.move(game, seat)

    def move() -> str | None:
        live.action_apply(seat=seat, payload=payload)  # an illegal move raises RulesError
        return None

    return move


# -- the tests ----------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def test_types():
    added = register_test_types()
    yield
    for slug in added:
        registry.unregister(slug)


@pytest.fixture
def users(make_user):
    most = max(players_for(kind) for kind in registry.all_types())
    return [make_user(f"p{i}") for i in range(most)]


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def viewer_user(game: Game, role: str, host):
    if role == "host":
        return host
    if role == "player":
        return game.seats.order_by("number").first().user
    return None


def count(fn) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = fn()
    return len(captured.captured_queries), result


@contextmanager
def counting(into: dict[str, int], name: str):
    with CaptureQueriesContext(connection) as captured:
        yield
    into[name] = len(captured.captured_queries)


def step_and_pages(game: Game, step: Callable[[], str | None], host, within) -> None:
    """Run the step, then request every page as its viewer, each inside the context manager within(name).

    A page is counted rendered: a first request has warmed the per-process caches (the session, the content
    types) and the page cache is emptied right before. Then, if the page cache serves it, counted again.
    """
    with within(STEP):
        problem = step()
    assert problem is None, problem
    for name, (path, role, cached) in PAGES.items():
        client, url = client_as(viewer_user(game, role, host)), path.format(id=game.id)
        assert client.get(url).status_code == 200, f"{url} as {role}"
        cache.clear()
        with within(name):
            response = client.get(url)
        assert response.status_code == 200, f"{url} as {role}"
        if cached and settings.GENIUS_PAGE_CACHE:
            with within(f"{name} cached"):
                response = client.get(url)
            assert response.status_code == 200, f"{url} as {role}"


def measured(game: Game, step: Callable[[], str | None], host) -> dict[str, int]:
    counted: dict[str, int] = {}
    step_and_pages(game, step, host, lambda name: counting(counted, name))
    return counted


def test_every_registered_type_is_taught_and_bounded():
    registered = sorted(k.slug for k in registry.all_types())
    untaught = [slug for slug in registered if slug not in PLAYS]
    assert not untaught, (
        f"Game types with no play in tests/proof/test_resolution_counts.py PLAYS: {untaught}."
        " Teach each a valid submission for the open round (flow 'rounds') or a legal move (flow 'turns')."
    )
    unbounded = [slug for slug in registered if set(BOUNDS.get(slug, {})) != set(COUNTED)]
    assert not unbounded, f"Game types without a bound for each of {COUNTED} in BOUNDS: {unbounded}"


@pytest.mark.parametrize("slug", every_case())
def test_one_step_and_the_pages_after_it_stay_within_their_bounds(
    slug, season, hank, users, django_assert_max_num_queries
):
    game = game_ready(slug, season=season, host=hank, users=users)
    step = step_prepare(game)
    bounds = BOUNDS.get(slug)
    if bounds is None:
        pytest.fail(
            f"No bounds are recorded for {slug!r} in tests/proof/test_resolution_counts.py BOUNDS; it takes"
            f" {measured(game, step, hank)!r} queries now."
        )
    step_and_pages(game, step, hank, lambda name: django_assert_max_num_queries(bounds[name]))


def test_tally_at_30_players_takes_no_more_queries_than_at_10(season, hank, users):
    """The variable-size game: the step and every page at 30 players within the counts at 10."""
    small_slug, small_players, large_slug, large_players = VARIABLE
    counted = {}
    for slug in (small_slug, large_slug):
        game = game_ready(slug, season=season, host=hank, users=users)
        assert game.seats.count() == players_for(registry.get(slug))
        counted[slug] = measured(game, step_prepare(game), hank)
    grew = {
        name: (counted[small_slug][name], counted[large_slug][name])
        for name in counted[small_slug]
        if counted[large_slug][name] > counted[small_slug][name]
    }
    assert not grew, f"queries at {small_players} and at {large_players} players: {grew}"


def heat_round_counts(guessers: int, season, hank, users) -> dict[str, int]:
    """A Cards on the Table round where `guessers` seats guess the heat indicator and the host judges each:
    the queries of the host's page and of the resolution."""
    from games.platform.registry import Viewer
    from games.platform.services.live import operation_run

    game = game_ready("cards_table", season=season, host=hank, users=users)
    rnd = game.rounds.get(status=Round.Status.OPEN)
    for seat in game.seats.order_by("number"):
        seat.game = game
        payload = cards_table_submission(game, seat, rnd)
        if seat.number < guessers:
            payload["heat_guess"] = f"the heat card of seat {seat.number} is red"
        rounds.submission_save(seat=seat, round_number=rnd.number, payload=payload)
    host_viewer = Viewer(role="host", user=hank)
    for number in range(guessers):
        operation_run(
            game=game, viewer=host_viewer, name="judge_heat", payload={"seat": number, "correct": True}
        )
    host = client_as(hank)
    host.get(f"/games/{game.id}/")
    page, _ = count(lambda: host.get(f"/games/{game.id}/"))
    resolved, done = count(lambda: rounds.round_resolve(round_id=rnd.pk, early=True))
    assert done, Round.objects.get(pk=rnd.pk).last_error
    return {"host page": page, "resolution": resolved}


def test_cards_on_the_table_heat_guesses_do_not_add_queries(season, hank, users):
    """The hosts' verdicts are read in one query for the round, not one per guess."""
    one = heat_round_counts(1, season, hank, users)
    every = heat_round_counts(10, season, hank, users)
    assert every == one, f"one heat guess: {one}; ten: {every}"
