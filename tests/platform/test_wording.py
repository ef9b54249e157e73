"""The site's words as a player reads them: no "1:00:00", no "cards:A", no "paused" under "Running", no
stray space in "(closes in 2h)", and the API linked from the footer, not the players' top bar."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.platform.services import games as game_services
from games.platform.services import rounds
from games.platform.templatetags.ledger import balance_label
from games.platform.zones import span_text

pytestmark = pytest.mark.django_db


def page_of(user, game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/games/{game.id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_lengths_of_time_and_balances_are_said_in_words():
    assert span_text(timedelta(hours=1)) == "1 hour"
    assert span_text(timedelta(hours=24)) == "24 hours"
    assert span_text(timedelta(minutes=90)) == "1 hour 30 minutes"
    assert span_text(timedelta(seconds=45)) == "45 seconds"
    assert balance_label("cards:A") == "A cards"
    assert balance_label("tokens_of_life") == "Tokens of Life"
    assert balance_label("garnets") == "garnets"


def test_the_status_says_paused_and_the_feed_says_by_how_long_a_round_was_extended(tally, alice, hank):
    game_services.game_pause(game=tally, actor=hank)
    text = page_of(alice, tally)
    assert "<strong>Paused by the hosts</strong>" in text and "Running" not in text
    game_services.game_resume(game=tally, actor=hank)
    game_services.round_extend(game=tally, by=timedelta(hours=1), actor=hank)
    text = page_of(alice, tally)
    assert "The hosts extended Round 0 by 1 hour." in text
    # The countdown is followed by its bracket with no space ("(closes in 2h)"), and says what it counts to.
    assert 'data-lead="closes"' in text and "</time>)</small>" in text


def test_players_read_every_inbox_under_a_heading_that_says_so_once_the_game_ends(tally, alice, hank):
    assert "<h2>Your inbox</h2>" in page_of(alice, tally)
    for number in range(3):
        rounds.round_resolve(round_id=tally.rounds.get(number=number).id, early=True)
    text = page_of(alice, tally)
    assert "Every player's inbox, revealed at the end" in text and "Every inbox" not in text


def test_the_api_is_linked_from_the_footer_not_the_top_bar(tally, alice):
    text = page_of(alice, tally)
    top = text.split('<header class="top">', 1)[1].split("</header>", 1)[0]
    assert "/api/docs/" not in top
    assert "/api/docs/" in text.split('<footer class="site-footer">', 1)[1]


def test_the_page_says_who_the_viewer_is_with_an_article(tally, alice, hank, charlie):
    assert "you are a player (seat 1)" in page_of(alice, tally)
    assert "you are a host</p>" in page_of(hank, tally)
    assert "you are a spectator</p>" in page_of(charlie, tally)


def test_the_chat_pages_titles_end_with_the_sites_name_and_an_empty_chat_is_no_numbered_list(tally, alice):
    client = Client()
    client.force_login(alice)
    chat = client.get(f"/games/{tally.id}/chats/0-1/").content.decode()
    assert "<title>alice and bob · Tally · genius</title>" in chat
    assert "<p>No messages yet.</p>" in chat and "<li>No messages yet.</li>" not in chat
    chats = client.get(f"/games/{tally.id}/chats/").content.decode()
    assert "<title>Pair chats · Tally · genius</title>" in chats


def test_the_ledger_says_what_moved_as_the_balances_do(season, tally, alice):
    from games.platform.services.ledger import ledger_post

    ledger_post(season=season, user=alice, game=tally, what="cards", item="A", delta=1, reason="hand")
    ledger_post(season=season, user=alice, what="garnets", delta=2, reason="a gift")
    client = Client()
    client.force_login(alice)
    page = client.get(f"/seasons/{season.id}/ledger/").content.decode()
    assert '<td data-label="What">A cards</td>' in page and '<td data-label="What">Garnets</td>' in page
    assert "Cards A" not in page
