"""What a spectator or a player is shown counts nothing hidden from them (issue 17.7), through HTTP.

Database ids are global and consecutive: had the site shown them, the gap between two announcements would
count the reveals, pair chat messages and trade offers made in between. Events, chat messages and offers
are shown by a random ref, and feeds take a ref as their cursor. Private activity of every game (trades,
purchases, looks, flips, verdicts, a wild card bought or declined) leaves a spectator's view, its ids and
the version they poll exactly as they were.
"""

from __future__ import annotations

import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.arms_race.rules import Phase
from games.horse_race.models import TradeOffer
from games.platform.models import ChatMessage, Event, Game
from games.platform.services.ledger import ledger_post
from tests.api_support import api, operate, submit
from tests.api_support import page_client as client_of
from tests.arms_race.arms_race_site import act, arms_game, drive, honest
from tests.cards_table import site_support as cards_site
from tests.horse_race.site_support import make_game

pytestmark = pytest.mark.django_db


def announce(game, host, text):
    answer = api(host).post(reverse("api-host-announce", args=[game.id]), {"text": text}, format="json")
    assert answer.status_code in (200, 201), answer.content


def feed(game, user=None, after=None):
    query = {"after": after} if after is not None else {}
    return api(user).get(reverse("api-feed", args=[game.id]), query)


def spectator_view(game, user=None) -> dict:
    """Everything a spectator (or a visitor: None) gets of the game over HTTP, ids included: the game and
    its feed from the API, the version, and the live partial's URL as their page writes it and its answer."""
    client = client_of(user)
    page = client.get(f"/games/{game.id}/").content.decode()
    poll = re.search(r'hx-get="(/games/\d+/live/\?v=[^"]+)"', page).group(1)
    return {
        "game": api(user).get(reverse("api-game", args=[game.id])).json(),
        "feed": feed(game, user).json(),
        "version": Game.objects.get(pk=game.pk).version,
        "poll": poll,
        "poll answer": client.get(poll).status_code,
    }


def differences(before, after, path="") -> list[str]:
    """Where two answers differ, as paths: a failing test says what a spectator could count."""
    if isinstance(before, dict) and isinstance(after, dict):
        keys = before.keys() | after.keys()
        return [
            d for k in sorted(keys, key=str) for d in differences(before.get(k), after.get(k), f"{path}.{k}")
        ]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [
            d
            for n, (b, a) in enumerate(zip(before, after, strict=True))
            for d in differences(b, a, f"{path}[{n}]")
        ]
    return [] if before == after else [f"{path}: {before!r} then {after!r}"]


def shown_ids(*answers) -> set[str]:
    return {str(row["id"]) for answer in answers for row in answer}


@pytest.fixture
def race(season, hank, make_user):
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")]
    return make_game(season, hank, players)


def test_the_ids_of_two_announcements_do_not_count_the_reveals_made_between_them(
    race, hank, charlie, django_capture_on_commit_callbacks
):
    ann, ben = (race.seats.get(number=n).user for n in range(2))
    announce(race, hank, "First")
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # six reveals: each offer tells both players
            assert (
                operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"}).status_code == 200
            )
    announce(race, hank, "Second")
    for viewer in (charlie, None, ben):
        events = feed(race, viewer).json()["events"]
        first, second = (next(e for e in events if e["text"] == t) for t in ("First", "Second"))
        pks = {str(pk) for pk in Event.objects.values_list("pk", flat=True)}
        assert not shown_ids(events) & pks, "a database id is shown"
        assert not any(str(e["id"]).isdigit() for e in events)
        # The cursor is the ref a viewer was given: after "First" comes what they may see, nothing else.
        after = [e["text"] for e in feed(race, viewer, after=first["id"]).json()["events"]]
        mine = [e["text"] for e in events if e["kind"] == "reveal" and e["id"] != first["id"]]
        assert after[-1] == "Second" and set(after) <= {"Second", *mine}
        assert feed(race, viewer, after=second["id"]).json()["events"] == []


def test_a_feed_cursor_that_names_no_event_of_the_viewer_is_a_400(
    race, charlie, django_capture_on_commit_callbacks
):
    ann = race.seats.get(number=0).user
    with django_capture_on_commit_callbacks(execute=True):
        operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    hidden = Event.objects.filter(kind=Event.Kind.REVEAL).first()
    # someone else's reveal, an old id, nothing, and a NUL byte (which the database could not even be asked)
    for cursor in (hidden.ref, str(hidden.pk), "nonsense", "\x00"):
        answer = feed(race, charlie, after=cursor)
        assert answer.status_code == 400, cursor
        assert "after" in answer.json()["errors"]


def test_pair_chat_ids_do_not_count_the_messages_of_other_pairs(race, django_capture_on_commit_callbacks):
    ann, ben, cat, dan = (race.seats.get(number=n).user for n in range(4))
    ann_ben = reverse("api-chat", args=[race.id, 0, 1])
    api(ann).post(ann_ben, {"text": "one"}, format="json")
    for n in range(5):
        api(cat).post(reverse("api-chat", args=[race.id, 2, 3]), {"text": f"elsewhere {n}"}, format="json")
    api(ben).post(ann_ben, {"text": "two"}, format="json")
    rows = api(ann).get(ann_ben).json()
    assert [r["text"] for r in rows] == ["one", "two"]
    assert not shown_ids(rows) & {str(pk) for pk in ChatMessage.objects.values_list("pk", flat=True)}
    assert [r["text"] for r in api(ben).get(ann_ben, {"after": rows[0]["id"]}).json()] == ["two"]
    # Another pair's message is no cursor here: the ref names it to its pair only.
    theirs = ChatMessage.objects.filter(low_seat__number=2).first()
    assert api(ann).get(ann_ben, {"after": theirs.ref}).status_code == 400


def test_a_trade_offer_is_named_by_a_ref_that_does_not_count_other_players_offers(
    race, django_capture_on_commit_callbacks
):
    ann, ben, cat, dan = (race.seats.get(number=n).user for n in range(4))
    with django_capture_on_commit_callbacks(execute=True):
        operate(race, cat, "offer_trade", {"give": "A", "want": "B", "to": "dan"})
        offered = operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"})
    offer = TradeOffer.objects.get(offered_by__number=0)
    pks = {str(pk) for pk in TradeOffer.objects.values_list("pk", flat=True)}
    shown = api(ben).get(reverse("api-game", args=[race.id])).json()
    trades = shown["state"]["trades"]
    assert [t["id"] for t in trades] == [offer.ref]
    assert not any(f"(offer {pk})" in e["text"] for e in shown["inbox"] for pk in pks)
    assert offered.status_code == 200
    assert any("offers you their A card for your B card" in e["text"] for e in shown["inbox"])
    page = client_of(ben).get(f"/games/{race.id}/").content.decode()
    assert f'name="op_offer" value="{offer.ref}"' in page
    assert operate(race, ben, "accept_trade", {"offer": str(offer.pk)}).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        assert operate(race, ben, "accept_trade", {"offer": offer.ref}).status_code == 200


@time_machine.travel("2026-06-01 12:00Z", tick=False)  # seconds left stay as they were
def test_a_spectators_view_of_a_horse_race_is_the_same_after_every_private_activity(
    season, hank, make_user, charlie, django_capture_on_commit_callbacks
):
    race = make_game(season, hank, [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")])
    ann, ben, cat = (race.seats.get(number=n).user for n in range(3))
    ledger_post(season=season, user=cat, what="garnets", delta=10, reason="a host's grant")
    before = {who: spectator_view(race, user) for who, user in (("charlie", charlie), ("visitor", None))}
    with django_capture_on_commit_callbacks(execute=True):
        assert operate(race, ann, "offer_trade", {"give": "A", "want": "B", "to": "ben"}).status_code == 200
        assert operate(race, ben, "decline_trade", {"offer": TradeOffer.objects.get().ref}).status_code == 200
        assert operate(race, ann, "offer_trade", {"give": "A", "want": "C", "to": "cat"}).status_code == 200
        assert (
            operate(race, ann, "withdraw_trade", {"offer": TradeOffer.objects.first().ref}).status_code == 200
        )
        assert operate(race, ben, "offer_trade", {"give": "B", "want": "A", "to": "ann"}).status_code == 200
        assert (
            operate(race, ann, "accept_trade", {"offer": TradeOffer.objects.first().ref}).status_code == 200
        )
        assert operate(race, cat, "purchase", {"horse": "D"}).status_code == 200
        chat = reverse("api-chat", args=[race.id, 0, 1])
        assert api(ann).post(chat, {"text": "thanks"}, format="json").status_code == 201
    assert TradeOffer.objects.filter(status="accepted").count() == 1
    for who, user in (("charlie", charlie), ("visitor", None)):
        assert not differences(before[who], spectator_view(race, user)), who


@time_machine.travel("2026-06-01 12:00Z", tick=False)
def test_a_spectators_view_of_cards_on_the_table_is_the_same_after_flips_a_look_and_a_verdict(
    season, hank, make_user, charlie, django_capture_on_commit_callbacks
):
    ten = [make_user(name) for name in cards_site.NAMES]
    game = cards_site.make_game(season, hank, ten)
    with django_capture_on_commit_callbacks(execute=True):
        for seat, user in enumerate(ten):  # Round 1: two flips each, then Round 2 opens
            operate(game, user, "flip", {"row": seat % 5 + 1, "col": (seat + 1) % 5 + 1})
            operate(game, user, "declare", {"action": "scout"})
            operate(game, user, "flip", {"row": (seat + 2) % 5 + 1, "col": (seat + 3) % 5 + 1})
            submit(game, user, 1, {"board_guess": [[[2, "blue"]] * 5] * 5})
        assert cards_site.resolve(game, hank).status_code == 200
    ann, fay = ten[0], ten[5]
    ledger_post(season=season, user=ann, what="garnets", delta=1, reason="a host's grant")
    before = {who: spectator_view(game, user) for who, user in (("charlie", charlie), ("visitor", None))}
    with django_capture_on_commit_callbacks(execute=True):
        assert operate(game, ann, "flip", {"row": 1, "col": 1}).status_code == 200
        assert operate(game, ann, "declare", {"action": "nullify"}).status_code == 200
        assert operate(game, ann, "peek", {"row": 3, "col": 3}).status_code == 200
        assert submit(game, fay, 2, {"heat_guess": "black faces the hotter side"}).status_code == 201
        assert operate(game, hank, "judge_heat", {"seat": 5, "correct": True}).status_code == 200
    for who, user in (("charlie", charlie), ("visitor", None)):
        assert not differences(before[who], spectator_view(game, user)), who


def test_a_wild_card_bought_or_declined_looks_the_same_to_spectators(
    season, hank, alice, bob, charlie, make_user, django_capture_on_commit_callbacks
):
    """Arms Race: whether alice buys a wild card is hers to know (unless the hosts announce purchases). Two
    games dealt alike reach the break; she buys in one and declines in the other: a spectator is shown the
    same of both, version included."""
    dora = make_user("dora")
    ledger_post(season=season, user=alice, what="garnets", delta=3, reason="season start")
    players = [alice, bob, charlie]
    views = {}
    with time_machine.travel(timezone.now(), tick=False):
        games = {choice: arms_game(season, hank, players) for choice in ("buy_wild", "decline_wild")}
        for game in games.values():
            drive(game, players, honest, until=lambda s: s.phase == Phase.WILD_CARDS)
        for choice, game in games.items():
            with django_capture_on_commit_callbacks(execute=True):
                assert act(game, alice, {"type": choice}).status_code == 200
            view = spectator_view(game, dora)
            view["game"].pop("id")
            view["game"].pop("commitment")  # salted: each game's own
            view["poll"] = view["poll"].replace(f"/games/{game.id}/", "/games/G/")
            for event in view["feed"]["events"] + view["game"]["announcements"]:
                event.pop("id")  # random, as every ref
                if event["text"].startswith("The hosts' hidden data is committed"):
                    event.pop("text")  # a salted hash: each game's own
            views[choice] = view
    assert "bought" not in str(views["buy_wild"]["feed"])
    assert not differences(views["decline_wild"], views["buy_wild"])
