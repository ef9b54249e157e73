"""Season set-up as forms (issue 29.3): the season's settings as a typed form drawn from their description,
the starting garnets and Tokens of Life given to each player once as they join, a grant to several players at
once answered with their new balances, and an invitation form that picks the season and gives a link and a
text to copy."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.platform import season_settings
from games.platform.admin.settings_form import field_name
from games.platform.models import AuditLog, Game, Invitation, LedgerAccount, LedgerEntry, Season, SeasonPlayer
from games.platform.services import games as game_services
from games.platform.services.invitations import invitation_accept, invitation_create
from games.platform.services.ledger import ledger_post
from tests.platform.test_invitations import join_url, sign_up

pytestmark = pytest.mark.django_db


def change_url(season) -> str:
    return reverse("admin:platform_season_change", args=[season.id])


def as_host(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def season_form(client, season, **changes) -> dict:
    """The season's change form as a browser posts it back: its fields as they are, with `changes`."""
    page = client.get(change_url(season))
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name == "hosts":
            value = [u.pk for u in season.hosts.all()]
        if value is None or value is False or name in ("settings", "grant_to"):
            continue
        data[name] = (
            value if name == "hosts" else (", ".join(map(str, value)) if isinstance(value, list) else value)
        )
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def balance(season, user, what="garnets") -> int:
    account = LedgerAccount.objects.filter(season=season, user=user, what=what, game__isnull=True).first()
    return account.balance if account else 0


# -- the settings form ---------------------------------------------------------------------------------------


def test_every_season_setting_is_a_field_with_its_help_and_its_default(season, hank):
    client = as_host(hank)
    page = client.get(change_url(season))
    html = page.content.decode()
    form = page.context["adminform"].form
    for setting in season_settings.described():
        name = field_name(setting)
        assert f'name="{name}"' in html, setting.key
        assert setting.help.replace("'", "&#x27;") in html, setting.key
        assert form[name].value() in (setting.default, str(setting.default)), setting.key
        assert f">{setting.label}" in html, setting.key
    assert 'name="settings"' not in html, "no JSON box when every setting is described"
    # The Death Match is picked by its game's name among the registered Death Matches only.
    assert '<option value="middle_marathon" selected>Middle Marathon</option>' in html
    assert '<option value="horse_race"' not in html
    # The season's page leads to its invitations, the season picked.
    assert reverse("admin:platform_invitation_add") + f"?season={season.id}" in html


def test_settings_typed_in_their_fields_are_kept_as_their_kind_and_audited(season, hank):
    client = as_host(hank)
    data = season_form(
        client,
        season,
        set__starting_garnets="4",
        set__pick_hours="36",
        set__transfers_allowed="on",
        set__tol_holders_immune="",
    )
    answer = client.post(change_url(season), data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    season.refresh_from_db()
    settings = season.settings
    assert settings["starting_garnets"] == 4 and settings["pick_hours"] == 36
    assert isinstance(settings["pick_hours"], int), "a whole number of hours stays whole in the JSON"
    assert settings["transfers_allowed"] is True and settings["tol_holders_immune"] is False
    assert (
        settings["death_match_type"] == "middle_marathon" and settings["tol_saves_from_elimination"] is True
    )
    logged = AuditLog.objects.get(action="season_settings", season=season)
    assert logged.actor == hank
    assert logged.detail["changed"] == {
        "pick_hours": [24, 36],
        "starting_garnets": [0, 4],
        "tol_holders_immune": [True, False],
        "transfers_allowed": [False, True],
    }
    # What the services read is what the form set.
    assert season_settings.season_setting(season, "transfers_allowed") is True


def test_a_new_season_is_set_up_on_its_add_page(make_user):
    organiser = make_user("olga", is_staff=True, is_superuser=True)
    client = as_host(organiser)
    add = client.get(reverse("admin:platform_season_add")).content.decode()
    assert 'name="set__starting_garnets"' in add and 'name="grant_to"' not in add, (
        "no players to grant to yet"
    )
    answer = client.post(
        reverse("admin:platform_season_add"),
        {
            "name": "Season 9",
            "set__starting_garnets": "3",
            "set__starting_tokens_of_life": "0",
            "set__death_match_type": "middle_marathon",
            "set__pick_hours": "24",
            "set__tol_holders_immune": "on",
            "set__tol_saves_from_elimination": "on",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert Season.objects.get(name="Season 9").settings["starting_garnets"] == 3


def test_wrong_values_are_errors_next_to_their_fields_in_words_and_nothing_typed_is_lost(season, hank):
    client = as_host(hank)
    data = season_form(
        client,
        season,
        name="Season One, renamed",
        set__starting_garnets="-1",
        set__starting_tokens_of_life="lots",
        set__pick_hours="0",
        set__death_match_type="horse_race",
    )
    answer = client.post(change_url(season), data)
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert errors["set__starting_garnets"] == [
        "Starting garnets must be a whole number from 0 to 1000, not -1."
    ]
    assert errors["set__starting_tokens_of_life"] == ["Starting Tokens of Life must be a whole number."]
    assert errors["set__pick_hours"] == [
        "Hours to pick an opponent must be a number above 0 and at most 336, not 0."
    ]
    assert "Select a valid choice" in errors["set__death_match_type"][0]
    assert set(errors) == {
        "set__starting_garnets",
        "set__starting_tokens_of_life",
        "set__pick_hours",
        "set__death_match_type",
    }, "an error only where the value is wrong"
    html = answer.content.decode()
    assert 'value="Season One, renamed"' in html and 'value="lots"' in html, "what was typed comes back"
    season.refresh_from_db()
    assert season.name == "Season 1" and season.settings == {}, "nothing is saved"
    assert not AuditLog.objects.filter(action="season_settings").exists()


def test_settings_no_description_covers_stay_in_the_json_box(season, hank):
    Season.objects.filter(pk=season.pk).update(
        settings={"house_rule": "no trading on Sundays", "pick_hours": 12}
    )
    client = as_host(hank)
    page = client.get(change_url(season))
    form = page.context["adminform"].form
    assert json.loads(form["settings"].value()) == {"house_rule": "no trading on Sundays"}
    assert form["set__pick_hours"].value() == 12
    data = season_form(client, season, set__pick_hours="48", settings='{"house_rule": "none"}')
    assert client.post(change_url(season), data).status_code == 302
    season.refresh_from_db()
    assert season.settings["house_rule"] == "none" and season.settings["pick_hours"] == 48
    bad = client.post(change_url(season), {**data, "settings": "[1, 2]"})
    assert bad.context["adminform"].form.errors["settings"] == [
        'Settings are a JSON object, like {"pick_hours": 24}.'
    ]


# -- starting balances ---------------------------------------------------------------------------------------


def starting(client, season, garnets: int, tokens: int = 0):
    data = season_form(
        client, season, set__starting_garnets=str(garnets), set__starting_tokens_of_life=str(tokens)
    )
    return client.post(change_url(season), data, follow=True)


def test_a_newcomer_who_joins_from_the_link_starts_with_the_seasons_garnets_and_tokens(season, hank, alice):
    starting(as_host(hank), season, 3, 1)
    invitation = invitation_create(season=season, actor=hank)
    client = Client()
    client.get(join_url(invitation))
    assert sign_up(client, "newcomer", next_url=join_url(invitation)).status_code == 302
    newcomer = SeasonPlayer.objects.get(season=season, user__username="newcomer").user
    assert (balance(season, newcomer), balance(season, newcomer, "tokens_of_life")) == (3, 1)
    reasons = sorted(LedgerEntry.objects.filter(account__user=newcomer).values_list("reason", flat=True))
    assert reasons == ["Starting Tokens of Life", "Starting garnets"]
    logged = AuditLog.objects.get(action="season_starting_balances", detail__user="newcomer")
    assert logged.detail["garnets"] == 3 and logged.detail["tokens_of_life"] == 1
    # Someone with an account logs in from the link: the same start.
    other = Client()
    other.get(join_url(invitation))
    other.post(reverse("login"), {"login": "alice", "password": "pw-alice", "next": join_url(invitation)})
    assert (balance(season, alice), balance(season, alice, "tokens_of_life")) == (3, 1)
    # Opening the link again, or being seated in a game, gives nothing more.
    other.post(join_url(invitation))
    game = game_services.game_create(season=season, game_type="tally", name="T", hosts=[hank], actor=hank)
    game_services.game_seat(game=game, user=alice, actor=hank)
    assert balance(season, alice) == 3
    # Seated without an invitation is joining too.
    seated = game_services.game_seat(
        game=game, user=alice.__class__.objects.create_user("walkon"), actor=hank
    )
    assert balance(season, seated.user) == 3


def test_starting_garnets_set_later_go_once_to_those_already_in_and_to_each_newcomer(
    season, hank, alice, bob, charlie, make_user
):
    for user in (alice, bob, charlie):
        invitation_accept(token=invitation_create(season=season, actor=hank).token, user=user)
    SeasonPlayer.objects.filter(season=season, user=charlie).update(eliminated=True)
    client = as_host(hank)
    page = starting(client, season, 3)
    said = [str(m) for m in page.context["messages"]]
    assert "Given 3 garnets each to alice, bob, who had none." in said
    assert (balance(season, alice), balance(season, bob), balance(season, charlie)) == (3, 3, 0)
    entry = LedgerEntry.objects.get(account__user=alice)
    assert entry.reason == "Starting garnets" and entry.actor == hank
    # Raised later: those who had theirs keep what they had; the next newcomer gets the new amount.
    page = starting(client, season, 5)
    assert not any("Given" in str(m) for m in page.context["messages"])
    assert balance(season, alice) == 3
    dora = make_user("dora")
    invitation_accept(token=invitation_create(season=season, actor=hank).token, user=dora)
    assert balance(season, dora) == 5
    assert AuditLog.objects.filter(action="season_starting_balances").count() == 3


# -- a grant to several players ------------------------------------------------------------------------------


@pytest.fixture
def players(season, hank, alice, bob, charlie):
    for user in (alice, bob, charlie):
        invitation_accept(token=invitation_create(season=season, actor=hank).token, user=user)
    ledger_post(season=season, user=alice, what="garnets", delta=2, reason="earlier")
    return [alice, bob, charlie]


def test_a_grant_to_several_players_with_one_reason_is_answered_with_their_balances(season, hank, players):
    client = as_host(hank)
    form = client.get(change_url(season)).content.decode()
    assert "alice: 2 garnets, 0 Tokens of Life" in form, "each player with their balances"
    data = season_form(
        client,
        season,
        grant_to=[u.pk for u in players],
        grant_what="garnets",
        grant_delta="3",
        grant_reason="joined late",
    )
    page = client.post(change_url(season), data, follow=True)
    said = [str(m) for m in page.context["messages"]]
    assert "Granted 3 garnets to alice, bob, charlie: alice 5, bob 3, charlie 3." in said
    rows = LedgerEntry.objects.filter(reason="Host: joined late").order_by("account__user__username")
    assert [(r.account.user.username, r.delta, r.balance_after, r.actor) for r in rows] == [
        ("alice", 3, 5, hank),
        ("bob", 3, 3, hank),
        ("charlie", 3, 3, hank),
    ]
    logged = AuditLog.objects.filter(action="season_grant", actor=hank).order_by("detail__user")
    assert [(a.detail["user"], a.detail["delta"], a.detail["reason"]) for a in logged] == [
        ("alice", 3, "joined late"),
        ("bob", 3, "joined late"),
        ("charlie", 3, "joined late"),
    ]
    # Taken back from one, a Token of Life to another: the same words.
    data = season_form(client, season, grant_to=[players[0].pk], grant_delta="-1", grant_reason="typo")
    page = client.post(change_url(season), data, follow=True)
    assert "Took 1 garnet from alice: alice 4." in [str(m) for m in page.context["messages"]]
    data = season_form(
        client,
        season,
        grant_to=[players[1].pk],
        grant_what="tokens_of_life",
        grant_delta="1",
        grant_reason="x",
    )
    page = client.post(change_url(season), data, follow=True)
    assert "Granted 1 Token of Life to bob: bob 1." in [str(m) for m in page.context["messages"]]


def test_a_grant_missing_its_parts_or_taking_too_much_is_refused_next_to_the_field(season, hank, players):
    client = as_host(hank)
    data = season_form(client, season, name="Kept name", grant_to=[players[1].pk], grant_delta="0")
    answer = client.post(change_url(season), data)
    errors = answer.context["adminform"].form.errors
    assert errors["grant_delta"] == ["Grant at least 1, or take at least 1 with a minus sign."]
    assert errors["grant_reason"] == ["Say why: the reason is kept with each player's entry."]
    assert 'value="Kept name"' in answer.content.decode()
    data = season_form(
        client, season, grant_to=[u.pk for u in players], grant_delta="-2", grant_reason="oops"
    )
    errors = client.post(change_url(season), data).context["adminform"].form.errors
    assert errors["grant_delta"] == ["bob has 0 garnets, charlie has 0 garnets: 2 cannot be taken."]
    data = season_form(client, season, grant_delta="2", grant_reason="for whom?")
    errors = client.post(change_url(season), data).context["adminform"].form.errors
    assert errors["grant_to"] == ["Tick the players to grant to."]
    assert not LedgerEntry.objects.filter(reason__startswith="Host:").exists()
    assert not AuditLog.objects.filter(action="season_grant").exists()
    assert Season.objects.get(pk=season.pk).name == "Season 1"


def test_a_grants_answer_shows_the_balance_this_host_may_know(season, hank, players, tally, make_user):
    """A running game this host does not host moved alice's garnets in secret: the answer (and the form)
    show her balance without that move, as the ledger admin does (issue 17.4)."""
    other_host = make_user("otto", is_staff=True)
    secret = game_services.game_create(
        season=season, game_type="tally", name="Secret", hosts=[other_host], actor=other_host
    )
    Game.objects.filter(pk=secret.pk).update(status=Game.Status.RUNNING)
    ledger_post(season=season, user=players[0], what="garnets", delta=-2, reason="a secret buy", game=secret)
    client = as_host(hank)
    assert "alice: 2 garnets" in client.get(change_url(season)).content.decode()
    data = season_form(client, season, grant_to=[players[0].pk], grant_delta="1", grant_reason="prize")
    said = [str(m) for m in client.post(change_url(season), data, follow=True).context["messages"]]
    assert "Granted 1 garnet to alice: alice 3." in said, said
    assert balance(season, players[0]) == 1


# -- invitations ---------------------------------------------------------------------------------------------


def test_the_invitation_form_picks_the_season_it_was_opened_from_or_the_only_one(season, hank, make_user):
    client = as_host(hank)
    add = reverse("admin:platform_invitation_add")
    assert f'<option value="{season.id}" selected>Season 1</option>' in client.get(add).content.decode()
    second = Season.objects.create(name="Season 2")
    second.hosts.add(hank)
    none_picked = client.get(add).content.decode()
    assert "selected>Season" not in none_picked, "two seasons: the host picks"
    # Opened from a season's page, by its "invite players": that season.
    season_page = client.get(change_url(second)).content.decode()
    link = re.search(r'<a href="([^"]+)">invite players</a>', season_page).group(1).replace("&amp;", "&")
    from_page = client.get(link).content.decode()
    assert f'<option value="{second.id}" selected>Season 2</option>' in from_page
    stranger = Season.objects.create(name="Not hank's")
    foreign = client.get(f"{add}?season={stranger.id}").content.decode()
    assert "Not hank" not in foreign and "selected>Season" not in foreign


def test_a_made_invitation_opens_with_its_link_and_a_text_for_discord_to_copy(season, hank):
    client = as_host(hank)
    made = client.post(
        reverse("admin:platform_invitation_add"),
        {"season": season.id, "hours": 48, "max_uses": "9", "note": ""},
    )
    invitation = Invitation.objects.get()
    assert made.status_code == 302
    assert made.url == reverse("admin:platform_invitation_change", args=[invitation.pk])
    page = client.get(made.url)
    html = page.content.decode()
    said = [str(m) for m in page.context["messages"]]
    assert "Invitation made: copy the link, or the text for Discord, and send it." in said
    address = f"http://localhost:8000{join_url(invitation)}"
    assert re.search(
        rf'<input id="invitation-link" class="copy-source[^"]*" type="text" readonly value="{address}"', html
    )
    assert (
        '<button type="button" class="copy-button" data-copy="invitation-link" hidden>Copy link</button>'
        in html
    )
    assert "platform/copy.js" in html, "the script that shows and works the buttons"
    stamp = int(invitation.expires_at.timestamp())
    text = (
        "You are invited to play Season 1!\n"
        f"Open this link, make your account (or log in) and you are a player of the season: {address}\n"
        f"The link works until &lt;t:{stamp}:f&gt;, for 9 people."
    )
    assert text in html
    assert 'data-copy="invitation-text" hidden>Copy text</button>' in html
