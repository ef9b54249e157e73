"""A player's write to a game whose rows another transaction holds (a stuck request, an admin edit left open)
waits GENIUS_LOCK_WAIT_SECONDS at most, then answers "busy, try again" (409 with Retry-After), keeping what
the player typed; nothing is stored meanwhile, and the same request succeeds once the rows are free
(issue 28.3). Row locks need PostgreSQL; the web worker freed for other games is shown on a live gunicorn in
tests/faults/test_database_faults.py."""

from __future__ import annotations

import contextlib
import json
import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from games.platform.models import ChatMessage, Game, Round, Submission
from games.platform.services import games as game_services
from tests.api_support import api, page_client
from tests.sitting import all_here

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

BUSY = "Another change to this game is under way; try again in a moment."


@pytest.fixture(autouse=True)
def short_waits(settings):
    if connection.vendor != "postgresql":
        pytest.skip("Row locks need PostgreSQL.")
    settings.GENIUS_LOCK_WAIT_SECONDS = 0.5


@contextlib.contextmanager
def held(queryset):
    """Another connection locks the row `queryset` finds (FOR UPDATE) and keeps it until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                queryset.select_for_update().get()
                taken.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(10)
        yield
    finally:
        release.set()
        holder.join(30)


def quickly(request):
    """The answer, and that it came within the lock wait and some slack (never as long as the row is held)."""
    started = time.monotonic()
    answer = request()
    assert time.monotonic() - started < 5, "the request waited for the held row"
    return answer


def assert_busy(answer):
    assert answer.status_code == 409, answer.status_code
    assert answer["Retry-After"] == "1"


def test_a_save_to_a_held_round_is_busy_through_the_api_and_stores_nothing(tally, alice):
    url = reverse("api-submission", args=[tally.id])
    body = {"round": 0, "payload": {"number": 7}}
    with held(Round.objects.filter(game=tally, number=0)):
        answer = quickly(lambda: api(alice).post(url, body, format="json"))
        assert_busy(answer)
        assert answer.json()["detail"] == BUSY
    assert not Submission.objects.exists()
    assert api(alice).post(url, body, format="json").status_code == 201  # the rows free: sent again, saved


def test_a_save_on_the_page_to_a_held_round_comes_back_with_what_the_player_typed(tally, alice):
    page = page_client(alice)
    form = {"round_number": "0", "number": "7", "secret_note": "kept-while-busy", "save": "1"}
    with held(Round.objects.filter(game=tally, number=0)):
        answer = quickly(lambda: page.post(f"/games/{tally.id}/", form))
    assert_busy(answer)
    html = answer.content.decode()
    assert BUSY in html
    assert 'value="kept-while-busy"' in html and 'value="7"' in html
    assert not Submission.objects.exists()


@pytest.fixture
def duel(season, hank, alice, bob):
    game = game_services.game_create(season=season, game_type="tally_duel", name="Duel", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=game, user=user, actor=hank)
    game_services.game_start(game=game, actor=hank)
    all_here(game)
    return game


def test_a_live_move_to_a_held_game_is_busy_through_the_api_and_the_page(duel, alice):
    version = Game.objects.get(pk=duel.pk).version
    url = reverse("api-action", args=[duel.id])
    with held(Game.objects.filter(pk=duel.pk)):
        answer = quickly(lambda: api(alice).post(url, {"payload": {"say": 1}}, format="json"))
        assert_busy(answer)
        assert answer.json()["detail"] == BUSY
        page = quickly(
            lambda: page_client(alice).post(f"/games/{duel.id}/", {"action": json.dumps({"say": 1})})
        )
        assert_busy(page)
        assert BUSY in page.content.decode()
    assert Game.objects.get(pk=duel.pk).version == version  # no move was made
    assert api(alice).post(url, {"payload": {"say": 1}}, format="json").status_code == 200


def test_a_pair_chat_message_to_a_held_game_is_busy_with_the_draft_kept(tally, alice):
    with held(Game.objects.filter(pk=tally.pk)):
        answer = quickly(
            lambda: page_client(alice).post(f"/games/{tally.id}/chats/0-1/", {"text": "meet at 9"})
        )
    assert_busy(answer)
    html = answer.content.decode()
    assert BUSY in html and "meet at 9" in html
    assert not ChatMessage.objects.exists()


def test_a_game_found_held_is_only_glanced_at_for_a_moment_and_other_games_wait_for_nothing(
    season, hank, tally, alice, bob, settings
):
    """One request waits the whole GENIUS_LOCK_WAIT_SECONDS for a held game; the next ones within its
    Retry-After answer at once, so a crowd of saves to a stuck round ties up no web worker for long."""
    settings.GENIUS_LOCK_WAIT_SECONDS = 1  # far from a glance (0.1 s), however loaded the machine
    other = game_services.game_create(season=season, game_type="tally", name="Other", hosts=[hank])
    for user in (alice, bob):
        game_services.game_seat(game=other, user=user, actor=hank)
    game_services.game_start(game=other, actor=hank)
    body = {"round": 0, "payload": {"number": 3}}
    with held(Round.objects.filter(game=tally, number=0)):
        started = time.monotonic()
        assert_busy(api(alice).post(reverse("api-submission", args=[tally.id]), body, format="json"))
        assert time.monotonic() - started >= 1  # the first waited the whole wait
        for user in (alice, bob):
            started = time.monotonic()
            assert_busy(api(user).post(reverse("api-submission", args=[tally.id]), body, format="json"))
            assert time.monotonic() - started < 0.7  # the next ones only glanced
        assert (
            api(alice).post(reverse("api-submission", args=[other.id]), body, format="json").status_code
            == 201
        )
    # Free again: a glance takes the rows, and the save is stored.
    assert api(bob).post(reverse("api-submission", args=[tally.id]), body, format="json").status_code == 201
