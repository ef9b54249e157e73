"""Pages, the host admin, the API's schema and tokens, and the security baseline."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.platform.models import AuditLog, Event, Game
from games.platform.services.rounds import submission_save
from tests.conftest import seat_of

pytestmark = pytest.mark.django_db


def test_the_feed_poll_answers_204_when_nothing_changed(tally, client):
    url = reverse("game-feed", args=[tally.id])
    version = Game.objects.get(pk=tally.pk).version
    assert client.get(url, {"v": version}).status_code == 204
    from games.platform.services.events import announcement_post

    announcement_post(game=tally, text="Clarification: bets are whole chips.", category="clarification")
    response = client.get(url, {"v": version})
    assert response.status_code == 200
    assert "bets are whole chips" in response.content.decode()


def test_the_feed_poll_does_not_leak_inboxes_to_spectators(tally, alice, client):
    submission_save(
        seat=seat_of(tally, alice), round_number=0, payload={"number": 3, "secret_note": "CANARY-NOTE"}
    )
    from games.platform.services.rounds import round_resolve

    round_resolve(round_id=tally.rounds.get(number=0).id, early=True)
    body = client.get(reverse("game-feed", args=[tally.id])).content.decode()
    assert "Round 0 total: 3." in body
    assert "you picked" not in body and "CANARY-NOTE" not in body


def test_an_htmx_poll_renders_only_the_live_partial(tally, client):
    response = client.get(reverse("game-feed", args=[tally.id]), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="live"') and "<html" not in body


def test_pages_carry_a_csp_with_a_nonce_and_the_csrf_header_for_htmx(tally, alice, client):
    client.force_login(alice)
    response = client.get(reverse("game", args=[tally.id]))
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in csp and "frame-ancestors 'none'" in csp
    assert 'hx-headers=\'{"x-csrftoken": "' in response.content.decode()


def test_the_home_page_lists_my_games_and_hosted_games(tally, alice, hank, client):
    client.force_login(alice)
    assert "Tally" in client.get(reverse("home")).content.decode()
    client.force_login(hank)
    page = client.get(reverse("home")).content.decode()
    assert "Games you host" in page


def test_the_season_page_shows_standings_and_the_ledger_is_only_the_owners(tally, alice, bob, client):
    from games.platform.services.ledger import ledger_post

    ledger_post(season=tally.season, user=alice, what="garnets", delta=4, reason="CANARY-ALICE-REASON")
    page = client.get(reverse("season", args=[tally.season_id])).content.decode()
    assert "alice" in page and "<td>4</td>" in page
    client.force_login(bob)
    assert (
        "CANARY-ALICE-REASON" not in client.get(reverse("my-ledger", args=[tally.season_id])).content.decode()
    )
    client.force_login(alice)
    assert "CANARY-ALICE-REASON" in client.get(reverse("my-ledger", args=[tally.season_id])).content.decode()


def test_the_openapi_schema_and_docs_are_served(client):
    schema = client.get(reverse("api-schema"))
    assert schema.status_code == 200 and b"/api/games/{game_id}/submission/" in schema.content
    assert client.get(reverse("api-docs")).status_code == 200


def test_a_token_lets_a_bot_submit_through_the_api(tally, alice):
    token = (
        APIClient().post(reverse("api-token"), {"username": "alice", "password": "pw-alice"}).json()["token"]
    )
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = bot.post(
        reverse("api-submission", args=[tally.id]), {"round": 0, "payload": {"number": 2}}, format="json"
    )
    assert response.status_code == 201


def test_logins_are_rate_limited(alice, client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "alice", "password": "pw-alice"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_host_runs_the_game_from_the_admin_and_every_action_is_audited(tally, hank, client):
    client.force_login(hank)
    changelist = reverse("admin:platform_game_changelist")
    assert "Tally" in client.get(changelist).content.decode()
    client.post(changelist, {"action": "pause", "_selected_action": [tally.id], "confirm": "yes"})
    tally.refresh_from_db()
    assert tally.paused_at is not None
    client.post(changelist, {"action": "resume", "_selected_action": [tally.id]})
    client.post(changelist, {"action": "resolve_now", "_selected_action": [tally.id], "confirm": "yes"})
    assert tally.rounds.get(number=0).status == "resolved"
    actions = set(AuditLog.objects.filter(game=tally).values_list("action", flat=True))
    assert {"game_pause", "game_resume", "round_resolve_now"} <= actions


def test_a_host_posts_an_announcement_from_the_admin(tally, hank, client):
    client.force_login(hank)
    url = reverse("admin:platform_game_host", args=[tally.id, "announce"])
    response = client.post(url, {"text": "Erratum: Round 2 lasts 48 hours.", "category": "erratum"})
    assert response.status_code == 302
    assert Event.objects.filter(game=tally, category="erratum", text__contains="48 hours").exists()


def test_a_host_cannot_open_another_hosts_game_in_the_admin(tally, make_user, client):
    olga = make_user("olga", is_staff=True)
    client.force_login(olga)
    assert "Tally" not in client.get(reverse("admin:platform_game_changelist")).content.decode()
    assert client.get(reverse("admin:platform_game_change", args=[tally.id])).status_code in (302, 404)
    assert client.get(reverse("admin:platform_submission_changelist")).status_code == 200
    saved = submission_save(
        seat=tally.seats.first(), round_number=0, payload={"number": 1, "secret_note": "CANARY-S"}
    )
    page = reverse("admin:platform_submission_change", args=[saved.id])
    assert client.get(page).status_code in (302, 404)
    assert "0 submissions" in client.get(reverse("admin:platform_submission_changelist")).content.decode()
    client.force_login(tally.hosts.get())
    assert "CANARY-S" in client.get(page).content.decode()


def test_a_host_creates_seats_and_starts_a_game_in_the_admin(season, hank, alice, bob, client):
    client.force_login(hank)
    response = client.post(
        reverse("admin:platform_game_add"),
        {
            "season": season.id,
            "game_type": "tally",
            "name": "Admin Tally",
            "public": "on",
            "settings": '{"rounds": 2, "window_minutes": 30}',
            "seed": 42,
            "hosts": [hank.id],
            "seat_players": "alice, bob",
            "announce": "",
            "announce_as": "general",
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
            "rounds-TOTAL_FORMS": 0,
            "rounds-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Admin Tally")
    assert list(game.seats.values_list("user__username", flat=True)) == ["alice", "bob"]
    assert game.seed == 42 and list(game.hosts.all()) == [hank]
    client.post(reverse("admin:platform_game_changelist"), {"action": "start", "_selected_action": [game.id]})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.rounds.get().number == 0
    assert {"game_create", "game_seat", "game_start"} <= set(
        AuditLog.objects.filter(game=game).values_list("action", flat=True)
    )


def test_the_schema_documents_the_error_answers(client):
    import yaml

    schema = yaml.safe_load(client.get(reverse("api-schema")).content)
    operation = schema["paths"]["/api/games/{game_id}/submission/"]["post"]
    assert {"400", "403", "404", "409"} <= set(operation["responses"])
    assert schema["components"]["schemas"]["Error"]["required"] == ["detail"]


def test_an_unknown_api_path_answers_json_and_a_page_answers_html(client):
    api = client.get("/api/games/not-a-number/")
    assert api.status_code == 404 and api.json() == {"detail": "Not found."}
    page = client.get("/games/not-a-number/")
    assert page.status_code == 404 and page.headers["Content-Type"].startswith("text/html")


def test_the_feed_poll_shows_a_move_at_once_though_the_process_asked_a_moment_before(
    tally, client, settings, django_assert_max_num_queries
):
    # A process that answered a poll a moment ago (and so has the game in memory) answers the next one with
    # the move, not with "nothing new": a live move reaches the opponent's page at their next poll.
    from games.platform.services.events import announcement_post

    settings.GENIUS_VERSION_TTL = 1  # the per-process second of reuse this replaced, were it still read
    url = reverse("game-feed", args=[tally.id])
    version = Game.objects.get(pk=tally.pk).version
    assert client.get(url, {"v": version}).status_code == 204
    with django_assert_max_num_queries(0):  # the version from the shared cache, the row from memory
        assert client.get(url, {"v": version}).status_code == 204
    announcement_post(game=tally, text="News.")
    assert client.get(url, {"v": version}).status_code == 200


def test_the_home_page_and_game_list_do_not_query_per_game(
    season, hank, alice, client, django_assert_max_num_queries
):
    from games.platform.services import games as game_services
    from tests.api_support import api

    for n in range(12):
        game = game_services.game_create(
            season=season, game_type="tally", name=f"G{n}", hosts=[hank], actor=hank
        )
        game_services.game_seat(game=game, user=alice, actor=hank)
    client.force_login(alice)
    with django_assert_max_num_queries(10):
        assert client.get(reverse("home")).status_code == 200
    with django_assert_max_num_queries(6):
        rows = api(alice).get(reverse("api-games")).json()
    assert len(rows) == 12 and {r["role"] for r in rows} == {"player"}
    assert {r["role"] for r in api(hank).get(reverse("api-games")).json()} == {"host"}


@pytest.mark.parametrize("debug", [False, True])
def test_a_wrong_url_gets_the_sites_own_404_page_even_with_debug_on(client, settings, debug, alice):
    settings.DEBUG = debug
    client.force_login(alice)
    page = client.get("/no-such-page/")
    html = page.content.decode()
    assert (
        page.status_code == 404
        and "There is no such page" in html
        and "<title>Not found · genius</title>" in html
    )
    assert "DEBUG = True" not in html and "URLconf" not in html
    assert client.get("/api/no-such-thing/").json() == {"detail": "Not found."}
