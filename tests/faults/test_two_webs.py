"""Two web processes over one Redis and one database: a move through either is on every page of the other
at once, after a restart of either (issue 28.5).

Each gunicorn keeps a game's row per version in memory and trusts the version in the shared cache; a
process just started whose first cache call was the raise after its commit wrote it under a key without
the cache's generation, and the other went on serving the page from before the move until the game moved
again. Each gunicorn runs one worker process here, so the one that answers is the one that kept the row.
"""

from __future__ import annotations

import pytest
import requests
from rest_framework.authtoken.models import Token

from games.platform.models import Game
from games.platform.services import games as game_services
from tests.faults.stack import Web, on_the_tests_database
from tests.faults.test_redis_faults import TIMEOUT, csrf

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def webs(transactional_db, own_redis, tmp_path):
    stack = on_the_tests_database(own_redis, tmp_path)
    one, two = Web(stack, "one"), Web(stack, "two")
    try:
        one.start()
        two.start()
        yield one, two
    finally:
        one.stop()
        two.stop()


@pytest.fixture
def tally(season, hank, alice, bob, charlie):
    game = game_services.game_create(season=season, game_type="tally", name="Tally", hosts=[hank], actor=hank)
    for player in (alice, bob):
        game_services.game_seat(game=game, user=player, actor=hank)
    game_services.game_start(game=game, actor=hank)
    return game


def logged_in(web: Web, username: str) -> requests.Session:
    session = requests.Session()
    page = session.get(f"{web.url}/login/", timeout=TIMEOUT)
    answer = session.post(
        f"{web.url}/login/",
        {"username": username, "password": f"pw-{username}", "csrfmiddlewaretoken": csrf(page.text)},
        headers={"Referer": f"{web.url}/login/"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert answer.status_code == 302, f"logging {username} in: {answer.status_code}"
    return session


def pages(web: Web, viewers: dict, game: Game) -> dict[str, str]:
    """Every view of the game each viewer has, as `web` serves it now."""
    seen = {}
    for who, session in viewers.items():
        for path in (f"/games/{game.id}/", f"/games/{game.id}/live/", f"/api/games/{game.id}/"):
            answer = session.get(f"{web.url}{path}", timeout=TIMEOUT)
            assert answer.status_code == 200, f"{who} {path} on {web.name}: {answer.status_code}"
            seen[f"{who} {path} on {web.name}"] = answer.text
    return seen


def test_a_move_through_either_web_is_on_every_page_of_the_other_at_once_after_a_restart_of_either(
    webs, tally, hank
):
    one, two = webs
    token = Token.objects.create(user=hank).key
    viewers = {
        "visitor": requests.Session(),
        "spectator": logged_in(one, "charlie"),
        "player": logged_in(two, "alice"),
    }
    told = 0

    def move_through(web: Web) -> str:
        nonlocal told
        told += 1
        text = f"Announcement {told} through {web.name}"
        answer = requests.post(
            f"{web.url}/api/games/{tally.id}/host/announce/",
            json={"text": text},
            headers={"Authorization": f"Token {token}"},
            timeout=TIMEOUT,
        )
        assert answer.status_code == 201, answer.text
        return text

    for restarted, other in ((None, two), (one, two), (two, one), (None, two)):
        pages(other, viewers, tally)  # the other keeps the game's row and bodies at the version before
        mover = restarted or (one if other is two else two)
        if restarted is not None:
            restarted.restart()  # its first request, and its first cache call, is the move
        text = move_through(mover)
        stale = [view for view, body in pages(other, viewers, tally).items() if text not in body]
        assert stale == [], f"after {'a restart of ' + restarted.name if restarted else 'no restart'}"
    assert "Traceback" not in "".join((one.stack.logdir / f"{web.name}.log").read_text() for web in webs)
