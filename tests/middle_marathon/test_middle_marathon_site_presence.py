"""The flood of issue 30 ("43 'your turn' emails during one 15-minute Middle Marathon she was playing on the
page"), played again: a move every 20 s for 15 minutes; Blue watches the page and gets no message, Red does
not and gets one per turn the race waited on him, however often the move came back to him within it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.middle_marathon import rules
from games.platform import outbox, presence
from games.platform.models import TurnClock
from games.platform.services.live import action_apply
from tests.middle_marathon.marathon_site import marathon_game, state_of
from tests.platform.test_notifications import your_turn_by_email

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def test_fifteen_minutes_of_moves_tell_the_watching_player_nothing_and_the_other_once_a_turn(
    season, hank, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    your_turn_by_email(alice, bob)  # by default "your turn" comes by Discord or push, not email
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks(execute=True):
        game = marathon_game(season, hank, alice, bob)  # Blue (alice) goes first
    seats = {seat.number: seat for seat in game.seats.all()}
    rng = random.Random(30)
    bobs_turns = set()
    moves = 0
    for step in range(1, 46):  # a move every 20 s: 15 minutes
        with time_machine.travel(T0 + timedelta(seconds=20 * step), tick=False):
            presence.seen(alice.pk, game.pk, True)  # her page polls, visible
            state = state_of(game)
            if state.result is not None:
                break
            mover = rules.pending(state)["seat"]
            with django_capture_on_commit_callbacks(execute=True):
                action_apply(seat=seats[mover], payload=rng.choice(rules.legal_actions(state, mover)))
            moves += 1
            clock = TurnClock.objects.select_related("seat").get(game=game)
            if clock.seat is not None and clock.seat.user_id == bob.pk:
                bobs_turns.add(clock.turn_key)
        with time_machine.travel(T0 + timedelta(seconds=20 * step + 11), tick=False):
            outbox.relay()  # each "your turn" 11 s after the move that owed it
    told = [(m.to[0], m.subject) for m in mailoutbox if ": your " in m.subject and "reserve" not in m.subject]
    assert moves >= 30
    assert [who for who, _ in told if who == "alice@example.com"] == []
    assert len([who for who, _ in told if who == "bob@example.com"]) == len(bobs_turns)
    assert len(told) < moves / 2
