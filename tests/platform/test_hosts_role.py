"""Hosts are a role the site knows (issue 29.1): the Hosts group, whose members make seasons in the admin and
add co-hosts; a season's host creates its games; everyone else sees nothing of a season they do not host."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from games.platform.models import AuditLog, Game, Season
from games.platform.services.host_role import HOSTING_PERMISSIONS, HOSTS, hosts_group, make_host

pytestmark = pytest.mark.django_db

SEASON_ADD = reverse("admin:platform_season_add")
GAME_ADD = reverse("admin:platform_game_add")


def as_user(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def season_data(name: str, hosts=()) -> dict:
    """The add form's fields as a browser sends them, every setting left at its default."""
    return {
        "name": name,
        "hosts": [u.pk for u in hosts],
        "set__starting_garnets": "0",
        "set__starting_tokens_of_life": "0",
        "set__death_match_type": "middle_marathon",
        "set__pick_hours": "24",
        "set__tol_holders_immune": "on",
        "set__tol_saves_from_elimination": "on",
    }


@pytest.fixture
def ivy(make_user):
    """A member of Hosts who hosts nothing yet."""
    user = make_user("ivy")
    make_host(user)
    return user


# -- the group -----------------------------------------------------------------------------------------------


def test_the_migration_made_the_hosts_group_with_exactly_the_hosting_permissions():
    group = Group.objects.get(name=HOSTS)
    held = {(p.content_type.app_label, p.codename) for p in group.permissions.select_related("content_type")}
    assert held == set(HOSTING_PERMISSIONS)
    # None on a model whose admin shows every season's rows to whoever holds it.
    assert not {code for _, code in held if code.endswith(("seasonplayer", "webhook", "outboxtask", "user"))}


def test_the_group_is_made_again_with_its_permissions_if_it_was_taken_away():
    Group.objects.filter(name=HOSTS).delete()
    held = {p.codename for p in hosts_group().permissions.all()}
    assert held == {code for _, code in HOSTING_PERMISSIONS}


def test_making_a_host_is_staff_and_hosts_once(make_user):
    alice = make_user("alice")
    assert make_host(alice) == ["made staff", f"put in {HOSTS}"]
    alice.refresh_from_db()
    assert alice.is_staff and alice.groups.filter(name=HOSTS).exists()
    assert make_host(alice) == []
    assert AuditLog.objects.filter(action="host_made").count() == 1


# -- a member of Hosts makes a season ------------------------------------------------------------------------


def test_a_member_of_hosts_is_offered_add_on_seasons_and_makes_one_they_then_host(ivy):
    client = as_user(ivy)
    index = client.get(reverse("admin:index")).content.decode()
    assert f'href="{SEASON_ADD}"' in index
    assert client.get(SEASON_ADD).status_code == 200
    answer = client.post(SEASON_ADD, season_data("Spring"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    season = Season.objects.get(name="Spring")
    assert list(season.hosts.all()) == [ivy]
    # And it is theirs to change, and to make games in.
    assert client.get(reverse("admin:platform_season_change", args=[season.id])).status_code == 200
    assert client.get(GAME_ADD).status_code == 200


def test_staff_outside_hosts_and_players_cannot_make_a_season(make_user, hank, alice):
    plain_staff = make_user("stan", is_staff=True)  # a host of nothing, not in Hosts
    for user in (plain_staff, hank):
        client = as_user(user)
        assert client.get(SEASON_ADD).status_code == 403
        assert client.post(SEASON_ADD, season_data("Sneaky")).status_code == 403
        assert f'href="{SEASON_ADD}"' not in client.get(reverse("admin:index")).content.decode()
    # A player and a visitor are sent to log in; nothing is made.
    for client in (as_user(alice), as_user(None)):
        assert client.get(SEASON_ADD).status_code == 302
        assert client.post(SEASON_ADD, season_data("Sneaky")).status_code == 302
    assert not Season.objects.filter(name="Sneaky").exists()


def test_a_season_someone_does_not_host_stays_out_of_their_sight(season, ivy, alice, make_user):
    spectator = make_user("spec")
    change = reverse("admin:platform_season_change", args=[season.id])
    client = as_user(ivy)
    listing = client.get(reverse("admin:platform_season_changelist")).content.decode()
    assert season.name not in listing
    # Django's admin answers a row out of the user's queryset as missing: to the index, with no name.
    answer = client.get(change, follow=True)
    assert answer.redirect_chain[0][0] == reverse("admin:index")
    assert season.name not in answer.content.decode()
    assert client.post(change, season_data("Taken", hosts=[ivy])).status_code == 302
    season.refresh_from_db()
    assert season.name == "Season 1" and ivy not in season.hosts.all()
    for user in (alice, spectator, None):
        assert as_user(user).get(change).status_code == 302  # to the login page
        assert season.name not in as_user(user).get(change, follow=True).content.decode()


def test_a_member_of_hosts_sees_no_season_player_rows(season, ivy, alice):
    from games.platform.models import SeasonPlayer

    SeasonPlayer.objects.create(season=season, user=alice)
    assert as_user(ivy).get(reverse("admin:platform_seasonplayer_changelist")).status_code == 403


# -- co-hosts ------------------------------------------------------------------------------------------------


def test_a_host_adds_a_co_host_who_is_made_staff_and_a_member_of_hosts(season, hank, make_user):
    from tests.platform.test_season_setup import season_form

    cora = make_user("cora")
    client = as_user(hank)
    page = client.get(reverse("admin:platform_season_change", args=[season.id])).content.decode()
    assert 'name="hosts"' in page and f'<option value="{cora.pk}">' in page
    data = season_form(client, season, hosts=[hank.pk, cora.pk])
    answer = client.post(reverse("admin:platform_season_change", args=[season.id]), data, follow=True)
    assert answer.status_code == 200
    said = [str(m) for m in answer.context["messages"]]
    assert "cora is now a host of Season 1: they run it from /admin/ too." in said, said
    assert set(season.hosts.all()) == {hank, cora}
    cora.refresh_from_db()
    assert cora.is_staff and cora.groups.filter(name=HOSTS).exists()
    logged = AuditLog.objects.filter(season=season, action="season_host_add", actor=hank)
    assert [entry.detail["user"] for entry in logged] == ["cora"]
    # The co-host runs the season now: its page, and games in it.
    assert as_user(cora).get(reverse("admin:platform_season_change", args=[season.id])).status_code == 200
    assert as_user(cora).get(GAME_ADD).status_code == 200


def test_a_host_who_leaves_themselves_out_of_the_hosts_stays_one(season, hank, make_user):
    from tests.platform.test_season_setup import season_form

    cora = make_user("cora")
    client = as_user(hank)
    data = season_form(client, season, hosts=[cora.pk])
    assert client.post(reverse("admin:platform_season_change", args=[season.id]), data).status_code == 302
    assert set(season.hosts.all()) == {hank, cora}


# -- games in a hosted season --------------------------------------------------------------------------------


def test_a_season_host_makes_games_only_in_their_seasons_and_hosts_what_they_make(season, ivy, make_user):
    other = Season.objects.create(name="Not yours")
    other.hosts.add(make_user("olga", is_staff=True))
    client = as_user(ivy)
    client.post(SEASON_ADD, season_data("Ivy's"))
    mine = Season.objects.get(name="Ivy's")
    form = client.get(GAME_ADD).context["adminform"].form
    assert list(form.fields["season"].queryset) == [mine]
    answer = client.post(
        GAME_ADD, {"season": other.pk, "game_type": "tally", "name": "Smuggled", "seed": "1"}
    )
    assert answer.status_code == 200 and "Select a valid choice" in answer.content.decode()
    assert not Game.objects.filter(name="Smuggled").exists()
    answer = client.post(GAME_ADD, {"season": mine.pk, "game_type": "tally", "name": "Ivy 1", "seed": "1"})
    assert answer.status_code == 302, answer.content.decode()[:3000]
    game = Game.objects.get(name="Ivy 1")
    assert game.season == mine and ivy in game.hosts.all()


def test_a_host_of_another_season_a_player_and_a_visitor_cannot_make_games(season, make_user, alice):
    outsider = make_user("olga", is_staff=True)
    Season.objects.create(name="Olga's").hosts.add(outsider)
    answer = as_user(outsider).post(
        GAME_ADD, {"season": season.pk, "game_type": "tally", "name": "Smuggled", "seed": "1"}
    )
    assert answer.status_code == 200 and "Select a valid choice" in answer.content.decode()
    assert as_user(make_user("stan", is_staff=True)).get(GAME_ADD).status_code == 403  # hosts no season
    for client in (as_user(alice), as_user(None)):
        assert client.get(GAME_ADD).status_code == 302
    assert not Game.objects.filter(name="Smuggled").exists()


# -- manage.py make_host -------------------------------------------------------------------------------------


def make_host_command(*args, **env) -> tuple[str, str]:
    from io import StringIO

    from django.core.management import call_command

    out, err = StringIO(), StringIO()
    call_command("make_host", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_make_host_makes_a_new_host_who_logs_in_and_may_make_seasons(monkeypatch, django_user_model):
    monkeypatch.setenv("FIRST_HOST_PASSWORD", "a long pass phrase 42")
    out, _ = make_host_command(
        "nina", "--email", "nina@example.com", "--password-from-env", "FIRST_HOST_PASSWORD"
    )
    assert out.strip() == (
        "Made the account nina: made staff, put in Hosts. They may now make seasons at /admin/."
    )
    nina = django_user_model.objects.get(username="nina")
    assert nina.email == "nina@example.com" and nina.is_staff and not nina.is_superuser
    assert nina.check_password("a long pass phrase 42")
    assert as_user(nina).get(SEASON_ADD).status_code == 200


def test_make_host_asks_for_the_password_twice(monkeypatch, django_user_model):
    answers = iter(["a long pass phrase 42", "a long pass phrase 42"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    make_host_command("nina")
    assert django_user_model.objects.get(username="nina").check_password("a long pass phrase 42")


@pytest.mark.parametrize(
    "typed, said",
    [
        (["a long pass phrase 42", "another one"], "The two passwords differ: nothing was made."),
        (["123", "123"], "This password is too short"),
    ],
)
def test_make_host_refuses_a_password_it_cannot_take_and_makes_nothing(
    monkeypatch, django_user_model, typed, said
):
    from django.core.management import CommandError

    answers = iter(typed)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    with pytest.raises(CommandError, match=said):
        make_host_command("nina")
    assert not django_user_model.objects.filter(username="nina").exists()


def test_make_host_refuses_an_unset_variable_a_taken_address_and_a_bad_name(monkeypatch, alice):
    from django.core.management import CommandError

    monkeypatch.delenv("NO_SUCH_VAR", raising=False)
    with pytest.raises(CommandError, match="NO_SUCH_VAR is empty or unset"):
        make_host_command("nina", "--password-from-env", "NO_SUCH_VAR")
    monkeypatch.setenv("PW", "a long pass phrase 42")
    with pytest.raises(CommandError, match="Another account has the address alice@example.com"):
        make_host_command("nina", "--email", "alice@example.com", "--password-from-env", "PW")
    with pytest.raises(CommandError, match="username"):
        make_host_command("nina has spaces!", "--password-from-env", "PW")


def test_make_host_promotes_an_existing_player_once(alice):
    out, _ = make_host_command("alice")
    assert out.strip() == (
        "Found the account alice: made staff, put in Hosts. They may now make seasons at /admin/."
    )
    alice.refresh_from_db()
    assert alice.is_staff and alice.groups.filter(name=HOSTS).exists()
    assert alice.check_password("pw-alice"), "a promotion asks for no password and changes none"
    out, _ = make_host_command("alice")
    assert out.strip() == "alice is a host already (staff, in Hosts): nothing changed."


# -- the first-run page --------------------------------------------------------------------------------------

FIRST_RUN = reverse("first-run")
FIRST_HOST = {
    "username": "nina",
    "email": "nina@example.com",
    "password1": "a long pass phrase 42",
    "password2": "a long pass phrase 42",
}


@pytest.mark.parametrize("path", ["/", "/admin/", "/admin/login/?next=/admin/"])
def test_an_empty_site_sends_the_home_page_and_the_admin_to_the_first_run_page(client, path):
    answer = client.get(path)
    assert answer.status_code == 302 and answer["Location"] == FIRST_RUN
    page = client.get(FIRST_RUN).content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in page


def test_the_first_host_is_made_logged_in_and_sent_to_add_a_season(client, django_user_model):
    answer = client.post(FIRST_RUN, FIRST_HOST)
    assert answer.status_code == 302 and answer["Location"] == SEASON_ADD
    nina = django_user_model.objects.get()
    assert (nina.username, nina.email, nina.is_staff, nina.is_superuser) == (
        "nina",
        "nina@example.com",
        True,
        False,
    )
    assert nina.groups.filter(name=HOSTS).exists() and nina.check_password("a long pass phrase 42")
    page = client.get(SEASON_ADD)
    assert page.status_code == 200  # logged in, and may make a season
    said = [str(m) for m in page.context["messages"]]
    assert said == ["Welcome, nina: you are this site's first host. Name your season."]
    # The season they make is theirs.
    client.post(SEASON_ADD, season_data("Spring"))
    assert list(Season.objects.get(name="Spring").hosts.all()) == [nina]


def test_the_page_is_gone_once_anyone_has_an_account(client, alice, hank, django_user_model):
    for someone in (client, as_user(alice), as_user(hank)):  # a visitor, a player, a host
        assert someone.get(FIRST_RUN).status_code == 404
        assert someone.post(FIRST_RUN, FIRST_HOST).status_code == 404
    assert set(django_user_model.objects.all()) == {alice, hank}
    # And nobody is sent there any more.
    assert client.get("/").status_code == 200
    assert client.get("/admin/")["Location"].startswith(reverse("admin:login"))


def test_the_page_is_gone_after_the_first_host_is_made(client, django_user_model):
    client.post(FIRST_RUN, FIRST_HOST)
    again = Client()
    assert again.get(FIRST_RUN).status_code == 404
    assert again.post(FIRST_RUN, {**FIRST_HOST, "username": "mallory"}).status_code == 404
    assert client.get(FIRST_RUN).status_code == 404  # the host too
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["nina"]


@pytest.mark.parametrize(
    "changes, field, said",
    [
        ({"username": "nina has spaces"}, "username", "Enter a valid username"),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        ({"email": ""}, "email", "This field is required."),
        ({"password2": "another pass phrase"}, "password2", "The two password fields didn’t match."),
        ({"password1": "short1", "password2": "short1"}, "password2", "This password is too short."),
    ],
)
def test_a_wrong_value_is_an_error_next_to_its_field_and_nothing_typed_is_lost(
    client, django_user_model, changes, field, said
):
    sent = {**FIRST_HOST, **changes}
    answer = client.post(FIRST_RUN, sent)
    assert answer.status_code == 200 and not django_user_model.objects.exists()
    form = answer.context["form"]
    assert any(said in e for e in form.errors[field]), form.errors
    html = answer.content.decode()
    # The error stands inside its field's box, and the field names it to a screen reader.
    box = html.split(f'name="{field}"')[1].split('<div class="field')[0]
    assert said.replace("'", "&#x27;") in box
    assert f'aria-describedby="id_{field}_helptext id_{field}_error"' in box
    assert f'<div id="id_{field}_error"><p class="error">' in box
    for name in ("username", "email"):
        if sent[name]:
            assert f'value="{sent[name]}"' in html, name
    if field in ("username", "email"):  # a password that was fine comes back with the form
        assert f'value="{sent["password1"]}"' in html
    else:
        assert f'value="{sent["password1"]}"' not in html


def test_make_run_on_an_empty_site_says_where_to_make_the_first_host(alice):
    from io import StringIO

    from games.platform.management.commands.serve_all import Command as ServeAll

    def greeting() -> str:
        said = StringIO()
        ServeAll(stdout=said, no_color=True)._greet(
            "http://127.0.0.1:8000/", {"verbose": False, "demo": False}, ""
        )
        return said.getvalue()

    assert "first-run" not in greeting()
    alice.delete()
    said = "No account yet: open http://127.0.0.1:8000/first-run/ to make the first host"
    assert f"{said} (or manage.py make_host)." in greeting()


@pytest.mark.django_db(transaction=True)
def test_two_first_runs_sent_at_once_make_one_host(monkeypatch, django_user_model):
    """Both forms are sent while nobody exists. Each waits (up to 2 s) for the other inside its transaction,
    after the lock and before it looks for users: with the lock, the second waits for the first's commit
    instead, finds its host and answers 404; without it both would look at once and make two (Postgres, the
    services run; SQLite lets one writer in at a time anyway)."""
    import threading

    from django.db import connection

    from games.platform.services import host_role

    hosts_group()  # a transactional test starts with the migration's rows flushed
    meet = threading.Barrier(2, timeout=2)
    group = host_role.hosts_group

    def after_the_lock():
        try:
            meet.wait()
        except threading.BrokenBarrierError:
            pass  # the other is held at the lock
        return group()

    monkeypatch.setattr(host_role, "hosts_group", after_the_lock)
    answers = {}

    def send(name):
        try:
            answers[name] = Client().post(FIRST_RUN, {**FIRST_HOST, "username": name}).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(name,)) for name in ("nina", "olly")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers.values()) == [302, 404], answers
    made = list(django_user_model.objects.values_list("username", flat=True))
    assert made == [name for name, status in answers.items() if status == 302]


# -- the demo's host -----------------------------------------------------------------------------------------


def test_the_demos_host_is_in_hosts_and_makes_a_season_it_then_hosts(django_user_model):
    from io import StringIO

    from django.core.management import call_command

    call_command("load_demo", "--quiet", stdout=StringIO())
    call_command("load_demo", "--quiet", stdout=StringIO())  # run again: still one host, once in Hosts
    host = django_user_model.objects.get(username="host")
    assert host.groups.filter(name=HOSTS).count() == 1
    assert not django_user_model.objects.filter(username="player1", groups__name=HOSTS).exists()
    assert host.check_password("host-demo-pass")
    client = as_user(host)
    assert client.get(SEASON_ADD).status_code == 200
    answer = client.post(SEASON_ADD, season_data("Host's own"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert list(Season.objects.get(name="Host's own").hosts.all()) == [host]


# -- the migration -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_puts_the_staff_who_host_already_in_hosts(make_user, django_user_model):
    from django.core.management import call_command

    call_command("migrate", "platform", "0017", verbosity=0)
    hank = make_user("hank", is_staff=True)
    gina = make_user("gina", is_staff=True)
    make_user("stan", is_staff=True)  # staff hosting nothing
    alice = make_user("alice")  # hosts a season but is no staff: the admin would not let her in
    season = Season.objects.create(name="Before")
    season.hosts.add(hank, alice)
    Game.objects.create(season=season, game_type="tally", name="Old").hosts.add(gina)
    call_command("migrate", "platform", verbosity=0)
    members = django_user_model.objects.filter(groups__name=HOSTS).values_list("username", flat=True)
    assert sorted(members) == ["gina", "hank"]
