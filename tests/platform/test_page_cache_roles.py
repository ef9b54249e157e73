"""The page cache never serves one role's page to another, whatever order the roles change in.

Issue 17.1: the cache remembered a user's role per game version and kept the body under the remembered
role's slot, while the view rendered with the role the database gave. An outsider who polled the live
partial and was then made superuser (which moved no version) rendered the host's page into the spectators'
slot, and every spectator was served it. Each test here goes through HTTP, as that outsider would.
"""

from __future__ import annotations

import pytest

from games.platform.models import Game
from tests.api_support import page_client as client_of

pytestmark = pytest.mark.django_db

HOST_ONLY = "CANARY-TALLY-SECRET"  # the toy game's hidden state: shown to its hosts only


def page(client, game) -> str:
    response = client.get(f"/games/{game.id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_an_outsider_made_superuser_after_polling_does_not_poison_the_spectators_page(
    tally, charlie, make_user
):
    attacker = client_of(charlie)
    assert attacker.get(f"/games/{tally.id}/live/").status_code == 200  # the role is remembered
    charlie.is_superuser = True
    charlie.save(update_fields=["is_superuser"])
    version = Game.objects.get(pk=tally.pk).version
    assert HOST_ONLY in page(attacker, tally), "a superuser sees the host's page"
    assert Game.objects.get(pk=tally.pk).version == version  # nothing moved the version
    for spectator in (client_of(make_user("dave")), client_of(make_user("erin"))):
        seen = page(spectator, tally)
        assert HOST_ONLY not in seen
        assert "you are a spectator" in seen
        assert HOST_ONLY not in spectator.get(f"/games/{tally.id}/live/").content.decode()


def test_a_user_made_superuser_sees_the_hosts_page_though_the_spectators_is_cached(tally, charlie, make_user):
    assert HOST_ONLY not in page(client_of(make_user("dave")), tally)
    attacker = client_of(charlie)
    attacker.get(f"/games/{tally.id}/live/")
    charlie.is_superuser = True
    charlie.save(update_fields=["is_superuser"])
    assert HOST_ONLY in page(attacker, tally)


def test_a_superuser_made_a_plain_user_again_gets_a_spectators_page(tally, charlie):
    charlie.is_superuser = True
    charlie.save(update_fields=["is_superuser"])
    client = client_of(charlie)
    assert HOST_ONLY in page(client, tally)
    charlie.is_superuser = False
    charlie.save(update_fields=["is_superuser"])
    seen = page(client, tally)
    assert HOST_ONLY not in seen
    assert "you are a spectator" in seen


def test_a_host_added_outside_the_admin_moves_the_cached_role(tally, charlie, make_user):
    client = client_of(charlie)
    assert "you are a spectator" in page(client, tally)
    client.get(f"/games/{tally.id}/live/")
    charlie.hosted_games.add(tally)  # the other side of the relation, as a shell or a script would
    assert HOST_ONLY in page(client, tally)
    tally.hosts.remove(charlie)
    assert HOST_ONLY not in page(client, tally)
    assert HOST_ONLY not in page(client_of(make_user("dave")), tally)


def test_a_body_is_kept_under_the_role_it_was_rendered_for(tally, charlie, alice, make_user):
    # The remembered role says "spectator"; the database says "host" by the time the body is rendered.
    client = client_of(charlie)
    client.get(f"/games/{tally.id}/live/")
    Game.hosts.through.objects.create(game_id=tally.id, user_id=charlie.id)  # no signal: a raw insert
    assert HOST_ONLY in page(client, tally) or "you are a spectator" in page(client, tally)
    for viewer in (make_user("dave"), None):
        seen = page(client_of(viewer), tally)
        assert HOST_ONLY not in seen
        assert "you are a spectator" in seen
    assert HOST_ONLY not in page(client_of(alice), tally)
