"""The hosts' design admin of a host-run game: built from forms (no JSON), each question's problem on its row
with everything typed kept, private values per seat, the console's link for both types, locked at the start,
and Copy this game (a draft in another season of the host's, without seats, private values or notes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.host_run.hidden import design_copy, design_problems
from games.host_run.models import Design, Field, PrivateColumn, PrivateValue, RoundPlan
from games.platform.models import AuditLog, Game, Season
from games.platform.services import games as game_services

pytestmark = pytest.mark.django_db

FOUR_KINDS = [
    {"order": 1, "kind": "number", "label": "Bid", "required": "on", "minimum": "0", "maximum": "10"},
    {"order": 2, "kind": "choice", "label": "Door", "required": "on", "options": "Red\nBlue"},
    {"order": 3, "kind": "player", "label": "Suspect"},
    {"order": 4, "kind": "short_text", "label": "Note", "maximum": "100"},
]


def as_host(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def draft(season, host, players, game_type="host_run", name="The Vault"):
    game = game_services.game_create(season=season, game_type=game_type, name=name, hosts=[host])
    for user in players:
        game_services.game_seat(game=game, user=user, actor=host)
    return game


def rows(prefix: str, items, initial: int = 0) -> dict:
    data = {f"{prefix}-TOTAL_FORMS": len(items), f"{prefix}-INITIAL_FORMS": initial}
    for i, row in enumerate(items):
        data.update({f"{prefix}-{i}-{key}": value for key, value in row.items()})
    return data


def design_post(game, questions=(), plans=(), columns=(), **extra) -> dict:
    data = {
        "game": game.pk,
        "rules": "# The Vault\n\nBid for the key. <b>not bold</b>",
        "rounds": "3",
        "window": "24",
        "window_unit": "hours",
        "scoreboard_public": "on",
        "board": "| Vault |\n|---|\n| closed |",
        "notes": "The key is in the third drawer.",
    }
    data |= rows("fields", list(questions))
    data |= rows("round_plans", list(plans))
    data |= rows("private_columns", list(columns))
    return data | extra


def add(client, data):
    return client.post(reverse("admin:host_run_design_add"), data)


@pytest.fixture
def game(season, hank, alice, bob):
    return draft(season, hank, [alice, bob])


def test_a_host_builds_a_three_round_design_of_four_kinds_from_forms(game, hank):
    plans = [
        {"number": "2", "title": "The auction", "window": "30", "window_unit": "minutes", "opens": "game"}
    ]
    response = add(as_host(hank), design_post(game, FOUR_KINDS, plans, [{"order": "1", "name": "Role"}]))
    design = Design.objects.get(game=game)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:host_run_design_change", args=[design.pk])
    assert design.rounds == 3 and design.notes == "The key is in the third drawer."
    assert [f.kind for f in design.fields.all()] == ["number", "choice", "player", "short_text"]
    assert design.fields.get(label="Door").options.splitlines() == ["Red", "Blue"]
    assert RoundPlan.objects.get(design=design).title == "The auction"
    assert design_problems(game) == []
    page = as_host(hank).get(response["Location"]).content.decode()
    assert "The design is ready to start." in page and "Copy this game" in page
    assert "HTML is not allowed: it shows as text" in page


def test_a_question_s_problem_shows_on_its_row_and_everything_typed_stays(game, hank):
    questions = [
        *FOUR_KINDS[:1],
        {"order": 2, "kind": "choice", "label": "Door", "options": "Only one"},
        {"order": 3, "kind": "number", "label": "Guess", "minimum": "9", "maximum": "3"},
    ]
    response = add(as_host(hank), design_post(game, questions, notes="My secret plan"))
    assert response.status_code == 200
    assert not Design.objects.exists()
    (questions_set,) = [
        f.formset for f in response.context["inline_admin_formsets"] if f.formset.prefix == "fields"
    ]
    first, door, guess = questions_set.forms
    assert first.errors == {}
    assert door.errors["options"] == ["Give at least two options, one per line."]
    assert guess.errors["maximum"] == ["The most (3) is less than the least (9)."]
    html = response.content.decode()
    assert "My secret plan" in html and "Only one" in html and 'value="Guess"' in html
    assert "# The Vault" in html


def test_each_seat_s_private_values_are_saved_from_the_grid(game, hank, alice, bob):
    client = as_host(hank)
    add(client, design_post(game, FOUR_KINDS, columns=[{"order": "1", "name": "Role"}]))
    design = Design.objects.get(game=game)
    column = PrivateColumn.objects.get(design=design)
    change = reverse("admin:host_run_design_change", args=[design.pk])
    page = client.get(change)
    grid = [name for name in page.context["adminform"].form.fields if name.startswith("private_")]
    seats = {seat.user.username: seat for seat in game.seats.all()}
    assert sorted(grid) == sorted(f"private_{column.pk}_{seat.pk}" for seat in seats.values())
    assert "Seat 1 (alice): Role" in page.content.decode()
    existing = [
        {"id": f.pk, "design": design.pk, **question}
        for f, question in zip(design.fields.all(), FOUR_KINDS, strict=True)
    ]
    data = design_post(game) | rows("fields", existing, initial=4)
    data |= rows("private_columns", [{"id": column.pk, "design": design.pk, "order": 1, "name": "Role"}], 1)
    data[f"private_{column.pk}_{seats['alice'].pk}"] = "Spy"
    data[f"private_{column.pk}_{seats['bob'].pk}"] = "Guard"
    saved = client.post(change, data)
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    values = {v.seat.user.username: v.value for v in PrivateValue.objects.filter(column=column)}
    assert values == {"alice": "Spy", "bob": "Guard"}
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    assert game.state["private"] == {"0": {"Role": "Spy"}, "1": {"Role": "Guard"}}


@pytest.mark.parametrize("game_type", ["host_run", "host_run_death"])
def test_the_console_links_to_the_design_for_both_types(season, hank, alice, bob, game_type):
    game = draft(season, hank, [alice, bob], game_type=game_type)
    console = reverse("admin:platform_game_change", args=[game.pk])
    before = as_host(hank).get(console)
    assert (
        before.context["console"]["hidden_link"] == reverse("admin:host_run_design_add") + f"?game={game.pk}"
    )
    html = before.content.decode()
    assert "Before the start: the game has no design yet" in html
    add(as_host(hank), design_post(game, FOUR_KINDS))
    design = Design.objects.get(game=game)
    after = as_host(hank).get(console)
    assert after.context["console"]["hidden_link"] == reverse(
        "admin:host_run_design_change", args=[design.pk]
    )


def test_the_console_says_what_blocks_the_start_in_one_sentence(game, hank):
    design = Design.objects.create(game=game, rounds=2)
    Field.objects.create(design=design, kind="choice", label="Door", options="Red")
    html = as_host(hank).get(reverse("admin:platform_game_change", args=[game.pk])).content.decode()
    assert "Before the start: the game&#x27;s form, Door: give at least two options, one per line." in html


def test_a_started_game_s_design_is_read_only(game, hank):
    client = as_host(hank)
    add(client, design_post(game, FOUR_KINDS))
    design = Design.objects.get(game=game)
    game_services.game_start(game=game, actor=hank)
    change = reverse("admin:host_run_design_change", args=[design.pk])
    page = client.get(change)
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    html = page.content.decode()
    assert "its design was copied into it and is locked" in html and "Copy this game" in html
    refused = client.post(change, design_post(game, FOUR_KINDS, notes="changed"))
    assert refused.status_code == 403
    design.refresh_from_db()
    assert design.notes == "The key is in the third drawer."


def test_copy_this_game_makes_a_draft_in_another_season_without_seats_values_or_notes(game, hank):
    client = as_host(hank)
    add(client, design_post(game, FOUR_KINDS, columns=[{"order": "1", "name": "Role"}]))
    design = Design.objects.get(game=game)
    column = design.private_columns.get()
    for seat in game.seats.all():
        PrivateValue.objects.create(column=column, seat=seat, value="Spy")
    game_services.game_start(game=game, actor=hank)
    next_season = Season.objects.create(name="Season 2")
    next_season.hosts.add(hank)
    copy_url = reverse("admin:host_run_design_copy", args=[design.pk])
    form = client.get(copy_url)
    assert form.context["form"]["name"].initial == "The Vault (again)"
    done = client.post(copy_url, {"season": next_season.pk, "name": "The Vault (again)"}, follow=True)
    new = Game.objects.get(name="The Vault (again)")
    assert new.season == next_season and new.status == Game.Status.DRAFT and new.game_type == "host_run"
    assert list(new.hosts.all()) == [hank] and new.seats.count() == 0
    copied = Design.objects.get(game=new)
    assert done.redirect_chain[-1][0] == reverse("admin:host_run_design_change", args=[copied.pk])
    assert "is a new draft in Season 2" in done.content.decode()
    assert [(f.kind, f.label, f.options) for f in copied.fields.all()] == [
        (f.kind, f.label, f.options) for f in design.fields.all()
    ]
    assert copied.rules == design.rules and copied.rounds == 3 and copied.notes == ""
    assert [c.name for c in copied.private_columns.all()] == ["Role"]
    assert not PrivateValue.objects.filter(column__design=copied).exists()


def test_design_copy_copies_the_design_alone(game, hank, season):
    design = Design.objects.create(game=game, rules="R", rounds=None, window=5, window_unit="minutes")
    design.notes = "hidden"
    design.scoreboard_public = False
    design.save()
    RoundPlan.objects.create(design=design, number=2, title="T", opens="by_hand")
    Field.objects.create(design=design, round_number=2, kind="yes_no", label="Ally?")
    column = PrivateColumn.objects.create(design=design, name="Hand")
    PrivateValue.objects.create(column=column, seat=game.seats.first(), value="AK")
    copy = design_copy(game=game, season=season, name="Again", actor=hank)
    new = Design.objects.get(game=copy)
    assert (new.rules, new.rounds, new.window, new.window_unit, new.scoreboard_public, new.notes) == (
        "R",
        None,
        5,
        "minutes",
        False,
        "",
    )
    assert list(new.round_plans.values_list("number", "title", "opens")) == [(2, "T", "by_hand")]
    assert list(new.fields.values_list("round_number", "kind", "label")) == [(2, "yes_no", "Ally?")]
    assert not PrivateValue.objects.filter(column__design=new).exists()
    logged = AuditLog.objects.get(action="host_run_design_copy", game=copy)
    assert logged.actor == hank and logged.detail["copied_from"] == game.pk


def test_a_host_of_another_season_can_neither_open_nor_copy_the_design(game, hank, make_user):
    add(as_host(hank), design_post(game, FOUR_KINDS))
    design = Design.objects.get(game=game)
    otto = make_user("otto", is_staff=True)
    Season.objects.create(name="Otto's season").hosts.add(otto)
    client = as_host(otto)
    for url in (
        reverse("admin:host_run_design_change", args=[design.pk]),
        reverse("admin:host_run_design_copy", args=[design.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    season = Season.objects.get(name="Otto's season")
    client.post(
        reverse("admin:host_run_design_copy", args=[design.pk]), {"season": season.pk, "name": "Mine"}
    )
    assert not Game.objects.filter(name="Mine").exists()
    assert "The Vault" not in client.get(reverse("admin:host_run_design_changelist")).content.decode()


def test_the_demo_starts_a_three_round_main_match_and_a_two_player_death_match():
    import io

    from django.core.management import call_command

    call_command("load_demo", "--quiet", "--window-minutes", "7", stdout=io.StringIO())
    main = Game.objects.get(game_type="host_run")
    death = Game.objects.get(game_type="host_run_death")
    for game in (main, death):
        assert game.status == Game.Status.RUNNING
        assert game.state["window"] == {"amount": 7, "unit": "minutes"}
        assert game.rounds.get(number=1).closes_at - game.rounds.get(number=1).opens_at == timedelta(
            minutes=7
        )
    assert main.state["rounds"] == 3 and len(main.state["forms"]["game"]) >= 4
    assert main.seats.count() == 10 and death.seats.count() == 2
