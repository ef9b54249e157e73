"""Hidden information never leaks: hands, submissions, inboxes, trades, bets and the movement table."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.platform.models import Event
from games.platform.services import games as game_services
from tests.api_support import told
from tests.horse_race.site_support import api, operate, resolve, submit
from tests.horse_race.test_horse_race_rules_full_game import SCRIPT

pytestmark = pytest.mark.django_db

# What a Horse Race may announce while it runs: exits with placements and later movement, who spectated what.
PUBLIC = [
    r"Horse Race has started\.",
    r"The hosts' hidden data is committed: SHA-256 [0-9a-f]{64}\. .*",
    r"Horse [A-I] has finished the race in Round \d+, placing \d+(st|nd|rd|th)\.( Its movement values .*)?",
    r"Round \d+ spectating: .*\.",
    r"Round \d+ closed\.",
    r"Round \d+ is open\.",
]


@pytest.fixture
def midgame(race, hank, nine):
    """Rounds 0-5 of the scripted game played, with a purchase, trades and a saved Round 6 submission."""
    ann, ben, cat, *_ = nine
    fay, gus = nine[5], nine[6]
    from games.platform.services.ledger import ledger_post

    ledger_post(season=race.season, user=fay, what="garnets", delta=5, reason="earlier games")
    assert operate(race, fay, "purchase", {"horse": "G"}).status_code == 200
    offer = operate(race, fay, "offer_trade", {"give": "A", "want": "B", "to": "gus"}).json()["state"][
        "trades"
    ][0]
    assert operate(race, gus, "accept_trade", {"offer": offer["id"]}).status_code == 200
    assert operate(race, fay, "offer_trade", {"give": "C", "want": "D", "to": "gus"}).status_code == 200
    for round_number in range(6):
        for seat, payload in SCRIPT.get(round_number, {}).items():
            assert submit(race, nine[seat], round_number, payload).status_code == 201
        resolve(race, hank)
    assert submit(race, ann, 6, {"ability": {"kind": "clue", "use": {"E": 1}}, "space": 9}).status_code == 201
    race.refresh_from_db()
    return race


def everything_seen(game, user) -> tuple[dict, str, str]:
    detail = api(user).get(reverse("api-game", args=[game.id])).json()
    feed = json.dumps(api(user).get(reverse("api-feed", args=[game.id])).json())
    browser = Client()
    if user is not None:
        browser.force_login(user)
    page = browser.get(reverse("game", args=[game.id])).content.decode()
    return detail, feed, page


def private_texts(game, user) -> list[str]:
    """The user's inbox as it reads (the rows name people by reference)."""
    return told(game, kind="reveal", seat__user=user)


def test_players_spectators_and_other_hosts_see_nothing_hidden(midgame, nine, make_user, season):
    ann, fay = nine[0], nine[5]
    olga = make_user("olga", is_staff=True)
    other = game_services.game_create(season=season, game_type="horse_race", name="Other", hosts=[olga])
    assert other.hosts.filter(pk=olga.pk).exists()
    ann_secrets = private_texts(midgame, ann)
    fay_secrets = private_texts(midgame, fay)
    assert any("Round 0" in text for text in ann_secrets) and any("bought" in t for t in fay_secrets)

    for viewer in [nine[1], nine[2], None, olga]:
        detail, feed, page = everything_seen(midgame, viewer)
        state = detail["state"]
        blob = json.dumps(detail) + feed + page
        assert "movement" not in state and "players" not in state and "spaces" not in state
        assert "Movement table" not in page and "Every seat" not in page
        assert "submissions" not in detail
        assert detail.get("submission") is None
        for text in ann_secrets + fay_secrets:
            assert text not in blob
        assert state["trades"] == [] and "gives A to gus" not in page
        if viewer is not None and detail["viewer"]["role"] == "player":
            assert set(state["you"]) >= {"hand", "chips", "bets"} and state["you"]["seat"] != 0
        else:
            assert "you" not in state


def test_a_player_sees_their_own_hand_submission_inbox_and_trades(midgame, nine):
    ann, fay, gus = nine[0], nine[5], nine[6]
    detail, feed, page = everything_seen(midgame, ann)
    assert detail["state"]["you"]["hand"]["A"] == 0
    assert detail["submission"]["payload"]["space"] == 9
    assert all(text in feed for text in private_texts(midgame, ann))
    assert detail["state"]["trades"] == []
    fay_view, _, fay_page = everything_seen(midgame, fay)
    assert [(t["give"], t["want"], t["status"]) for t in fay_view["state"]["trades"]] == [
        ("C", "D", "open"),
        ("A", "B", "accepted"),
    ]
    assert "fay gives C to gus for D" in fay_page and 'value="withdraw_trade"' in fay_page
    gus_page = everything_seen(midgame, gus)[2]
    assert 'value="accept_trade"' in gus_page and 'value="withdraw_trade"' not in gus_page


def test_the_games_own_host_sees_everything(midgame, hank, nine):
    detail, feed, page = everything_seen(midgame, hank)
    state = detail["state"]
    assert state["movement"]["A"] == [3, 3, 3, 3, 3, 1, 1, 1, 1, 1]
    assert state["players"][0]["bets"][2] == {"A": 5}
    assert len(state["trades"]) == 2
    assert {s["player"] for s in detail["submissions"]} == {"ann"}
    assert "Movement table (hidden: hosts only)" in page and "Every seat" in page and "5 on A" in page
    for text in private_texts(midgame, nine[0]) + private_texts(midgame, nine[5]):
        assert text in feed


def test_only_exits_and_spectating_are_announced(midgame):
    announcements = Event.objects.filter(game=midgame, kind="announcement")
    assert announcements.filter(text__startswith="Horse A has finished").exists()
    for event in announcements:
        assert any(re.fullmatch(pattern, event.text) for pattern in PUBLIC), event.text
        assert not {"bets", "hand", "ability", "cards", "trade"} & set(event.data), event.data
    (spectating,) = [t for t in told(midgame, kind="announcement") if t.startswith("Round 1 spectating")]
    assert spectating.startswith("Round 1 spectating: ann space 4, ben space 3, cat space 2, dan none")
