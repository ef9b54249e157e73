"""Redis stopped, restarted, hung and woken under a live gunicorn and Celery worker (issue 18.1, 18.2, 18.5).

What a player, a spectator and a host get through HTTP is what is checked: every page answers 200, every
write is stored and answered as stored, nothing from before an outage comes back after it, and every
server error is in the log with its traceback.
"""

from __future__ import annotations

import re
import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from games.platform.models import Event, Game, OutboxTask, Round, Submission
from games.platform.services import games as game_services
from tests.faults.stack import Stack, wait_until
from tests.sitting import all_here

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # seconds a request may take before the test gives up on it (not a limit being checked)


@pytest.fixture
def world(season, hank, alice, bob, charlie):
    tally = game_services.game_create(
        season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank
    )
    duel = game_services.game_create(
        season=season, game_type="tally_duel", name="Duel", hosts=[hank], actor=hank
    )
    for game in (tally, duel):
        for player in (alice, bob):
            game_services.game_seat(game=game, user=player, actor=hank)
        game_services.game_start(game=game, actor=hank)
        all_here(game)  # the players sit down: the clocks run
    return {
        "tally": tally,
        "duel": duel,
        "tokens": {u.username: Token.objects.create(user=u).key for u in (alice, bob, hank)},
    }


def browser(stack: Stack, username: str | None = None) -> requests.Session:
    """A visitor of the live site; logged in through the login form when a username is given."""
    session = requests.Session()
    if username is not None:
        page = session.get(f"{stack.url}/login/", timeout=TIMEOUT)
        answer = session.post(
            f"{stack.url}/login/",
            {"username": username, "password": f"pw-{username}", "csrfmiddlewaretoken": csrf(page.text)},
            headers={"Referer": f"{stack.url}/login/"},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert answer.status_code == 302, f"logging {username} in: {answer.status_code}"
    return session


def csrf(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def api(stack: Stack, token: str, path: str, body: dict) -> requests.Response:
    return requests.post(
        f"{stack.url}/api/{path}", json=body, headers={"Authorization": f"Token {token}"}, timeout=TIMEOUT
    )


def save_on_page(stack: Stack, session: requests.Session, game: Game, number: int) -> requests.Response:
    page = session.get(f"{stack.url}/games/{game.id}/", timeout=TIMEOUT)
    return session.post(
        f"{stack.url}/games/{game.id}/",
        {"csrfmiddlewaretoken": csrf(page.text), "round_number": 0, "number": number, "save": "1"},
        headers={"Referer": f"{stack.url}/games/{game.id}/"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )


def every_page(stack: Stack, sessions: dict, world: dict) -> dict[str, int]:
    answers = {}
    for who, session in sessions.items():
        for game in (world["tally"], world["duel"]):
            for path in (f"/games/{game.id}/", f"/games/{game.id}/live/", f"/api/games/{game.id}/"):
                answers[f"{who} {path}"] = session.get(f"{stack.url}{path}", timeout=TIMEOUT).status_code
        answers[f"{who} season"] = session.get(f"{stack.url}/seasons/{world['tally'].season_id}/").status_code
        answers[f"{who} home"] = session.get(f"{stack.url}/", timeout=TIMEOUT).status_code
    return answers


def test_with_redis_stopped_every_page_renders_and_every_write_is_stored_and_answered_so(stack, world, alice):
    tally, duel, tokens = world["tally"], world["duel"], world["tokens"]
    sessions = {
        "visitor": browser(stack),
        "spectator": browser(stack, "charlie"),
        "player": browser(stack, "alice"),
        "host": browser(stack, "hank"),
    }
    assert set(every_page(stack, sessions, world).values()) == {200}  # the page cache is warm now
    assert stack.redis.keys("*page:*")

    stack.redis.stop()
    answers = every_page(stack, sessions, world)
    assert {k: v for k, v in answers.items() if v != 200} == {}
    assert browser(stack, "bob").get(f"{stack.url}/games/{tally.id}/").text.count("you are a player") == 1

    saved = api(
        stack, tokens["alice"], f"games/{tally.id}/submission/", {"round": 0, "payload": {"number": 4}}
    )
    assert saved.status_code == 201, saved.text
    assert save_on_page(stack, sessions["player"], tally, 6).status_code == 302
    assert Submission.objects.filter(seat__user=alice, round__game=tally).count() == 2
    assert 'value="6"' in sessions["player"].get(f"{stack.url}/games/{tally.id}/", timeout=TIMEOUT).text

    moved = api(stack, tokens["alice"], f"games/{duel.id}/action/", {"payload": {"say": 2}})  # seat 1's turn
    assert moved.status_code == 200, moved.text
    assert Event.objects.filter(game=duel, text__contains="says 2").exists()
    assert OutboxTask.objects.filter(name="notify_your_turn").exists()  # the turn email, owed until sent
    told = api(stack, tokens["hank"], f"games/{tally.id}/host/announce/", {"text": "Redis is away"})
    assert told.status_code == 201, told.text
    assert Event.objects.filter(game=tally, text="Redis is away").exists()
    assert "Internal Server Error" not in stack.log("web")

    stack.redis.start()  # empty, as a Redis without persistence comes back
    assert 'value="6"' in sessions["player"].get(f"{stack.url}/games/{tally.id}/", timeout=TIMEOUT).text
    wait_until(
        lambda: every_page(stack, sessions, world) and stack.redis.keys("*page:*"),
        "the page cache filling again",
    )
    # The worker is back on the broker: a round the host resolves now is resolved, and its email queued.
    resolved = api(stack, tokens["hank"], f"games/{tally.id}/host/resolve/", {})
    assert resolved.status_code == 200, resolved.text
    assert Round.objects.get(game=tally, number=0).status == Round.Status.RESOLVED
    # Beat reconnects to the restarted broker on its own schedule; on a loaded machine that takes longer.
    wait_until(lambda: not OutboxTask.objects.exists(), "the relay sending what the broker had not taken", 90)
    assert "Internal Server Error" not in stack.log("web")


def test_a_logout_and_a_save_while_redis_hangs_are_not_undone_when_it_wakes(stack, world, alice, settings):
    tally = world["tally"]
    staying, leaving = browser(stack, "alice"), browser(stack, "alice")
    for session in (staying, leaving):
        assert session.get(f"{stack.url}/games/{tally.id}/", timeout=TIMEOUT).status_code == 200
    assert leaving.get(f"{stack.url}/account/notifications/", allow_redirects=False).status_code == 200

    stack.redis.hang()
    assert save_on_page(stack, staying, tally, 7).status_code == 302
    page = leaving.get(f"{stack.url}/games/{tally.id}/", timeout=TIMEOUT)
    out = leaving.post(
        f"{stack.url}/logout/",
        {"csrfmiddlewaretoken": csrf(page.text)},
        headers={"Referer": f"{stack.url}/games/{tally.id}/"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert out.status_code == 302
    stack.redis.wake()
    time.sleep(2 * settings.GENIUS_CACHE_RETRY_SECONDS)  # every process has read the generation since

    for _ in range(4):  # both gunicorn workers answer at least once
        again = requests.get(
            f"{stack.url}/account/notifications/",
            cookies={"sessionid": leaving.cookies.get("sessionid") or out.cookies.get("sessionid", "")},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert again.status_code == 302 and "/login/" in again.headers["Location"], "logged in again"
        assert 'value="7"' in staying.get(f"{stack.url}/games/{tally.id}/", timeout=TIMEOUT).text


def test_every_server_error_of_the_live_site_is_logged_with_its_traceback(stack, world):
    broken = requests.get(f"{stack.url}/broken/", timeout=TIMEOUT)
    assert broken.status_code == 500
    assert "Something went wrong on our side" in broken.text
    away = requests.get(f"{stack.url}/database-away/", timeout=TIMEOUT)
    assert away.status_code == 503
    assert "Back in a moment" in away.text
    log = stack.log("web")
    assert "ERROR django.request" in log
    assert "Traceback (most recent call last)" in log
    assert "ZeroDivisionError: a bug in a page" in log
    assert "OperationalError" in log
