"""A host-run Main Match through the services: three players submit, the round closes and waits for the
hosts, their sent resolution is applied (announcement, inboxes, points, private values) and opens the next
round; the last one ends the game and names the Elimination Candidate, who then picks a Death Match."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from games.host_run.models import Design, Field, PrivateColumn, PrivateValue, Resolution, SeatResult
from games.platform import registry
from games.platform.kit import RulesError
from games.platform.models import DeathMatchPick, Event, Game, Round
from games.platform.observation import observe
from games.platform.registry import Viewer
from games.platform.services import games as game_services
from games.platform.services.ledger import balances
from games.platform.services.rounds import Resolution as Resolved
from games.platform.services.rounds import round_resolve, submission_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


@pytest.fixture
def game(season, hank, players):
    game = game_services.game_create(
        season=season, game_type="host_run", name="The Vault", hosts=[hank], actor=hank
    )
    seats = [game_services.game_seat(game=game, user=user, actor=hank) for user in players]
    design = Design.objects.create(game=game, rules="# The Vault", rounds=2, window=2, board="closed")
    Field.objects.create(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=9)
    Field.objects.create(design=design, order=2, kind="player", label="Suspect", required=False)
    role = PrivateColumn.objects.create(design=design, name="Role")
    for seat, value in zip(seats, ["Spy", "Guard", "Thief"], strict=True):
        PrivateValue.objects.create(column=role, seat=seat, value=value)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def send(game, number, seats, **fields):
    resolution = Resolution.objects.create(game=game, round_number=number, sent_at=timezone.now(), **fields)
    for seat_number, part in seats.items():
        SeatResult.objects.create(resolution=resolution, seat=game.seats.get(number=seat_number), **part)
    return resolution


def test_a_design_problem_keeps_the_game_from_starting(season, hank, players):
    game = game_services.game_create(
        season=season, game_type="host_run", name="Empty", hosts=[hank], actor=hank
    )
    kind = registry.get("host_run")
    assert kind.hidden_problems(game) == [
        "the game has no design yet: write its rules, rounds and round form in the admin"
    ]
    design = Design.objects.create(game=game, rounds=2)
    Field.objects.create(design=design, round_number=1, kind="yes_no", label="Ready?")
    assert kind.hidden_problems(game) == [
        "Round 2 has no form: add questions to the game's form or to that round's own form"
    ]
    Field.objects.create(design=design, round_number=2, kind="yes_no", label="Ready?")
    assert kind.hidden_problems(game) == []


def test_a_round_waits_for_the_hosts_then_their_resolution_plays_out(game, hank, players, season):
    kind = registry.get("host_run")
    assert game.state["private"] == {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}, "2": {"Role": "Thief"}}
    first = Round.objects.get(game=game, number=1)
    assert first.closes_at - first.opens_at == dt.timedelta(hours=2)
    seats = list(game.seats.order_by("number"))

    with pytest.raises(RulesError) as refused:
        kind.clean_submission(game, seats[0], first, {"bid": 12})
    assert refused.value.field == "bid"
    # "one of the game's players" includes oneself (docs/rulings/host_run.md)
    submission_save(seat=seats[0], round_number=1, payload={"bid": 3, "suspect": 0})
    submission_save(seat=seats[0], round_number=1, payload={"bid": 5, "suspect": 1})
    submission_save(seat=seats[1], round_number=1, payload={"bid": 4, "suspect": None})
    assert kind.describe_submission(game, {"bid": 5, "suspect": 1}) == "Bid: 5; Suspect: ben"

    ben = observe(game, Viewer(role="player", seat=seats[1], user=players[1]))["state"]
    assert ben["mine"] == [{"column": "Role", "value": "Guard"}] and "private_table" not in ben
    assert "Spy" not in str(ben) and "Thief" not in str(ben)

    with time_machine.travel(first.closes_at + dt.timedelta(minutes=1)):
        assert round_resolve(round_id=first.pk) is Resolved.WAITING
        first.refresh_from_db()
        assert first.status == Round.Status.OPEN and first.attempts == 0
        assert first.last_error == "Closed: the hosts are working out the results of Round 1."
        Resolution.objects.create(game=game, round_number=1, public_text="A draft")  # not sent: still waiting
        assert round_resolve(round_id=first.pk) is Resolved.WAITING
        Resolution.objects.filter(game=game).delete()

        send(
            game,
            1,
            {
                0: {
                    "private_text": "You hold the key.",
                    "points": 3,
                    "private_values": {"Role": "Keyholder"},
                },
                1: {"private_text": "Nothing for you.", "points": -1},
            },
            public_text="**ann** bid highest.",
            board="open",
        )
        assert round_resolve(round_id=first.pk, early=True, actor=hank) is Resolved.RESOLVED

    game.refresh_from_db()
    assert game.state["scores"] == {"0": 3, "1": -1, "2": 0}
    assert game.state["private"]["0"] == {"Role": "Keyholder"}
    assert game.state["board"] == "open"
    announced = Event.objects.filter(game=game, kind=Event.Kind.ANNOUNCEMENT).values_list("text", flat=True)
    assert "Round 1 results:\n\n**ann** bid highest." in announced
    inbox = dict(Event.objects.filter(game=game, kind=Event.Kind.REVEAL).values_list("seat__number", "text"))
    assert inbox == {0: "You hold the key.", 1: "Nothing for you."}
    assert balances(season=season, user=players[0], game=game)["points"] == 3
    second = Round.objects.get(game=game, number=2)
    assert second.status == Round.Status.OPEN

    page = observe(game, Viewer(role="spectator"))["state"]
    assert "<strong>ann</strong> bid highest." in page["results"][0]["html"]
    assert "Keyholder" not in str(page) and "notes_html" not in page

    send(
        game,
        2,
        {0: {"winner": True, "rank": 1, "garnets": 2}, 1: {"rank": 3}, 2: {"rank": 2, "tokens_of_life": 1}},
        public_text="The vault opens.",
        ends_game=True,
        candidate=game.seats.get(number=1),
        tie_note="",
    )
    with time_machine.travel(second.opens_at + dt.timedelta(minutes=5)):
        assert round_resolve(round_id=second.pk, early=True, actor=hank) is Resolved.RESOLVED
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert kind.elimination_candidate(game) == 1
    assert balances(season=season, user=players[0])["garnets"] >= 2
    assert balances(season=season, user=players[2])["tokens_of_life"] >= 1
    assert DeathMatchPick.objects.get(main_match=game).candidate == players[1]
    end = observe(game, Viewer(role="spectator"))["state"]
    assert end["candidate_name"] == "ben" and end["private_table"][0]["values"] == ["Keyholder"]


def test_the_demo_design_starts_a_death_match(season, hank, players):
    game = game_services.game_create(
        season=season, game_type="host_run_death", name="Duel", hosts=[hank], actor=hank
    )
    for user in players[:2]:
        game_services.game_seat(game=game, user=user, actor=hank)
    kind = registry.get("host_run_death")
    kind.demo_prepare(game)
    assert kind.hidden_problems(game) == []
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    assert game.state["rounds"] == 3 and game.state["private"]["1"] == {"Role": "Guard"}
    seat = game.seats.get(number=0)
    rnd = Round.objects.get(game=game, number=1)
    form = kind.submission_form(
        game, seat, rnd, data={"bid": "4", "suspect": "1", "door": "Red", "share_the_key": "yes"}
    )
    assert form.is_valid(), form.errors
    payload = kind.form_to_payload(form)
    assert kind.clean_submission(game, seat, rnd, payload) == {
        "bid": 4,
        "suspect": 1,
        "door": "Red",
        "share_the_key": True,
        "note_to_the_hosts": None,
    }
