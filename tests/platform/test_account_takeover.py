"""Accounts against a second red team (issue 28, O1-O4), through HTTP with a local stand-in for Discord:
a session held for a moment cannot add a way in, a confirmation link logs nobody out, an address belongs to
one account only, and the sign-up forms answer the same for a taken address and a free one."""

from __future__ import annotations

import re

import pytest
import responses
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.platform.services.invitations import invitation_create
from tests.platform.discord_standin import AUTHORIZE, NELLY, Discord, configure

pytestmark = pytest.mark.django_db

NEW = "a-New-Secret-4417"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.GENIUS_SITE_URL = "http://localhost:8000"


def logged_in(username: str) -> Client:
    client = Client()
    answer = client.post(reverse("login"), {"login": username, "password": f"pw-{username}"})
    assert answer.status_code == 302
    return client


def invited(season, hank) -> Client:
    client = Client()
    client.get(reverse("join", args=[invitation_create(season=season, actor=hank).token]))
    return client


def link_in(message, path: str) -> str:
    return re.search(rf"http://localhost:8000({re.escape(path)}\S+/)", message.body).group(1)


# -- O2: opening a confirmation link logs nobody out ---------------------------------------------------------


def test_a_confirmation_link_opened_by_someone_else_logs_nobody_out(season, hank, bob):
    newcomer = invited(season, hank)
    mail.outbox.clear()
    newcomer.post(
        reverse("account_signup"),
        {"username": "newcomer", "email": "new@example.com", "password1": NEW, "password2": NEW},
    )
    link = link_in(mail.outbox[0], "/accounts/confirm-email/")
    # Posted in a chat, the link is opened by bob, logged in as himself.
    reader = logged_in("bob")
    page = reader.get(link)
    assert page.status_code == 200 and 'method="post"' in page.content.decode()
    assert reader.get(reverse("profile")).status_code == 200, "a GET logs nobody out"
    assert not EmailAddress.objects.get(email="new@example.com").verified, "nor confirms anything"
    reader.post(link)
    assert EmailAddress.objects.get(email="new@example.com").verified
    assert reader.get(reverse("profile")).status_code == 200, "pressing the button logs nobody out either"


# -- O3: every account's address is in allauth's table, so no address belongs to two accounts --------------


def run_the_data_migration():
    """The migration that files the addresses of accounts made before (found by its name, not its number)."""
    from importlib import import_module
    from pathlib import Path

    from django.apps import apps

    (path,) = (
        Path(__file__)
        .resolve()
        .parents[2]
        .glob("games/platform/migrations/*_every_address_in_allauths_table.py")
    )
    import_module(f"games.platform.migrations.{path.stem}").file_addresses(apps, None)


def through_discord(client: Client, stand_in: Discord):
    start = client.post(reverse("discord_login"))
    assert start.status_code == 302 and start.url.startswith(AUTHORIZE), start
    return client.get(stand_in.authorize(start.url))


def test_an_account_made_before_keeps_its_address_from_a_discord_sign_up(season, hank, alice, settings):
    # Made by the admin before: the address on the user row only, in the case it was typed.
    get_user_model().objects.filter(pk=alice.pk).update(email="Alice@Example.com")
    EmailAddress.objects.filter(user=alice).delete()
    run_the_data_migration()
    configure(settings)
    stand_in = Discord(user={**NELLY, "email": "alice@example.com", "verified": True})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        through_discord(invited(season, hank), stand_in)
    newcomer = get_user_model().objects.get(socialaccount__uid=NELLY["id"])
    assert [a.user for a in EmailAddress.objects.filter(email__iexact="alice@example.com")] == [alice]
    assert newcomer.email == "" and not newcomer.emailaddress_set.exists()
    # A reset for the address goes to alice's account, and to nobody else's.
    mail.outbox.clear()
    Client().post(reverse("account_reset_password"), {"email": "alice@example.com"})
    (reset,) = mail.outbox
    assert "your username is alice." in reset.body and newcomer.username not in reset.body


def test_an_account_made_from_now_on_files_its_address_however_it_is_made(django_user_model):
    # As the demo and createsuperuser make them.
    carol = django_user_model.objects.create_user(username="carol", password=NEW, email="Carol@Example.com")
    (address,) = EmailAddress.objects.filter(user=carol)
    assert (address.email, address.primary, address.verified) == ("carol@example.com", True, False)


def test_the_admin_refuses_an_address_or_a_username_another_account_has(make_user, bob):
    root = make_user("root", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(root)
    made = admin.post(
        reverse("admin:auth_user_add"),
        {"username": "b0b", "password1": NEW, "password2": NEW, "usable_password": "true"},
    )
    assert made.status_code == 200
    assert "That looks too much like another player" in made.content.decode()
    made = admin.post(
        reverse("admin:auth_user_add"),
        {"username": "dave", "password1": NEW, "password2": NEW, "usable_password": "true"},
    )
    dave = get_user_model().objects.get(username="dave")
    form = {
        "username": "dave",
        "email": "BOB@example.com",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00",
    }
    refused = admin.post(reverse("admin:auth_user_change", args=[dave.pk]), form)
    assert refused.status_code == 200
    assert "Another account has this address" in refused.content.decode()
    form["email"] = "dave@example.com"
    assert admin.post(reverse("admin:auth_user_change", args=[dave.pk]), form).status_code == 302
    assert EmailAddress.objects.filter(user=dave, email="dave@example.com", primary=True).exists()


# -- O4: the sign-up forms answer the same for a taken address and a free one ------------------------------


def what_the_newcomer_reads(client: Client, answer, *names: str) -> tuple:
    """The answer's status and place, and the messages the next page shows, with the newcomer's own words
    (their username, the address they typed) taken out."""
    page = client.get(answer.url).content.decode()
    said = re.findall(r'<li class="[^"]*">(.*?)</li>', page.split('class="messages"')[-1].split("</ul>")[0])
    for name in names:
        said = [line.replace(name, "<them>") for line in said]
    return answer.status_code, answer.url, said


def test_the_sign_up_form_answers_the_same_for_a_taken_address_and_a_free_one(season, hank, alice):
    answers = []
    for username, address in (("newcomer", "free@example.com"), ("stranger", "alice@example.com")):
        client = invited(season, hank)
        form = {"username": username, "email": address, "password1": NEW, "password2": NEW}
        answers.append(
            what_the_newcomer_reads(client, client.post(reverse("account_signup"), form), username, address)
        )
    free, taken = answers
    assert free == taken and free[0] == 302 and any("Confirmation" in line for line in free[2])
    stranger = get_user_model().objects.get(username="stranger")
    assert stranger.email == "" and not stranger.emailaddress_set.exists(), "the address stays alice's"
    (told,) = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert "already" in told.subject.lower() or "already" in told.body.lower()


def test_the_discord_sign_up_answers_the_same_for_a_taken_address_and_a_free_one(
    season, hank, alice, settings
):
    configure(settings)
    answers = []
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for uid, name, address in (
            ("1001", "newcomer", "free@example.com"),
            ("1002", "stranger", "alice@example.com"),
        ):
            stand_in = Discord(
                user={**NELLY, "id": uid, "username": name, "global_name": name, "email": address}
            )
            mock.reset()
            stand_in.serve(mock)
            client = invited(season, hank)
            back = through_discord(client, stand_in)
            answers.append(what_the_newcomer_reads(client, back, name, address))
    free, taken = answers
    assert free == taken and free[0] == 302
    stranger = get_user_model().objects.get(socialaccount__uid="1002")
    assert stranger.email == "" and not stranger.emailaddress_set.exists()
    assert EmailAddress.objects.get(email="alice@example.com").user == alice


# -- O1: a session held for a moment cannot add a way in ---------------------------------------------------

INTRUDER = {
    **NELLY,
    "id": "6666",
    "username": "intruder",
    "global_name": "Intruder",
    "email": "i@example.net",
}


@pytest.fixture
def intruders_discord(settings):
    configure(settings)
    stand_in = Discord(user=dict(INTRUDER))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        stand_in.serve(mock)
        yield stand_in


def connect(client: Client, stand_in: Discord):
    start = client.post(reverse("discord_login"), {"process": "connect", "next": reverse("profile")})
    return client.get(stand_in.authorize(start.url))


def test_connecting_a_discord_account_asks_for_the_password_and_tells_the_player(alice, intruders_discord):
    held = logged_in("alice")  # alice's session, in someone else's hands for a moment
    mail.outbox.clear()
    answer = connect(held, intruders_discord)
    assert answer.status_code == 302 and answer.url == reverse("account_reauthenticate")
    page = held.get(answer.url).content.decode()
    assert 'name="password"' in page
    assert held.post(answer.url, {"password": "a guess"}).status_code == 200
    assert not SocialAccount.objects.exists() and mail.outbox == [], "no password, no new way in"
    # alice herself types it: the account is connected, and her inbox says so.
    assert held.post(answer.url, {"password": "pw-alice"}).status_code == 302
    assert SocialAccount.objects.get(uid="6666").user == alice
    (told,) = mail.outbox
    assert (
        told.to == ["alice@example.com"]
        and "A login was connected to your account: Discord: Intruder" in told.body
    )
    assert "http://localhost:8000/accounts/password/change/" in told.body


def test_removing_a_discord_login_asks_for_the_password_and_tells_the_player(alice, intruders_discord):
    account = SocialAccount.objects.create(user=alice, provider="discord", uid="6666", extra_data=INTRUDER)
    held = logged_in("alice")
    mail.outbox.clear()
    answer = held.post(reverse("socialaccount_connections"), {"account": account.pk})
    assert answer.status_code == 302 and answer.url.startswith(reverse("account_reauthenticate"))
    assert SocialAccount.objects.filter(pk=account.pk).exists()
    held.post(answer.url, {"password": "pw-alice"})
    assert not SocialAccount.objects.filter(pk=account.pk).exists()
    (told,) = mail.outbox
    assert (
        told.to == ["alice@example.com"]
        and "A login was removed from your account: Discord: Intruder" in told.body
    )


def test_a_password_change_lists_the_connected_discord_and_removes_it(alice, intruders_discord):
    intruders = SocialAccount.objects.create(user=alice, provider="discord", uid="6666", extra_data=INTRUDER)
    client = logged_in("alice")
    page = client.get(reverse("account_change_password")).content.decode()
    assert "Discord: Intruder" in page and 'name="remove_logins"' in page
    changed = client.post(
        reverse("account_change_password"),
        {"oldpassword": "pw-alice", "password1": NEW, "password2": NEW, "remove_logins": [intruders.pk]},
    )
    assert changed.status_code == 302
    assert not SocialAccount.objects.filter(pk=intruders.pk).exists()
    # The intruder's Discord logs in to alice's account no more.
    comeback = Client()
    start = comeback.post(reverse("discord_login"))
    comeback.get(intruders_discord.authorize(start.url))
    assert comeback.session.get("_auth_user_id") != str(alice.pk)


def test_a_password_reset_lists_the_connected_discord_and_removes_it(alice, intruders_discord):
    intruders = SocialAccount.objects.create(user=alice, provider="discord", uid="6666", extra_data=INTRUDER)
    mail.outbox.clear()
    client = Client()
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    form = client.get(link_in(mail.outbox[0], "/accounts/password/reset/key/"), follow=True)
    assert "Discord: Intruder" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"password1": NEW, "password2": NEW, "remove_logins": [intruders.pk]}
    )
    assert done.status_code == 302
    assert not SocialAccount.objects.filter(pk=intruders.pk).exists()
