"""One reading of a game reads its seats and latest round once, and only while it lasts."""

from __future__ import annotations

import pytest

from games.platform.models import Seat
from games.platform.observation import current_round, reading, seats_with_players
from tests.proof.test_query_counts import count

pytestmark = pytest.mark.django_db


def test_inside_a_reading_the_seats_and_the_round_are_read_once(tally):
    with reading(tally):
        assert count(lambda: (seats_with_players(tally), current_round(tally))) == 2
        assert count(lambda: (seats_with_players(tally), current_round(tally))) == 0
        with reading(tally):  # a reading inside another keeps the outer one's answers
            assert count(lambda: seats_with_players(tally)) == 0
        assert count(lambda: seats_with_players(tally)) == 0
    assert not hasattr(tally, "_reading")


def test_after_a_reading_a_change_on_the_same_object_is_seen(tally, make_user):
    with reading(tally):
        before = [s.user.username for s in seats_with_players(tally)]
    Seat.objects.create(game=tally, user=make_user("newcomer"), number=len(before))
    after = [s.user.username for s in seats_with_players(tally)]
    assert after == [*before, "newcomer"]
    assert count(lambda: seats_with_players(tally)) == 1  # outside a reading, every call asks
