"""A started host-run game has everything every game has (issue 31.5): the API's round form (its JSON Schema,
answers checked with errors per question), the hosts' data set through the API before the start, "awaiting
you" and the title count, reminders to those who owe, pair chats, the spectators' feed, the exports and the
full reveal at the end, and the hosts' rules on the game page and the game's rules page, as text."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.host_run.models import Design, Field, PrivateColumn, PrivateValue, Resolution, SeatResult
from games.platform.awaiting import awaiting
from games.platform.models import Game
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve
from tests.api_support import api, page_client, submit
from tests.conftest import seat_of
from tests.sweeping import sweep

pytestmark = pytest.mark.django_db

RULES = (
    "# The Vault\n\nBid for the key.\n\n<script>alert('rules')</script>\n\n"
    "<form action='/x'><input></form>\n\n"
    '<img src=x onerror="alert(1)">\n\n| Round | What |\n|---|---|\n| 1 | Bids |\n'
)
ANSWER = {"bid": 4, "suspect": 1, "door": "Red", "share_the_key": True}


def role_of(name: str) -> str:
    return f"ROLE-SECRET-{name}"


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def designed(season, hank, players, *, public=True) -> Game:
    """A host-run Main Match set up as the admin leaves it: two rounds of a day, a form of four kinds, a
    private Role per seat, the hosts' notes; not started."""
    game = game_services.game_create(
        season=season, game_type="host_run", name="Vault", hosts=[hank], actor=hank, public=public
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    design = Design.objects.create(
        game=game, rules=RULES, rounds=2, window=24, board="The vault is closed.", notes="NOTES-SECRET"
    )
    Field.objects.bulk_create(
        [
            Field(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=10),
            Field(design=design, order=2, kind="player", label="Suspect", required=False),
            Field(design=design, order=3, kind="choice", label="Door", options="Red\nBlue"),
            Field(design=design, order=4, kind="yes_no", label="Share the key?", required=False),
        ]
    )
    column = PrivateColumn.objects.create(design=design, order=1, name="Role")
    PrivateValue.objects.bulk_create(
        [PrivateValue(column=column, seat=seat_of(game, u), value=role_of(u.username)) for u in players]
    )
    return game


@pytest.fixture
def vault(season, hank, players):
    game = designed(season, hank, players)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def resolve(game, hank, number, *, public, private=None, ends=False, candidate=None):
    """The hosts' sent resolution of round `number`, then the platform's resolution of the round."""
    resolution = Resolution.objects.create(
        game=game,
        round_number=number,
        public_text=public,
        ends_game=ends,
        candidate=candidate,
        sent_at=timezone.now(),
    )
    for seat in game.seats.all():
        SeatResult.objects.create(
            resolution=resolution,
            seat=seat,
            private_text=(private or {}).get(seat.number, ""),
            points=seat.number,
            rank=seat.number + 1 if ends else None,
        )
    rnd = game.rounds.get(number=number)
    round_resolve(round_id=rnd.pk, early=True, actor=hank)
    game.refresh_from_db()


def feed_texts(game, user=None) -> str:
    answer = api(user).get(reverse("api-feed", args=[game.id]))
    assert answer.status_code == 200
    return json.dumps(answer.json())


# -- the API -------------------------------------------------------------------------------------------------


def test_the_round_form_route_gives_the_open_rounds_json_schema_to_players_and_spectators(vault, players):
    for user in (players[0], None):
        answer = api(user).get(reverse("api-round-form", args=[vault.id]))
        assert answer.status_code == 200
        body = answer.json()
        assert (body["round"], body["status"]) == (1, "open")
        schema = body["schema"]
        assert list(schema["properties"]) == ["bid", "suspect", "door", "share_the_key"]
        assert schema["required"] == ["bid", "door"]
        assert schema["properties"]["bid"] | {} == {
            "title": "Bid",
            "type": "integer",
            "minimum": 0,
            "maximum": 10,
        }
        assert schema["properties"]["suspect"]["enum"] == [0, 1, 2, None]
        assert schema["properties"]["door"]["enum"] == ["Red", "Blue"]


def test_the_round_form_route_is_closed_where_the_game_is(season, hank, players, tally):
    private = designed(season, hank, players, public=False)
    assert api(None).get(reverse("api-round-form", args=[private.id])).status_code == 404
    answer = api(players[0]).get(reverse("api-round-form", args=[private.id])).json()
    assert answer == {"round": None, "status": None, "schema": None, "note": "No round has opened yet."}
    # A game type that describes its form in its guide says so.
    toy = api(None).get(reverse("api-round-form", args=[tally.id])).json()
    assert toy["round"] == 0 and toy["schema"] is None and "guide" in toy["note"]


def test_a_wrong_answer_through_the_api_is_a_400_naming_the_question(vault, players):
    answer = submit(vault, players[0], 1, {**ANSWER, "bid": 11})
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["bid"]
    answer = submit(vault, players[0], 1, {**ANSWER, "suspect": 7})
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["suspect"]
    assert submit(vault, players[0], 1, {"bid": 3}).json()["errors"].keys() == {"door"}
    saved = submit(vault, players[0], 1, ANSWER)
    assert saved.status_code == 201 and saved.json()["payload"] == ANSWER


def test_the_openapi_document_describes_the_round_form_route_and_where_the_payload_is_described(client):
    document = client.get(reverse("api-schema") + "?format=json").json()
    route = document["paths"]["/api/games/{game_id}/round-form/"]["get"]
    assert "200" in route["responses"] and "404" in route["responses"]
    properties = document["components"]["schemas"]["RoundFormOut"]["properties"]
    assert {"round", "status", "schema", "note"} <= set(properties)
    payload = document["components"]["schemas"]["SubmissionIn"]["properties"]["payload"]
    assert "host-run" in payload["description"] and "round-form" in payload["description"]


def test_the_hosts_set_up_a_game_through_the_api_before_the_start_and_not_after(season, hank, players):
    game = game_services.game_create(
        season=season, game_type="host_run", name="Vault", hosts=[hank], actor=hank
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    url = reverse("api-host-hidden", args=[game.id])
    bad = {"forms": {"game": [{"kind": "number", "label": "Bid", "minimum": 5, "maximum": 1}]}}
    answer = api(hank).post(url, {"data": bad}, format="json")
    assert answer.status_code == 400 and "less than the least" in answer.json()["errors"]["forms"][0]
    answer = api(hank).post(url, {"data": {"private": {"9": {"Role": "Spy"}}}}, format="json")
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["private"]
    answer = api(players[0]).post(url, {"data": {"notes": "mine"}}, format="json")
    assert answer.status_code == 403
    data = {
        "rules": "Bid.",
        "rounds": 2,
        "window": {"amount": 30, "unit": "minutes"},
        "forms": {"game": [{"kind": "number", "label": "Bid", "minimum": 0, "maximum": 9}]},
        "private": {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}, "2": {"Role": "Thief"}},
        "notes": "The Spy wins ties.",
    }
    answer = api(hank).post(url, {"data": data}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {
        "hidden": {
            "private": {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}, "2": {"Role": "Thief"}},
            "notes": "The Spy wins ties.",
        },
        "problems": [],
    }
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    assert game.state["forms"]["game"][0]["key"] == "bid" and game.state["window"]["unit"] == "minutes"
    answer = api(hank).post(url, {"data": {"notes": "later"}}, format="json")
    assert answer.status_code == 409


# -- awaiting you, the title count, reminders ----------------------------------------------------------------


def test_awaiting_you_lists_the_open_round_until_the_player_submits_final(vault, players):
    ann, ben = players[0], players[1]
    [item] = [a for a in awaiting(ann) if a.game_id == vault.id]
    assert (item.need, item.round_number) == ("not_submitted", 1)
    assert "<title>(1) genius</title>" in page_client(ann).get(reverse("home")).content.decode()
    answer = api(ann).post(
        reverse("api-submission", args=[vault.id]),
        {"round": 1, "payload": ANSWER, "final": True},
        format="json",
    )
    assert answer.status_code == 201
    assert [a for a in awaiting(ann) if a.game_id == vault.id] == []
    assert "<title>genius</title>" in page_client(ann).get(reverse("home")).content.decode()
    assert [a.need for a in awaiting(ben) if a.game_id == vault.id] == ["not_submitted"]


def test_the_reminder_and_the_last_call_reach_only_those_who_owe_the_round(vault, players):
    closes = vault.rounds.get(number=1).closes_at
    assert submit(vault, players[0], 1, ANSWER).status_code == 201
    mail.outbox.clear()
    sweep(now=closes - timedelta(hours=3))
    assert sorted(m.to[0] for m in mail.outbox) == ["ben@example.com", "cat@example.com"]
    assert all(m.subject == "Vault: Round 1 closes soon" for m in mail.outbox)
    mail.outbox.clear()
    sweep(now=closes - timedelta(hours=1))
    assert sorted(m.to[0] for m in mail.outbox) == ["ben@example.com", "cat@example.com"]
    assert all("last call" in m.subject for m in mail.outbox)


# -- pair chats and the spectators' feed ---------------------------------------------------------------------


def test_the_pair_chats_work_for_the_two_players_and_not_for_the_third(vault, players):
    ann, ben, cat = players
    url = reverse("api-chat", args=[vault.id, 0, 1])
    assert api(ann).post(url, {"text": "Bid low?"}, format="json").status_code == 201
    assert [m["text"] for m in api(ben).get(url).json()] == ["Bid low?"]
    assert api(cat).get(url).status_code in (403, 404)
    assert api(None).get(url).status_code in (403, 404)


def test_the_feed_shows_the_public_announcement_and_each_private_result_only_to_its_seat(
    vault, players, hank
):
    ann, ben, _ = players
    private = {0: "PRIVATE-RESULT-ann", 1: "PRIVATE-RESULT-ben"}
    resolve(vault, hank, 1, public="PUBLIC-ANNOUNCEMENT-1", private=private)
    spectator = feed_texts(vault)
    assert "PUBLIC-ANNOUNCEMENT-1" in spectator
    assert "PRIVATE-RESULT" not in spectator
    mine = feed_texts(vault, ann)
    assert "PRIVATE-RESULT-ann" in mine and "PRIVATE-RESULT-ben" not in mine
    page = page_client(None).get(reverse("game", args=[vault.id])).content.decode()
    assert "PUBLIC-ANNOUNCEMENT-1" in page and "PRIVATE-RESULT" not in page
    assert "ROLE-SECRET" not in page and "NOTES-SECRET" not in page
    own = page_client(ben).get(reverse("game", args=[vault.id])).content.decode()
    assert role_of("ben") in own and role_of("ann") not in own and "PRIVATE-RESULT-ann" not in own


# -- the exports and the full reveal -------------------------------------------------------------------------


def test_the_export_and_history_reveal_notes_private_values_and_submissions_only_after_the_end(
    vault, players, hank
):
    ann, ben, _ = players
    assert submit(vault, ann, 1, ANSWER).status_code == 201
    assert submit(vault, ben, 1, {**ANSWER, "bid": 9}).status_code == 201
    export = reverse("game-export", args=[vault.id])
    for user in (ann, None):
        assert page_client(user).get(export).status_code == 404
        assert page_client(user).get(reverse("game-history", args=[vault.id])).status_code == 404
    # Before the end a player reads back only their own submissions.
    mine = api(ann).get(reverse("api-submission", args=[vault.id])).json()
    assert [(v["round"], v["payload"]["bid"]) for v in mine] == [(1, 4)]
    resolve(vault, hank, 1, public="Round 1 is over.")
    resolve(vault, hank, 2, public="The end.", ends=True, candidate=seat_of(vault, ann))
    assert vault.status == Game.Status.FINISHED
    data = page_client(ben).get(export).json()
    assert data["hidden_data"]["notes"] == "NOTES-SECRET"
    assert {s: v["Role"] for s, v in data["hidden_data"]["private"].items()} == {
        "0": role_of("ann"),
        "1": role_of("ben"),
        "2": role_of("cat"),
    }
    assert [(s["seat"], s["payload"]["bid"]) for s in data["submissions"]] == [(0, 4), (1, 9)]
    assert data["commitment"]["matches"] is True
    history = page_client(None).get(reverse("game-history", args=[vault.id])).content.decode()
    assert "NOTES-SECRET" in history and role_of("cat") in history


# -- the rules -----------------------------------------------------------------------------------------------


def test_the_hosts_rules_show_on_the_game_page_and_the_rules_page_with_raw_html_as_text(vault, players):
    rules_url = reverse("game-rules", args=[vault.id])
    for url in (reverse("game", args=[vault.id]), rules_url):
        page = page_client(players[0]).get(url).content.decode()
        assert "Bid for the key." in page
        assert "<script>alert" not in page and "&lt;script&gt;alert(" in page
        assert "<form action=" not in page and "&lt;form action=" in page and "<input>" not in page
        assert "<img src=x" not in page and "&lt;img src=x onerror=" in page
        assert '<table class="rules-table">' in page
    page = page_client(None).get(rules_url).content.decode()
    assert (
        "This game's rules, as its hosts wrote them" in page and reverse("rules", args=["host_run"]) in page
    )
    assert f'href="{rules_url}"' in page_client(None).get(reverse("game", args=[vault.id])).content.decode()


def test_a_game_without_rules_of_its_own_sends_its_rules_page_to_the_types_guide(tally):
    answer = page_client(None).get(reverse("game-rules", args=[tally.id]))
    assert answer.status_code in (302, 404)
