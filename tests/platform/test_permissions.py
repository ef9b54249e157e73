"""Every role sees and does only what is theirs: players, hosts, hosts of other games, spectators."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.platform.models import Game, Round
from games.platform.services import games as game_services
from games.platform.services.rounds import round_resolve, submission_save
from tests.api_support import api
from tests.conftest import seat_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved(tally, alice, bob):
    submission_save(
        seat=seat_of(tally, alice), round_number=0, payload={"number": 3, "secret_note": "CANARY-ALICE"}
    )
    submission_save(
        seat=seat_of(tally, bob), round_number=0, payload={"number": 4, "secret_note": "CANARY-BOB"}
    )
    return tally


@pytest.fixture
def other_game(season, make_user, charlie):
    """A game hosted by someone else, with its own hidden state."""
    olga = make_user("olga", is_staff=True)
    game = game_services.game_create(season=season, game_type="tally", name="Other", hosts=[olga], actor=olga)
    game_services.game_seat(game=game, user=charlie, actor=olga)
    game_services.game_seat(game=game, user=make_user("dora"), actor=olga)
    game_services.game_start(game=game, actor=olga)
    return game


def test_it_shows_a_player_only_their_own_submission(saved, alice):
    body = api(alice).get(reverse("api-game", args=[saved.id])).json()
    assert body["submission"]["payload"]["secret_note"] == "CANARY-ALICE"
    assert "CANARY-BOB" not in str(body)
    versions = api(alice).get(reverse("api-submission", args=[saved.id])).json()
    assert [v["payload"]["number"] for v in versions] == [3]


def test_it_hides_every_submission_from_spectators(saved, charlie):
    for client in (api(charlie), api()):
        body = client.get(reverse("api-game", args=[saved.id])).json()
        assert "CANARY-ALICE" not in str(body) and "CANARY-BOB" not in str(body)
        assert "CANARY-TALLY-SECRET" not in str(body)
        assert "submissions" not in body


def test_a_spectator_cannot_submit(saved, charlie):
    response = api(charlie).post(
        reverse("api-submission", args=[saved.id]), {"round": 0, "payload": {"number": 1}}, format="json"
    )
    assert response.status_code == 403


def test_it_keeps_each_inbox_private(saved, alice, bob, charlie):
    round_resolve(round_id=saved.rounds.get(number=0).id, early=True)
    alice_body = api(alice).get(reverse("api-game", args=[saved.id])).json()
    assert [e["text"] for e in alice_body["inbox"]] == ["Round 0: you picked 3."]
    bob_feed = api(bob).get(reverse("api-feed", args=[saved.id])).json()
    assert "you picked 3" not in str(bob_feed) and "you picked 4" in str(bob_feed)
    assert "you picked" not in str(api(charlie).get(reverse("api-feed", args=[saved.id])).json())


def test_a_host_sees_everything_of_their_game(saved, hank):
    body = api(hank).get(reverse("api-game", args=[saved.id])).json()
    notes = {s["payload"]["secret_note"] for s in body["submissions"]}
    assert notes == {"CANARY-ALICE", "CANARY-BOB"}
    assert body["state"]["secret"] == "CANARY-TALLY-SECRET"


def test_a_host_of_one_game_sees_nothing_hidden_of_another(saved, other_game, hank):
    body = api(hank).get(reverse("api-game", args=[other_game.id])).json()
    assert body["viewer"]["role"] == "spectator"
    assert "CANARY-TALLY-SECRET" not in str(body)
    assert api(hank).post(reverse("api-host-pause", args=[other_game.id])).status_code == 403
    assert (
        api(hank).post(reverse("api-host-announce", args=[other_game.id]), {"text": "hi"}).status_code == 403
    )


def test_a_private_game_is_not_found_by_anonymous_visitors(saved):
    Game.objects.filter(pk=saved.pk).update(public=False)
    assert api().get(reverse("api-game", args=[saved.id])).status_code == 404
    assert api().get(reverse("game", args=[saved.id])).status_code == 404


def test_players_cannot_run_host_actions(saved, alice):
    for name in ("api-host-pause", "api-host-resolve", "api-host-start"):
        assert api(alice).post(reverse(name, args=[saved.id])).status_code == 403
    assert Round.objects.get(game=saved, number=0).status == Round.Status.OPEN


def test_after_the_end_everything_is_revealed_to_everyone(saved, charlie):
    for number in range(3):
        round_resolve(round_id=saved.rounds.get(number=number).id, early=True)
    saved.refresh_from_db()
    assert saved.status == Game.Status.FINISHED
    body = api(charlie).get(reverse("api-game", args=[saved.id])).json()
    assert body["state"]["secret"] == "CANARY-TALLY-SECRET"
    assert any("you picked 3" in e["text"] for e in body["inbox"])


def test_the_page_shows_a_player_their_form_and_hides_it_from_others(saved, alice, charlie, client):
    client.force_login(alice)
    page = client.get(reverse("game", args=[saved.id])).content.decode()
    assert 'name="number"' in page and 'value="3"' in page
    client.force_login(charlie)
    page = client.get(reverse("game", args=[saved.id])).content.decode()
    assert 'name="number"' not in page and "CANARY" not in page
