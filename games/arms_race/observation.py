"""What one viewer may see of an Arms Race: the rules' view for their role (with the deal for the hosts and at
the end), dressed for the page: names beside seat numbers, titles beside weapons.

The dressing (`observe_table`) only adds words to what the rules' view already holds.
"""

from __future__ import annotations

from collections import Counter

from games.platform.models import Game
from games.platform.registry import Viewer

from .hidden import hidden_data
from .names import seat_names
from .rules import WEAPONS, WILD, full_view, public_view, seat_view
from .settings import DECISIONS, decision_seconds
from .store import load

TITLES = {w.value: w.title for w in WEAPONS}
WOUND_OF = {w.value: w.wound for w in WEAPONS}
DECISION_WORDS = {
    "attack": "to attack",
    "respond": "to challenge or pass",
    "redirect": "to aim the weapon they passed",
    "wild_card": "to buy or decline a wild card",
}


def observe(game: Game, viewer: Viewer) -> dict:
    if not game.state:
        view: dict = {"phase": "not_started", "players": []}
        if viewer.role == "host":
            view["deal"] = hidden_data(game)
        return view
    state = load(game)
    if viewer.role == "host" or game.status == "finished":
        view = full_view(state)
        view["deal"] = hidden_data(game)
    elif viewer.role == "player":
        view = seat_view(state, viewer.seat_number)
    else:
        view = public_view(state)
    view["time_limits"] = {kind: decision_seconds(game.settings, kind) for kind in DECISIONS}
    return observe_table(view, seat_names(game))


def title(weapon: str | None) -> str:
    if weapon is None:
        return "unnamed"
    return "Wild card" if weapon == WILD else TITLES.get(weapon, weapon)


def card_counts(cards: list) -> list[dict]:
    """A hand as counts in deck order: cards of one weapon are alike."""
    counts = Counter(cards)
    return [
        {"weapon": w.value, "title": w.title, "count": counts[w.value]} for w in WEAPONS if counts[w.value]
    ]


def observe_table(view: dict, names: dict[int, str] | None = None) -> dict:
    """`names`: the name each seat goes by on the site, in place of what the rules call it (a reference)."""
    players = view.get("players", [])
    for player in players:
        player["name"] = (names or {}).get(player["seat"], player["name"])
    name = {p["seat"]: p["name"] for p in players}.get

    def claims(items: list[dict]) -> list[dict]:
        return [
            {
                **c,
                "pointer_name": name(c["pointer"]),
                "target_name": name(c["target"]),
                "title": title(c["claim"]),
            }
            for c in items
        ]

    decision = view.get("decision")
    deciding = set(decision["seats"]) if decision else set()
    if decision:
        decision["names"] = [name(s) for s in decision["seats"]]
        decision["words"] = DECISION_WORDS[decision["kind"]]
        # A player who decides too is not told they are waited for: their own controls ask them.
        decision["mine"] = view.get("seat") in deciding
    view["wound_types"] = [{"weapon": w.title, "wound": w.wound} for w in WEAPONS]
    # "one wound from losing": a type they hold one short of the wounds that lose (none when one wound loses:
    # then everyone is, and saying so marks nobody).
    losing = view.get("settings", {}).get("wounds_to_lose", 0)
    for player in players:
        player["wound_list"] = [
            {"wound": w.wound, "count": count, "near": 0 < count == losing - 1}
            for w in WEAPONS
            for count in [player["wounds"][w.wound]]
        ]
        player["one_from_losing"] = [w["wound"] for w in player["wound_list"] if w["near"]]
        player["deciding"] = player["seat"] in deciding
        player["attacking"] = player["seat"] == view.get("attacker")
    view["one_from_losing"] = [p for p in players if p["one_from_losing"]]
    view["order_names"] = [name(s) for s in view.get("order", [])]
    flight = view.get("flight")
    if flight:
        flight["owner_name"] = name(flight["owner"])
        flight["claims"] = claims(flight["claims"])
        for key in ("seen", "passed", "unseen"):
            flight[f"{key}_names"] = [name(s) for s in flight[key]]
        if "weapon" in flight:
            flight["title"] = title(flight["weapon"])
    learned = view.get("weapon_in_flight")
    if learned:
        learned["title"] = title(learned["weapon"])
        learned["owner_name"] = name(learned["owner"])
        learned["mine"] = learned["owner"] == view.get("seat")
    view["attacks"] = [
        {
            **r,
            "claims": claims(r["claims"]),
            "owner_name": name(r["owner"]),
            "title": title(r["weapon"]),
            "passed_names": [name(s) for s in r["passed"]],
            "challenger_name": name(r["challenger"]),
            "wounded_name": name(r["wounded"]),
            "timed_out_names": [name(s) for s in r["timed_out"]],
        }
        for r in reversed(view.get("history", []))
    ]
    outcome = view.get("outcome")
    if outcome:
        outcome["loser_name"] = name(outcome["loser"])
        outcome["winner_names"] = [name(s) for s in outcome["winners"]]
    if "hand" in view:
        view["hand_cards"] = card_counts(view["hand"])
        view["wild_titles"] = [title(w) for w in view["wild_cards"]]
    mine = view.get("my_decision")
    if mine:
        mine["names"] = [name(s) for s in mine["seats"]]
    if "hands" in view:
        view["all_hands"] = [
            {"seat": seat, "name": name(seat), "cards": card_counts(hand), "joined": ",".join(hand)}
            for seat, hand in enumerate(view["hands"])
        ]
        view["undealt_titles"] = [title(w) for w in view["undealt"]]
    return view
