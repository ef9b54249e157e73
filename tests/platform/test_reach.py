"""Reaching players where they are (issue 30): each kind of message by the ways its player chose, the first
that reaches them carrying it, once per message, player and way; the account page's grid and its tests;
a host's remind that says per player what reached them; and no message carrying another seat's secrets."""

from __future__ import annotations

import types

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from games.platform.models import Delivery, Game, NotificationPreference, OutboxTask
from games.platform.reach import dispatch, email, messages
from games.platform.reach.note import Note, Outcome
from games.platform.services import games as game_services
from games.platform.services import notify
from games.platform.services.rounds import round_resolve, submission_save
from games.platform.tasks import send_reminder

pytestmark = pytest.mark.django_db


def fake_way(name: str, reaches: dict[str, str], closed: set[str] = frozenset()):
    """A way like Discord's: `reaches` {username: why not ("" if it reaches)}; `closed`: usernames it finds
    it cannot reach only when it tries (DMs closed). What it carried is in `.sent`."""
    sent = []

    def deliver(user, note, uid):
        if user.username in closed:
            return Outcome(name, False, "their DMs are closed")
        sent.append((user.username, note.subject, uid))
        return Outcome(name, True)

    return types.SimpleNamespace(
        NAME=name,
        LABEL=f"{name.title()} message",
        can_reach=lambda user: reaches.get(user.username, "not connected"),
        deliver=deliver,
        sent=sent,
    )


def nobody_by_email(django_user_model, username: str):
    return django_user_model.objects.create_user(username=username, password="pw-" + username)


def note_for(user) -> Note:
    return Note("reminder", "Tally: Round 0 closes soon", "Submit:", "https://genius.example.org/games/1/")


# -- the choices ------------------------------------------------------------------------------------------


def test_a_player_who_never_chose_gets_every_kind_by_every_way_but_turns_and_chats_not_by_email(alice):
    prefs = NotificationPreference(user=alice)
    assert [prefs.wants(kind, "email") for kind in notify.KINDS] == [True, True, True, False, False]
    assert all(prefs.wants(kind, way) for kind in notify.KINDS for way in ("discord", "push"))


def test_a_kind_switched_off_the_old_way_is_off_by_every_way(alice):
    prefs = NotificationPreference.objects.create(user=alice, reminder=False)
    assert not any(prefs.wants("reminder", way) for way in NotificationPreference.CHANNELS)
    assert prefs.wants("results", "discord") and not prefs.reminder and prefs.results


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_what_each_old_switch_meant(django_user_model):
    executor = MigrationExecutor(connection)
    before, after = ("platform", "0019_excused_round"), ("platform", "0020_messages_by_channel")
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    ann = old.get_model("auth", "User").objects.create(username="ann", email="ann@example.com")
    old.get_model("platform", "NotificationPreference").objects.create(
        user_id=ann.pk, reminder=False, your_turn=True
    )
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    # Only the columns 0020 has (later migrations add others, such as the digest's).
    prefs = NotificationPreference.objects.only("id", "user_id", "choices").get(user_id=ann.pk)
    assert not any(prefs.wants("reminder", way) for way in NotificationPreference.CHANNELS)  # turned off
    assert prefs.wants("your_turn", "email")  # they had it by email: they keep it
    assert prefs.wants("your_turn", "discord") and prefs.wants("results", "email")
    assert not prefs.wants("chat_message", "email")  # off, as it was
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the rest of the tests need every migration


def test_the_grid_saves_each_tick_and_shows_them_back(alice, client, monkeypatch):
    from games.platform.reach import dispatch, email

    monkeypatch.setattr(
        dispatch, "CHANNELS", [email]
    )  # a site with email only: Discord is not one of its ways
    client.force_login(alice)
    page = client.get(reverse("notification-settings")).content.decode()
    assert (
        'name="results__email" id="results__email" aria-labelledby="kind-results way-email" checked' in page
    )
    assert 'name="your_turn__email" id="your_turn__email" aria-labelledby="kind-your_turn way-email">' in page
    answer = client.post(
        reverse("notification-settings"), {"your_turn__email": "on", "round_opened__x": "on"}
    )
    assert answer.status_code == 302
    prefs = NotificationPreference.objects.get(user=alice)
    assert prefs.wants("your_turn", "email") and not prefs.wants("results", "email")
    assert prefs.wants("results", "discord")  # a way this site does not have keeps its choice
    page = client.get(reverse("notification-settings")).content.decode()
    assert 'id="your_turn__email" aria-labelledby="kind-your_turn way-email" checked' in page


def test_the_grid_says_beside_a_way_why_it_cannot_reach_the_player(django_user_model, client):
    client.force_login(nobody_by_email(django_user_model, "dan"))
    page = client.get(reverse("notification-settings")).content.decode()
    assert '<p class="error" id="way-email-why">Email cannot reach you: no email address.</p>' in page


def test_send_me_a_test_answers_where_it_went_and_keeps_the_ticks_not_saved(alice, bob, client):
    client.force_login(alice)
    answer = client.post(reverse("notification-test"), {"test": "email", "results__email": "on"})
    page = answer.content.decode()
    assert 'role="status" id="way-email-test">Sent to your email alice@example.com.</span>' in page
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]  # to the one who pressed, only
    assert mail.outbox[0].subject == "A test from genius"
    assert 'id="results__email" aria-labelledby="kind-results way-email" checked' in page
    assert 'id="round_opened__email" aria-labelledby="kind-round_opened way-email">' in page  # as sent
    assert not NotificationPreference.objects.filter(user=alice).exists()  # a test saves nothing


def test_send_me_a_test_says_why_a_way_could_not_reach(django_user_model, client):
    client.force_login(nobody_by_email(django_user_model, "dan"))
    page = client.post(reverse("notification-test"), {"test": "email"}).content.decode()
    assert "We could not reach you by email: no email address." in page
    assert not mail.outbox


def test_send_me_a_test_is_for_logged_in_players_only(client, alice):
    answer = client.post(reverse("notification-test"), {"test": "email"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    answer = client.get(reverse("notification-settings"))
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    assert not mail.outbox
    client.force_login(alice)
    assert client.get(reverse("notification-test")).status_code == 405


# -- telling ----------------------------------------------------------------------------------------------


def test_each_player_is_told_by_the_first_way_that_reaches_them_and_once(monkeypatch, alice, bob, make_user):
    carol = make_user("carol")
    discord = fake_way("discord", {"alice": "", "carol": ""}, closed={"carol"})
    monkeypatch.setattr(dispatch, "CHANNELS", [discord, email])
    told = dispatch.tell("reminder:9", [alice.pk, bob.pk, carol.pk], "reminder", note_for)
    assert told[alice.pk] == [Outcome("discord", True)]
    assert told[bob.pk] == [Outcome("discord", False, "not connected"), Outcome("email", True)]
    assert told[carol.pk] == [Outcome("discord", False, "their DMs are closed"), Outcome("email", True)]
    assert [who for who, *_ in discord.sent] == ["alice"]
    assert sorted(m.to[0] for m in mail.outbox) == ["bob@example.com", "carol@example.com"]
    sent = set(Delivery.objects.filter(sent_at__isnull=False).values_list("key", flat=True))
    assert sent == {
        f"reminder:9:{alice.pk}:discord",
        f"reminder:9:{bob.pk}:email",
        f"reminder:9:{carol.pk}:email",
    }
    again = dispatch.tell(
        "reminder:9", [alice.pk, bob.pk, carol.pk], "reminder", note_for
    )  # a task run twice
    assert len(discord.sent) == 1 and len(mail.outbox) == 2
    assert again[alice.pk] == [Outcome("discord", True)] and again[bob.pk] == [Outcome("email", True)]


def test_a_way_the_player_did_not_tick_never_carries_it(monkeypatch, alice):
    discord = fake_way("discord", {"alice": ""})
    monkeypatch.setattr(dispatch, "CHANNELS", [discord, email])
    prefs = NotificationPreference(user=alice)
    prefs.choose("reminder", "discord", False)
    prefs.save()
    assert dispatch.tell("reminder:9", [alice.pk], "reminder", note_for)[alice.pk] == [Outcome("email", True)]
    prefs.choose("reminder", "email", False)
    prefs.save()
    assert dispatch.tell("reminder:10", [alice.pk], "reminder", note_for)[alice.pk] == []
    assert not discord.sent and len(mail.outbox) == 1


def test_an_email_sent_under_the_old_key_counts_as_told(alice):
    Delivery.objects.create(key=f"reminder:9:{alice.pk}", sent_at=timezone.now())
    assert dispatch.tell("reminder:9", [alice.pk], "reminder", note_for)[alice.pk] == [Outcome("email", True)]
    assert not mail.outbox


def test_the_sweeps_reminder_goes_by_the_ways_each_chose(monkeypatch, tally, alice, bob):
    discord = fake_way("discord", {"alice": ""})
    monkeypatch.setattr(dispatch, "CHANNELS", [discord, email])
    send_reminder(tally.rounds.get(number=0).pk, [alice.pk, bob.pk])
    assert [(who, subject) for who, subject, _ in discord.sent] == [("alice", "Tally: Round 0 closes soon")]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


# -- nothing hidden ---------------------------------------------------------------------------------------


def test_a_results_message_carries_the_players_own_inbox_and_no_other_seats(tally, alice, bob):
    rnd = tally.rounds.get(number=0)
    submission_save(seat=tally.seats.get(user=alice), round_number=0, payload={"number": 7}, final=True)
    submission_save(seat=tally.seats.get(user=bob), round_number=0, payload={"number": 3}, final=True)
    round_resolve(round_id=rnd.pk, early=True)
    rnd.refresh_from_db()
    alices, bobs = messages.results(rnd, alice), messages.results(rnd, bob)
    assert "Round 0: you picked 7." in alices.text and "picked 3" not in alices.text
    assert "Round 0: you picked 3." in bobs.text and "picked 7" not in bobs.text
    assert alices.link == notify.page_link("game", tally.id)


# -- the host's remind ------------------------------------------------------------------------------------


@pytest.fixture
def with_dan(tally, hank, django_user_model):
    """The tally with dan seated too: he gave no email and connected nothing."""
    dan = nobody_by_email(django_user_model, "dan")
    Game.objects.filter(pk=tally.pk).update(status=Game.Status.DRAFT)
    game_services.game_seat(game=tally, user=dan, actor=hank)
    Game.objects.filter(pk=tally.pk).update(status=Game.Status.RUNNING)
    return dan


def test_remind_answers_per_player_what_reached_them_and_who_nothing_can_reach(
    client, tally, hank, alice, bob, with_dan, monkeypatch, django_capture_on_commit_callbacks
):
    discord = fake_way("discord", {"alice": ""})
    monkeypatch.setattr(dispatch, "CHANNELS", [discord, email])
    NotificationPreference.objects.create(user=bob, reminder=False)
    client.force_login(hank)
    page = client.get(f"/admin/platform/game/{tally.id}/change/").content.decode()
    assert page.count('class="unreachable"') == 1
    assert '<td>dan <small class="unreachable">the site has no way to reach them' in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/admin/platform/game/{tally.id}/host/remind/", {"confirm": "yes"})
    said = str(list(get_messages(answer.wsgi_request))[-1])
    assert said == (
        "alice: discord message sent; bob: turned reminders off; dan: no way to reach them: not connected, "
        "no email address. Tell them yourself."
    )
    assert [who for who, *_ in discord.sent] == ["alice"] and not mail.outbox
    assert not OutboxTask.objects.exists()  # all told by the press: its safety net is gone


def test_a_remind_the_press_could_not_finish_is_left_to_the_relay(
    client, tally, hank, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    def mail_server_down(message, *args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", mail_server_down)
    client.force_login(hank)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/admin/platform/game/{tally.id}/host/remind/", {"confirm": "yes"})
    said = str(list(get_messages(answer.wsgi_request))[-1])
    late = "not sent yet: a way did not answer, and the site tries again in a minute"
    assert said == f"alice: {late}; bob: {late}."
    (owed,) = OutboxTask.objects.all()
    assert owed.name == "send_reminder" and owed.args[1] == [alice.pk, bob.pk]
    assert not Delivery.objects.filter(claimed_by__isnull=False).exists()  # the claims went back


# -- asking for a way at sign-up --------------------------------------------------------------------------


def test_sign_up_and_the_invitation_ask_for_a_way_to_be_reached_and_say_why(season, hank, django_user_model):
    from django.test import Client

    from games.platform.services.invitations import invitation_create

    invitation = invitation_create(season=season, actor=hank, hours=48, max_uses=3)
    visitor = Client()
    join = visitor.get(reverse("join", args=[invitation.token])).content.decode()
    assert 'id="reach-ways">Games wait for nobody' in join and "an email address" in join
    form = visitor.get(reverse("account_signup")).content.decode()
    assert 'id="reach-ways"' in form
    assert "So the site can tell you a round opened or closes soon." in form  # beside the email field
    dan, player = nobody_by_email(django_user_model, "dan"), Client()
    player.force_login(dan)
    page = player.get(reverse("join", args=[invitation.token])).content.decode()
    assert 'id="no-way-to-reach">The site has no way to reach you yet' in page
    assert f'href="{reverse("notification-settings")}"' in page


def test_the_invitation_asks_nothing_of_a_player_the_site_can_reach(season, hank, alice, client):
    from games.platform.services.invitations import invitation_create

    invitation = invitation_create(season=season, actor=hank, hours=48, max_uses=3)
    client.force_login(alice)
    page = client.get(reverse("join", args=[invitation.token])).content.decode()
    assert "Join Season 1 as" in page and "no-way-to-reach" not in page and "reach-ways" not in page


def test_remind_says_when_the_only_way_a_player_chose_failed_though_another_could_reach_them(
    client, tally, hank, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    discord = fake_way("discord", {"alice": "", "bob": ""}, closed={"alice"})
    monkeypatch.setattr(dispatch, "CHANNELS", [discord, email])
    prefs = NotificationPreference(user=alice)
    prefs.choose("reminder", "email", False)  # Discord only: and her DMs are closed
    prefs.save()
    client.force_login(hank)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/admin/platform/game/{tally.id}/host/remind/", {"confirm": "yes"})
    said = str(list(get_messages(answer.wsgi_request))[-1])
    assert said == (
        "alice: not reached (Discord message: their DMs are closed), and they chose no other way for "
        "reminders; bob: discord message sent."
    )
    assert not mail.outbox and [who for who, *_ in discord.sent] == ["bob"]


def test_a_test_by_a_way_the_site_does_not_have_says_so_and_keeps_the_ticks(alice, client):
    client.force_login(alice)
    answer = client.post(reverse("notification-test"), {"test": "pigeon", "your_turn__email": "on"})
    page = answer.content.decode()
    assert answer.status_code == 400 and "This site has no such way of reaching you." in page
    assert 'id="your_turn__email" aria-labelledby="kind-your_turn way-email" checked' in page
    assert not mail.outbox


def test_who_nothing_reaches_is_read_in_as_many_queries_for_nine_players_as_for_one(
    django_user_model, settings, django_assert_num_queries
):
    """The console marks the seats no way reaches: with Discord and push set up, what each way reads of a
    player (Discord accounts, DM records, devices) is read for all of them at once, not player by player."""
    from games.platform.reach import dispatch, vapid

    settings.DISCORD_BOT_TOKEN = "stand-in-bot"
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid.new_pair()
    settings.VAPID_SUBJECT = "mailto:hosts@genius.example.org"
    people = [django_user_model.objects.create(username=f"p{n}") for n in range(9)]

    def queries(among) -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        fresh = list(django_user_model.objects.filter(pk__in=[p.pk for p in among]))
        with CaptureQueriesContext(connection) as captured:
            assert dispatch.unreachable_among(fresh) == {p.pk for p in among}
        return len(captured)

    assert queries(people) == queries(people[:1])
