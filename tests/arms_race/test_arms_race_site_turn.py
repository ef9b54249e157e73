"""Whom the table waits on, on the live page (issue 20.3): in a wild card break everyone who has not decided
decides at once, and every viewer is told all of them ("Waiting for ana, ben and 5 others"), not the first
alone; each of them sees "Your decision". Who still decides is public (the rules' pending decision is in the
public view, ruling 26); whether one bought a card is not, and a buy and a decline read alike."""

from __future__ import annotations

import pytest

from tests.arms_race.arms_race_site import NAMES, act, arms_game
from tests.live_pages import page, text_of, turn_line, your

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    return [make_user(name) for name in NAMES]


@pytest.fixture
def at_the_break(season, hank, table):
    """Seven players at a wild card break before the first round: all seven decide at once."""
    return arms_game(season, hank, table, settings={"wild_before_first_round": True})


def test_at_a_break_every_viewer_is_told_everyone_who_decides(at_the_break, table, hank, make_user):
    game = at_the_break
    ana, ben = table[0], table[1]
    for watcher in (make_user("zed"), None, hank):
        html = page(game, watcher)
        assert turn_line(html) == "Waiting for ana, ben and 5 others (wild card)"
        assert your(html) is None
    html = page(game, ben)
    assert turn_line(html) == "Your decision (wild card) Deciding at the same time: ana, cleo and 4 others."
    assert your(html) == "decision"
    # The table's own line does not tell a deciding player they are waited for.
    assert 'class="ar-decision"' not in html

    assert act(game, ana, {"type": "decline_wild"}).status_code == 200
    html = page(game, ana)
    assert turn_line(html) == "Waiting for ben, cleo and 4 others (wild card)" and your(html) == ""
    assert turn_line(page(game, None)) == "Waiting for ben, cleo and 4 others (wild card)"
    assert text_of(html, r'class="ar-decision"[^>]*>(.*?)</p>') == (
        "Waiting for ben, cleo, dev, eli, fay, gus to buy or decline a wild card."
    )
    assert turn_line(page(game, table[6])).startswith("Your decision (wild card)")


def test_one_attacker_sees_your_decision_and_the_others_wait_for_them(season, hank, table, make_user):
    game = arms_game(season, hank, table[:3])
    html = page(game, table[0])
    assert turn_line(html) == "Your decision (attack)" and your(html) == "decision"
    for viewer in (table[1], table[2], make_user("zed"), None):
        assert turn_line(page(game, viewer)) == "Waiting for ana (attack)"


def test_the_last_one_deciding_is_named_alone(at_the_break, table):
    game = at_the_break
    for user in table[:5]:
        assert act(game, user, {"type": "decline_wild"}).status_code == 200
    assert turn_line(page(game, None)) == "Waiting for fay and gus (wild card)"
    assert act(game, table[5], {"type": "decline_wild"}).status_code == 200
    assert turn_line(page(game, None)) == "Waiting for gus (wild card)"
    assert turn_line(page(game, table[6])) == "Your decision (wild card)"


def test_awaiting_asks_each_player_deciding_at_a_break_not_only_the_clocks_first(at_the_break, table):
    # The clock names ana (the first still deciding); ben decides at the same time, and is asked too: on his
    # home page, and in the count in front of his title.
    from games.platform.awaiting import DECISION, awaiting

    game = at_the_break
    for user in (table[0], table[1], table[6]):
        assert [(a.game_id, a.need) for a in awaiting(user)] == [(game.id, DECISION)]
    assert act(game, table[1], {"type": "decline_wild"}).status_code == 200
    assert awaiting(table[1]) == []
    assert [a.need for a in awaiting(table[0])] == [DECISION]
