"""The page cache never serves a page that is out of date, nor one viewer's page to another.

Each test reads a page (filling the cache), changes something the way the site does, and reads it again:
what a fresh render shows must show. Changes commit in these tests (the stamps move on commit).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.platform import pagecache
from games.platform.models import Game
from games.platform.services import games as game_services
from games.platform.services import rounds
from games.platform.services.events import announcement_post
from games.platform.services.ledger import ledger_post
from games.platform.services.season import season_grant

pytestmark = pytest.mark.django_db


def client_of(user=None, **options) -> Client:
    client = Client(**options)
    if user is not None:
        client.force_login(user)
    return client


def page(client, game) -> str:
    response = client.get(f"/games/{game.id}/")
    assert response.status_code == 200
    return response.content.decode()


def body_only(html: str) -> str:
    """The game's part of the page, with the request's own token and clock taken out."""
    html = html.split("<main>", 1)[1]
    # The poll's private stamps: none with the cache off.
    html = re.sub(r"(\?v=\d+)-[ph][0-9a-f]+", r"\1", html)
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "<token>", html)


def queries_of(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


def test_a_second_read_comes_from_the_cache_and_equals_a_fresh_render(tally, alice, settings):
    client = client_of(alice)
    first = page(client, tally)
    assert queries_of(lambda: page(client, tally)) <= 3, "the body was not served from the cache"
    cached = page(client, tally)
    settings.GENIUS_PAGE_CACHE = False
    fresh = page(client, tally)
    assert body_only(cached) == body_only(first) == body_only(fresh)


def test_a_players_own_save_shows_at_once(tally, alice, bob, django_capture_on_commit_callbacks):
    alice_client, bob_client = client_of(alice), client_of(bob)
    assert "Saved at" not in page(alice_client, tally)
    before_bob = body_only(page(bob_client, tally))
    seat = tally.seats.get(user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.submission_save(seat=seat, round_number=0, payload={"number": 4})
    assert "Saved at" in page(alice_client, tally)
    assert 'value="4"' in page(alice_client, tally)
    # Bob's page did not change, and may stay cached: nothing of Alice's save is his to see.
    assert body_only(page(bob_client, tally)) == before_bob


def test_a_save_through_the_page_form_shows_on_the_next_read(
    tally, alice, django_capture_on_commit_callbacks
):
    client = client_of(alice)
    page(client, tally)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/games/{tally.id}/", {"round_number": 0, "number": 6, "save": "1"})
    response = client.get(response["Location"])
    assert response.status_code == 200
    assert 'value="6"' in response.content.decode()


def test_balances_moved_by_the_season_show_at_once(tally, alice, hank, django_capture_on_commit_callbacks):
    client = client_of(alice)
    page(client, tally)
    with django_capture_on_commit_callbacks(execute=True):
        season_grant(season=tally.season, user=alice, what="garnets", delta=7, reason="a gift", actor=hank)
    assert "garnets: <strong>7</strong>" in page(client, tally)
    with django_capture_on_commit_callbacks(execute=True):
        ledger_post(season=tally.season, user=alice, what="garnets", delta=-2, reason="spent")
    assert "garnets: <strong>5</strong>" in page(client, tally)


def test_a_resolution_shows_to_players_and_spectators(tally, alice, django_capture_on_commit_callbacks):
    player, spectator = client_of(alice), client_of(None)
    assert "Round 0 total" not in page(player, tally) + page(spectator, tally)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.submission_save(seat=tally.seats.get(user=alice), round_number=0, payload={"number": 3})
    rounds.round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    assert "Round 0 total: 3." in page(player, tally)
    assert "Round 0 total: 3." in page(spectator, tally)


def test_host_changes_show_at_once(tally, alice, hank):
    client = client_of(alice)
    page(client, tally)
    game_services.game_pause(game=tally, actor=hank)
    assert "Paused by the hosts" in page(client, tally)
    game_services.game_resume(game=tally, actor=hank)
    game_services.round_extend(game=tally, by=timedelta(hours=5), actor=hank)
    closes = tally.rounds.get(number=0).closes_at.isoformat()
    assert f'data-until="{closes}"' in page(client, tally)


def test_an_admin_rename_shows_at_once(tally, alice, hank):
    client = client_of(alice)
    page(client, tally)
    admin = client_of(hank)
    form = admin.get(f"/admin/platform/game/{tally.id}/change/").context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "hosts"}
    data.update(
        {"name": "Tally Renamed", "hosts": [hank.id], "settings": '{"rounds": 3, "window_minutes": 60}'}
    )
    admin.post(f"/admin/platform/game/{tally.id}/change/", data)
    assert Game.objects.get(pk=tally.pk).name == "Tally Renamed"
    assert "Tally Renamed" in page(client, tally)


def test_the_hosts_page_is_never_cached(tally, hank):
    # A host's page shows every saved submission, which moves no version: it is always rendered afresh.
    client = client_of(hank)
    page(client, tally)
    assert queries_of(lambda: page(client, tally)) > 6


def test_each_reader_gets_their_own_csrf_token_and_it_works(tally, alice):
    first = client_of(alice, enforce_csrf_checks=True)
    second = client_of(alice, enforce_csrf_checks=True)
    page(first, tally)  # fills the cache with the body holding the form
    html = page(second, tally)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert "\x00" not in html
    response = second.post(
        f"/games/{tally.id}/", {"csrfmiddlewaretoken": token, "round_number": 0, "number": 2, "save": "1"}
    )
    assert response.status_code == 302, response.content[:300]


def test_a_spectator_made_a_host_in_the_admin_sees_the_hosts_page_at_once(tally, charlie, hank):
    client = client_of(charlie)
    assert "you are a spectator" in page(client, tally)
    admin = client_of(hank)
    form = admin.get(f"/admin/platform/game/{tally.id}/change/").context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "hosts"}
    data.update({"hosts": [hank.id, charlie.id], "settings": '{"rounds": 3, "window_minutes": 60}'})
    admin.post(f"/admin/platform/game/{tally.id}/change/", data)
    assert tally.hosts.filter(pk=charlie.pk).exists()
    assert "you are a host" in page(client, tally)


def test_a_page_shows_a_change_at_once(tally, alice, hank, settings):
    settings.GENIUS_VERSION_TTL = 600  # the per-process reuse of a version this replaced, were it still read
    client = client_of(alice)
    page(client, tally)
    announcement_post(game=tally, text="A clarification from the hosts.", actor=hank)
    assert "A clarification" in page(client, tally)
    response = client.post(f"/games/{tally.id}/", {"round_number": 0, "number": 1, "save": "1"})
    assert response["Location"] == f"/games/{tally.id}/"


@pytest.mark.django_db(transaction=True)
def test_a_save_on_its_own_renews_its_stamp_once_after_its_commit(tally, alice, monkeypatch):
    renewed = []
    real_renew = pagecache._renew

    def renew(keys):
        renewed.append((keys, connection.in_atomic_block))
        real_renew(keys)

    monkeypatch.setattr(pagecache, "_renew", renew)
    seat = tally.seats.get(user=alice)
    rounds.submission_save(seat=seat, round_number=0, payload={"number": 4})
    stamp = [f"stamp:seat:{tally.id}:{alice.id}"]
    assert renewed == [(stamp, False)]  # once, and after the commit
    renewed.clear()
    with transaction.atomic():  # inside a caller's transaction: now (for its own reads), and after it
        rounds.submission_save(seat=seat, round_number=0, payload={"number": 5})
        assert renewed == [(stamp, True)]
    assert renewed == [(stamp, True), (stamp, False)]
