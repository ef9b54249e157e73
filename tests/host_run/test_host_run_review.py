"""A host-run game as a host, a player and a spectator use it (issue 31's review): the console links a
started game's design and "Copy this game"; a Death Match made from the pick for a host-run season is a
draft its hosts can set up; rounds opened by hand; a hidden scoreboard; the end's garnets and Tokens of
Life in the season's ledger with readable reasons; the hosts' text shown as text everywhere; a round's own
form on the player's page and on the console."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.host_run.models import (
    Design,
    Field,
    PrivateColumn,
    PrivateValue,
    Resolution,
    RoundPlan,
    SeatResult,
)
from games.platform.models import AuditLog, DeathMatchPick, Game, LedgerEntry, Round
from games.platform.services import games as game_services
from games.platform.services.death_match import death_match_open
from games.platform.services.rounds import round_resolve, submission_save
from games.platform.services.season import pick_submit
from tests.api_support import api, page_client
from tests.conftest import seat_of

pytestmark = pytest.mark.django_db

# Host text that would do something if it were ever run as a template, a format string or HTML.
EVIL = "<script>alert(1)</script> {{ 7|add:1 }} {% now 'Y' %} %s %(x)s"


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def build(season, hank, players, *, game_type="host_run", start=True, name="Vault", **design) -> Game:
    """A host-run game with a one-question form ("Bid") and a private "Role" per seat, started."""
    game = game_services.game_create(season=season, game_type=game_type, name=name, hosts=[hank], actor=hank)
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    made = Design.objects.create(game=game, **{"rules": "Bid.", "rounds": 2, "window": 24, **design})
    Field.objects.create(design=made, order=1, kind="number", label="Bid", minimum=0, maximum=10)
    column = PrivateColumn.objects.create(design=made, order=1, name="Role")
    for user in players:
        PrivateValue.objects.create(column=column, seat=seat_of(game, user), value=f"role-of-{user.username}")
    if start:
        game_services.game_start(game=game, actor=hank)
        game.refresh_from_db()
    return game


def resolve(game, hank, number, *, public="", points=None, ends=False, candidate=None, end=None):
    """The hosts' sent resolution of round `number` and the platform's resolution of the round."""
    resolution = Resolution.objects.create(
        game=game,
        round_number=number,
        public_text=public,
        ends_game=ends,
        candidate=game.seats.get(number=candidate) if candidate is not None else None,
        sent_at=timezone.now(),
    )
    for seat in game.seats.all():
        SeatResult.objects.create(
            resolution=resolution,
            seat=seat,
            points=(points or {}).get(seat.number, 0),
            **(end or {}).get(seat.number, {}),
        )
    assert round_resolve(round_id=game.rounds.get(number=number).pk, early=True, actor=hank)
    game.refresh_from_db()


def console_of(game, hank) -> str:
    return page_client(hank).get(reverse("admin:platform_game_change", args=[game.pk])).content.decode()


# -- the console after the start ---------------------------------------------------------------------------


def test_a_started_game_s_console_links_its_design_read_only_and_copy_this_game(season, hank, players):
    game = build(season, hank, players)
    design = Design.objects.get(game=game)
    console = console_of(game, hank)
    change = reverse("admin:host_run_design_change", args=[design.pk])
    copy = reverse("admin:host_run_design_copy", args=[design.pk])
    assert f'<a href="{change}">The design (read-only since the start)</a>' in console
    assert f'<a href="{copy}">Copy this game</a>' in console
    page = page_client(hank).get(change).content.decode()
    assert "its design was copied into it and is locked here" in page
    resolve(game, hank, 1)
    resolve(game, hank, 2, ends=True)
    assert game.status == Game.Status.FINISHED
    assert f'<a href="{copy}">Copy this game</a>' in console_of(game, hank)


def test_before_the_start_the_console_links_the_design_once_and_copy_this_game(season, hank, players):
    game = build(season, hank, players, start=False)
    design = Design.objects.get(game=game)
    console = console_of(game, hank)
    change = reverse("admin:host_run_design_change", args=[design.pk])
    assert console.count(f'href="{change}"') == 1  # the hidden data's own link, not a second one
    assert reverse("admin:host_run_design_copy", args=[design.pk]) in console


# -- a Death Match made from the pick ----------------------------------------------------------------------


def test_a_host_run_death_match_from_the_season_console_is_a_draft_that_says_what_to_do(
    season, hank, players
):
    season.settings = {**(season.settings or {}), "death_match_type": "host_run_death"}
    season.save(update_fields=["settings"])
    main = build(season, hank, players, rounds=1)
    ann, ben, cat = players
    resolve(main, hank, 1, ends=True, candidate=seat_of(main, cat).number)
    pick = DeathMatchPick.objects.get(main_match=main)
    pick_submit(pick=pick, user=cat, opponent=ben)
    dm = death_match_open(pick=pick, actor=hank, start_at=timezone.now() + timedelta(days=1))
    assert dm.game_type == "host_run_death"
    assert dm.status == Game.Status.DRAFT  # not refused: the hosts set its design up, then start it
    assert sorted(s.user.username for s in dm.seats.all()) == ["ben", "cat"]
    console = console_of(dm, hank)
    assert "Before the start: the game has no design yet" in console
    assert f'<a href="{reverse("admin:host_run_design_add")}?game={dm.pk}">Enter the design</a>' in console
    # A design copied from an earlier game's is a new game; this one's is set up on its own page.
    design = Design.objects.create(game=dm, rules="One duel.", rounds=1, window=1)
    Field.objects.create(design=design, order=1, kind="number", label="Bid", minimum=0, maximum=10)
    game_services.game_start(game=dm, actor=hank)
    dm.refresh_from_db()
    assert dm.status == Game.Status.RUNNING
    resolve(dm, hank, 1, ends=True, candidate=seat_of(dm, cat).number)
    assert dm.status == Game.Status.FINISHED
    assert season.players.get(user=cat).eliminated


def test_the_season_console_says_the_death_match_waits_for_its_design(client, season, hank, players):
    season.settings = {**(season.settings or {}), "death_match_type": "host_run_death"}
    season.save(update_fields=["settings"])
    main = build(season, hank, players, rounds=1)
    ann, ben, cat = players
    resolve(main, hank, 1, ends=True, candidate=seat_of(main, cat).number)
    pick_submit(pick=DeathMatchPick.objects.get(main_match=main), user=cat, opponent=ben)
    client.force_login(hank)
    start_at = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post(
        reverse("admin:platform_season_console", args=[season.pk, "create_death_match"]),
        {"game": main.pk, "start_at": start_at, "confirm": "yes"},
        follow=True,
    )
    words = answer.content.decode()
    dm = Game.objects.get(game_type="host_run_death")
    assert dm.status == Game.Status.DRAFT
    assert "Before it can start: the game has no design yet" in words
    assert "then press Start" in words


# -- rounds opened by hand ---------------------------------------------------------------------------------


def test_a_round_opened_by_hand_waits_for_the_host_then_opens_and_tells_the_players(season, hank, players):
    game = build(season, hank, players, rounds=3, opened_by_hand=True)
    ann = players[0]
    submission_save(seat=seat_of(game, ann), round_number=1, payload={"bid": 3})
    resolve(game, hank, 1, public="Ann bid highest.")
    assert not game.rounds.filter(number=2).exists()
    console = console_of(game, hank)
    assert "Open Round 2" in console
    page = page_client(ann).get(f"/games/{game.pk}/").content.decode()
    assert "Round 2 opens when the hosts open it" in page
    assert "This round asks" not in page  # Round 1 is resolved: nothing is asked now
    obs = api(ann).get(reverse("api-game", args=[game.pk])).json()
    assert obs["round"]["next_by_hand"] == 2
    mail.outbox.clear()
    answer = page_client(hank).post(
        reverse("admin:platform_game_host", args=[game.pk, "open_round"]), follow=True
    )
    assert "Round 2" in answer.content.decode()
    rnd = game.rounds.get(number=2)
    assert rnd.status == Round.Status.OPEN
    assert AuditLog.objects.filter(action="round_open_by_hand", game=game).exists()
    assert submission_save(seat=seat_of(game, ann), round_number=2, payload={"bid": 4})
    page = page_client(ann).get(f"/games/{game.pk}/").content.decode()
    assert "Round 2 of 3" in page


# -- a hidden scoreboard -----------------------------------------------------------------------------------


def test_a_hidden_scoreboard_shows_each_player_their_own_points_only_until_the_end(season, hank, players):
    game = build(season, hank, players, scoreboard_public=False, rounds=2)
    ann, ben, cat = players
    points = {seat_of(game, ann).number: 41, seat_of(game, ben).number: 37, seat_of(game, cat).number: 29}
    resolve(game, hank, 1, points=points)
    for viewer in (ann, None):
        page = page_client(viewer).get(f"/games/{game.pk}/").content.decode()
        answer = json.dumps(api(viewer).get(reverse("api-game", args=[game.pk])).json())
        assert "<td>37</td>" not in page and "<td>29</td>" not in page
        assert '"points": 37' not in answer and '"points": 29' not in answer
        assert api(viewer).get(reverse("api-game", args=[game.pk])).json()["state"]["scoreboard"] == []
    page = page_client(ann).get(f"/games/{game.pk}/").content.decode()
    assert "Your points: 41" in page
    assert "37" in console_of(game, hank)
    resolve(game, hank, 2, ends=True, candidate=seat_of(game, cat).number)
    for viewer in (ben, None):
        page = page_client(viewer).get(f"/games/{game.pk}/").content.decode()
        assert "<td>41</td>" in page and "<td>37</td>" in page


# -- the end -----------------------------------------------------------------------------------------------


def test_the_end_s_garnets_and_tokens_reach_the_season_ledger_with_readable_reasons(season, hank, players):
    game = build(season, hank, players, rounds=1, name="The Vault")
    ann, ben, cat = players
    a, b, c = (seat_of(game, u).number for u in players)
    end = {
        a: {"rank": 1, "winner": True, "tokens_of_life": 1, "garnets": 3},
        b: {"rank": 2, "garnets": 1},
        c: {"rank": 3},
    }
    resolve(game, hank, 1, ends=True, candidate=c, end=end)
    rows = {
        (e.account.user.username, e.account.kind if hasattr(e.account, "kind") else "", e.reason, e.delta)
        for e in LedgerEntry.objects.filter(game=game).select_related("account__user")
    }
    reasons = {(user, reason, delta) for user, _what, reason, delta in rows}
    assert ("ann", "Won The Vault", 3) in reasons
    assert ("ann", "Won The Vault", 1) in reasons
    assert ("ben", "Rank 2 in The Vault", 1) in reasons
    assert all(e.actor_id == hank.pk for e in LedgerEntry.objects.filter(game=game))


# -- the hosts' text is text -------------------------------------------------------------------------------


def evil_game(season, hank, players) -> Game:
    game = game_services.game_create(
        season=season, game_type="host_run", name="Evil", hosts=[hank], actor=hank
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    design = Design.objects.create(game=game, rules=EVIL, rounds=2, window=24, board=EVIL, notes=EVIL)
    Field.objects.create(
        design=design,
        order=1,
        kind="choice",
        label="Pick <b>%s</b>",
        help=EVIL[:200],
        options="<i>A</i>\n{{ B }}",
    )
    Field.objects.create(design=design, order=2, kind="short_text", label="Say {% now 'Y' %}", required=False)
    RoundPlan.objects.create(design=design, number=1, title="<script>t()</script>")
    column = PrivateColumn.objects.create(design=design, order=1, name="<em>Role</em>")
    for user in players:
        PrivateValue.objects.create(column=column, seat=seat_of(game, user), value=EVIL)
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    return game


def unevaluated(text: str) -> None:
    assert "<script>" not in text and "<b>%s</b>" not in text and "<em>Role</em>" not in text
    assert "alert(1)" not in text or "&lt;script&gt;alert(1)" in text or "&lt;script&gt;" in text
    year = str(timezone.now().year)
    assert f"Say {year}" not in text


def test_the_hosts_text_is_shown_as_text_on_every_page_and_in_every_message(season, hank, players):
    game = evil_game(season, hank, players)
    ann = players[0]
    pick, say = (f["key"] for f in game.state["forms"]["game"])
    submission_save(seat=seat_of(game, ann), round_number=1, payload={pick: "{{ B }}", say: EVIL[:60]})
    mail.outbox.clear()
    resolve(game, hank, 1, public=EVIL)
    Resolution.objects.filter(game=game, round_number=1).update(public_text=EVIL)
    for page in (
        page_client(ann).get(f"/games/{game.pk}/").content.decode(),
        page_client(None).get(f"/games/{game.pk}/").content.decode(),
        page_client(ann).get(f"/games/{game.pk}/rules/").content.decode(),
        console_of(game, hank),
        page_client(hank).get(f"/admin/host_run/resolution/resolve/{game.pk}/").content.decode(),
    ):
        unevaluated(page)
        assert "{{ 7|add:1 }}" in page or "{{ 7|add:1 }}".replace("|", "&#124;") in page
        assert "%(x)s" in page
    for sent in mail.outbox:
        unevaluated(sent.body)
        for body, _type in getattr(sent, "alternatives", []):
            unevaluated(body)


# -- a round's own form ------------------------------------------------------------------------------------


def test_a_round_with_its_own_form_asks_it_and_the_console_describes_it_by_that_form(season, hank, players):
    game = game_services.game_create(
        season=season, game_type="host_run", name="Two", hosts=[hank], actor=hank
    )
    for user in players:
        game_services.game_seat(game=game, user=user, actor=hank)
    design = Design.objects.create(game=game, rules="Two forms.", rounds=2, window=24)
    # Both forms ask "Target" (the same key): the game's as a player, Round 2's as a word.
    Field.objects.create(design=design, order=1, kind="player", label="Target")
    Field.objects.create(design=design, round_number=2, order=1, kind="short_text", label="Target")
    game_services.game_start(game=game, actor=hank)
    game.refresh_from_db()
    ann, ben, _cat = players
    submission_save(seat=seat_of(game, ann), round_number=1, payload={"target": seat_of(game, ben).number})
    assert "Target: ben" in console_of(game, hank)
    resolve(game, hank, 1)
    page = page_client(ann).get(f"/games/{game.pk}/").content.decode()
    assert 'name="target"' in page and "<select" not in page.split('name="target"')[0][-200:]
    submission_save(seat=seat_of(game, ann), round_number=2, payload={"target": "0"})
    assert "Target: “0”" in console_of(game, hank)
