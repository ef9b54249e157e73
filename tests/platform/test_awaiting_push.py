"""What awaits a player moves: their channel hears it once the change commits (issue 32.1, docs/live.md).

A player's home page ("Awaiting you") and every page's title count follow `counts` (and `mine`, their own
part of a game) on the player's own channel, so they need no poll but the safety net's. Each way what awaits
a player can change is driven here through the service that changes it, and the player's channel is read:
nothing inside the transaction, the event once it commits, nothing when it rolls back. What is published is
recorded where it would leave for Redis (`live_push.send`), so no Redis is needed.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import transaction
from django.urls import reverse

from games.middle_marathon import rules as marathon_rules
from games.platform import live_push, registry
from games.platform.awaiting import awaiting
from games.platform.services import games as game_services
from games.platform.services.absence import leaver_replace
from games.platform.services.live import action_apply
from games.platform.services.rounds import round_resolve, round_resolve_now, submission_save
from games.platform.services.season import pick_open
from games.platform.services.sweep import sweep
from games.platform.services.unread import inbox_opened
from tests.arms_race.arms_race_site import NAMES, arms_game
from tests.conftest import seat_of
from tests.middle_marathon.marathon_site import marathon_game, state_of
from tests.toy_game import TallyByHand

pytestmark = pytest.mark.django_db

COUNTS = {"event": "counts"}


@pytest.fixture
def sent(settings, monkeypatch):
    """Every message published, as (channel, data), in order: push is on, and Redis is never asked."""
    settings.GENIUS_PUSH_URL = "redis://push.invalid:6379/0"
    published: list[tuple[str, dict]] = []
    monkeypatch.setattr(live_push, "send", published.extend)
    return published


def heard(sent, user) -> list[dict]:
    return [data for name, data in sent if name == live_push.channel("user", user.pk)]


# Each case sets a game up (before anything is recorded) and answers (the change, whose list it moves,
# the event their channel must carry). The change runs in the test's transaction, as a service's would.


def round_resolved_by_a_host(get):
    tally, hank, alice = get("tally"), get("hank"), get("alice")
    return lambda: round_resolve_now(game=tally, actor=hank), alice, COUNTS


def round_resolved_by_the_sweep(get):
    # Beat's sweep finds the round past its deadline and queues its resolution; the worker (Celery, inline in
    # the tests) resolves it after the sweep's commit, in a transaction of its own.
    tally, bob, clock = get("tally"), get("bob"), get("time_machine")
    later = tally.rounds.get(number=0).closes_at + dt.timedelta(minutes=1)

    def change():
        clock.move_to(later, tick=False)  # for the rest of the test: the worker's task runs after the commit
        assert sweep()["rounds"] == 1

    return change, bob, COUNTS


def round_opened_by_hand(get):
    registry.register(TallyByHand())
    get("request").addfinalizer(lambda: registry.unregister("tally_by_hand"))
    season, hank, alice, bob = get("season"), get("hank"), get("alice"), get("bob")
    game = game_services.game_create(season=season, game_type="tally_by_hand", name="By hand", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    assert round_resolve(round_id=game.rounds.get(number=1).id, early=True, actor=hank)
    assert not [a for a in awaiting(alice) if a.need == "not_submitted"]
    return lambda: game_services.round_open_by_hand(game=game, actor=hank), alice, COUNTS


def turn_passing_in_a_middle_marathon(get):
    alice, bob = get("alice"), get("bob")
    game = marathon_game(get("season"), get("hank"), alice, bob)  # Blue (alice) moves first
    move = random.Random(3).choice(marathon_rules.legal_actions(state_of(game), 0))
    return lambda: action_apply(seat=seat_of(game, alice), payload=move), bob, COUNTS


def decision_taken_in_an_arms_race(get):
    # At a wild card break everyone decides at once: ana's decision leaves her list.
    table = [get("make_user")(name) for name in NAMES[:3]]
    game = arms_game(get("season"), get("hank"), table, settings={"wild_before_first_round": True})
    ana = table[0]
    return lambda: action_apply(seat=seat_of(game, ana), payload={"type": "decline_wild"}), ana, COUNTS


def submission_made(get):
    tally, alice = get("tally"), get("alice")

    def save():
        submission_save(seat=seat_of(tally, alice), round_number=0, payload={"number": 3}, final=True)

    return save, alice, {"event": "mine", "game": tally.pk}


def game_started(get):
    season, hank, alice, bob = get("season"), get("hank"), get("alice"), get("bob")
    game = game_services.game_create(season=season, game_type="tally", name="New", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    return lambda: game_services.game_start(game=game, actor=hank), alice, COUNTS


def _seat_given(get):
    tally, hank = get("tally"), get("hank")
    get("charlie")
    return lambda: leaver_replace(game=tally, seat_number=0, username="charlie", actor=hank)


def seated_in_a_leavers_place(get):
    return _seat_given(get), get("charlie"), COUNTS


def unseated_their_place_given_to_another(get):
    return _seat_given(get), get("alice"), COUNTS


def death_match_pick_owed(get):
    tally, alice = get("tally"), get("alice")
    return lambda: pick_open(game=tally, candidate=alice, now=tally.rounds.get().opens_at), alice, COUNTS


def results_read_on_the_games_page(get):
    tally, hank, alice = get("tally"), get("hank"), get("alice")
    round_resolve_now(game=tally, actor=hank)
    tally.refresh_from_db()
    assert [a.need for a in awaiting(alice)].count("results") == 1

    def read():
        inbox_opened(game_id=tally.pk, user_id=alice.pk, version=tally.version)

    return read, alice, COUNTS


CASES = [
    round_resolved_by_a_host,
    round_resolved_by_the_sweep,
    round_opened_by_hand,
    turn_passing_in_a_middle_marathon,
    decision_taken_in_an_arms_race,
    submission_made,
    game_started,
    seated_in_a_leavers_place,
    unseated_their_place_given_to_another,
    death_match_pick_owed,
    results_read_on_the_games_page,
]


@pytest.mark.parametrize("case", CASES, ids=[case.__name__ for case in CASES])
def test_the_players_channel_hears_it_after_the_commit(
    case, request, sent, django_capture_on_commit_callbacks
):
    change, player, event = case(_get(request))
    before = awaiting(player)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        change()
        assert heard(sent, player) == [], "nothing is told inside the transaction"
    assert event in heard(sent, player)
    assert awaiting(player) != before, "the case moves what awaits the player"


@pytest.mark.parametrize("case", CASES, ids=[case.__name__ for case in CASES])
def test_nothing_is_heard_when_it_rolls_back(case, request, sent, django_capture_on_commit_callbacks):
    change, player, _ = case(_get(request))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RolledBack), transaction.atomic():
            change()
            raise RolledBack
    assert heard(sent, player) == []


class RolledBack(Exception):
    pass


def _get(request):
    """A case's fixtures by name, and the test's own request (for a finalizer)."""
    return lambda name: request if name == "request" else request.getfixturevalue(name)


def test_every_seated_player_is_told_when_the_game_moves_and_nobody_else(
    tally, alice, bob, charlie, hank, sent, django_capture_on_commit_callbacks
):
    # The version's news goes to the players only: a spectator's or a host's list holds nothing of the game.
    from games.platform.services.events import bump_version

    with django_capture_on_commit_callbacks(execute=True):
        bump_version(tally)
    told = {name for name, data in sent if data == COUNTS}
    assert told == {live_push.channel("user", alice.pk), live_push.channel("user", bob.pk)}
    game_channel = [data for name, data in sent if name == live_push.channel("game", tally.pk)]
    assert [data["event"] for data in game_channel] == ["version"], "the public channel carries no counts"
    # The players are told after the version is: their pages fetch what the commit moved, in that order.
    assert sent[0][0] == live_push.channel("game", tally.pk)


def test_a_seat_given_to_another_in_the_admin_tells_its_player_before(
    tally, alice, charlie, make_user, client, sent, django_capture_on_commit_callbacks
):
    # The game's admin page lets whoever may change seats give one to another user, with the game running.
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    client.force_login(boss)
    url = reverse("admin:platform_game_change", args=[tally.id])
    data = _as_posted(client.get(url))
    data["seats-0-user"] = charlie.pk
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302
    assert list(tally.seats.order_by("number").values_list("user", flat=True))[0] == charlie.pk
    assert awaiting(alice) == []
    assert COUNTS in heard(sent, alice), "alice's list loses the game: her pages are told"
    assert COUNTS in heard(sent, charlie)


def _as_posted(page) -> dict:
    """The admin change form's fields and its inlines' as the page shows them, to post back."""
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    return {
        form.add_prefix(name): form[name].value()
        for form in forms
        for name in form.fields
        if form[name].value() is not None
    }
