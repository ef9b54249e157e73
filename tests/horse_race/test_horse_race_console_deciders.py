"""The hosts' console in the horse race's ending (issue 29.4): Round 11 (the winner's choice) and Round 12
(the EC vote) list and count only those who decide, not nine seats in red "not submitted"."""

from __future__ import annotations

import pytest

from games.horse_race.rules import ROUNDS
from tests.horse_race.site_support import resolve, submit
from tests.horse_race.test_horse_race_site_full_game import four_player_game

pytestmark = pytest.mark.django_db


def console(client, game) -> str:
    page = client.get(f"/admin/platform/game/{game.id}/change/").content.decode()
    return page.split('id="console"', 1)[1].split("</section>", 1)[0]


def test_the_decision_rounds_list_only_those_who_decide(client, season, hank, make_user):
    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    client.force_login(hank)
    # Round 11: ann, the sole winner, chooses which of ben, cat and dan (tied for second) is given a ToL.
    shown = console(client, game)
    assert "Round 11, the winner&#x27;s choice: ann decides · 0 final, 0 saved, 1 not submitted" in shown
    assert "<td>ann</td><td>not submitted</td>" in shown
    assert all(f"<td>{name}</td>" not in shown for name in ("ben", "cat", "dan"))
    assert "Not submitted: ann." in shown
    asked = client.get(f"/admin/platform/game/{game.id}/change/?confirm=resolve").content.decode()
    assert "ann has not submitted." in asked and "players have not submitted" not in asked

    assert submit(game, ann, ROUNDS + 1, {"choice": 2}).status_code == 201
    assert "Round 11, the winner&#x27;s choice: ann decides · 0 final, 1 saved, 0 not submitted" in console(
        client, game
    )
    resolve(game, hank)
    # Round 12: those who won a ToL (ann alone; cat was given hers) vote on the EC among ben, cat and dan.
    shown = console(client, game)
    assert "Round 12, the vote on the Elimination Candidate: ann decides · 0 final" in shown
    assert "<td>cat</td>" not in shown
    assert submit(game, ann, ROUNDS + 2, {"vote": 3}).status_code == 201
    resolve(game, hank)
    # The game over, its last round still names its deciders, all of them in.
    ended = "Round 12, the vote on the Elimination Candidate: ann decides · 0 final, 1 saved, 0 not submitted"
    assert ended in console(client, game)


def test_a_race_round_lists_every_seat(client, season, hank, make_user):
    from tests.horse_race.site_support import NAMES, make_game

    game = make_game(season, hank, [make_user(name) for name in NAMES[:4]])
    client.force_login(hank)
    assert "Round 0: 0 final, 0 saved, 4 not submitted" in console(client, game)


def test_remind_in_a_decision_round_emails_only_those_who_decide(
    client, season, hank, make_user, django_capture_on_commit_callbacks
):
    from django.contrib.messages import get_messages
    from django.core import mail

    from games.platform.services.sweep import reminder_claim

    game, (ann, ben, cat, dan) = four_player_game(season, hank, make_user)
    client.force_login(hank)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        pressed = client.post(f"/admin/platform/game/{game.id}/host/remind/")
    assert str(list(get_messages(pressed.wsgi_request))[-1]) == "ann: email sent."
    assert [m.to for m in mail.outbox] == [[ann.email]]
    # The sweep's own reminder before the close, the same.
    rnd = game.rounds.get(number=ROUNDS + 1)
    assert reminder_claim(round_id=rnd.id, now=rnd.closes_at) == [ann.id]
