"""What one viewer may see of a Middle Marathon: the rules' view for their role, arranged for the live page
(the track by space, the clocks, the offered moves)."""

from __future__ import annotations

import json
from typing import Any

from games.platform.models import Game, Seat
from games.platform.observation import seats_with_players, turn_clock
from games.platform.people import shown_name
from games.platform.registry import Viewer

from . import rules
from .rules import full_view, legal_actions, public_view, seat_view
from .rules.pieces import seat_name
from .rules.track import TRACK_LENGTH
from .store import load


def observe(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The host and everyone after the end see all; a player sees their own hand; spectators no hand."""
    if not game.state:
        return {"started": False, "first_player": game.settings.get("first_player", 0)}
    state = load(game)
    if viewer.role == "host" or game.status == "finished":
        view = full_view(state)
    elif viewer.role == "player":
        view = seat_view(state, viewer.seat_number)
    else:
        view = public_view(state)
    legal = []
    if viewer.role == "player" and game.status == "running" and not game.paused_at:
        legal = legal_actions(state, viewer.seat_number)
    return page_view(game, view, legal)


def page_view(game, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules view as it is, plus the same facts arranged for the page and the viewer's legal moves.

    `legal` is empty unless the viewer is the player the game waits on: the page offers nothing else.
    """
    seats = seats_with_players(game)
    names = [shown_name(seat.user) for seat in seats]
    view = dict(view)
    view["started"] = True
    view["players"] = player_rows(game, seats, view)
    view["track"] = track_rows(view["pieces"])
    view["finishers"] = sorted((p for p in view["pieces"] if p["finished"]), key=lambda p: p["place"])
    view["waiting_on"] = waiting_words(view["pending"], names, view.get("seat"))
    view["played_words"] = [played_words(row) for row in view["played"]]
    view["discard_words"] = [discard_words(row) for row in view["discards"]]
    view["legal_actions"] = legal
    view["plays"] = play_rows(view, legal)
    view["choices"] = choice_buttons(view, legal)
    # What the one deciding may pick, for those watching them decide (discard options are not public).
    view["option_words"] = [choice_label(option, view) for option in view["pending"].get("options", [])]
    if "hands" in view:
        view["hand_rows"] = [
            {"colour": seat_name(seat), "player": names[seat], "cards": hand}
            for seat, hand in enumerate(view["hands"])
        ]
    view["result_words"] = result_words(view["result"], names)
    return view


def player_rows(game, seats: list[Seat], view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's colour, points so far, cards in hand (how many) and both parts of their time."""
    clock = turn_clock(game)
    banked = (clock.banked or {}) if clock is not None else {}
    return [
        {
            "seat": seat.number,
            "colour": seat_name(seat.number),
            "player": shown_name(seat.user),
            "points": view["points"][seat.number],
            "hand_size": view["hand_sizes"][seat.number],
            "reserve_seconds": seat.reserve_seconds,
            "reserve_text": minutes(seat.reserve_seconds),
            # Time left earlier in this turn, set aside while the other player answers: the turn player's
            # turn time, or the off-turn player's leftover minutes; either comes back with their next move.
            "banked_seconds": banked.get(str(seat.number)),
        }
        for seat in seats
    ]


def minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def status_words(piece: dict[str, Any]) -> list[str]:
    words = []
    if piece["locked_until"] is not None:
        words.append(f"locked until the end of turn {piece['locked_until']}")
    if piece["reversed_until"] is not None:
        words.append(f"reversed until the end of turn {piece['reversed_until']}")
    return words


def track_rows(pieces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Space 15 (nearest the finish) down to space 1, each with the pieces standing on it."""
    rows = []
    for space in range(TRACK_LENGTH, 0, -1):
        here = [
            {**piece, "status": status_words(piece)}
            for piece in pieces
            if not piece["finished"] and piece["space"] == space
        ]
        rows.append({"space": space, "pieces": here})
    return rows


def waiting_words(pending: dict[str, Any], names: list[str], me: int | None = None) -> str:
    """Whose move the race waits on, said to `me` (the viewing player's seat) as their own."""
    if pending["kind"] == "over":
        return "The race is over."
    colour = seat_name(pending["seat"])
    if pending["seat"] == me:
        if pending["kind"] == "turn":
            return f"Turn {pending['turn']}: your turn ({colour}): play a movement card."
        off_turn = " (a decision off your turn)" if pending["off_turn"] else ""
        return f"Your decision{off_turn}: {pending['prompt']}"
    who = f"{names[pending['seat']]} ({colour})"
    if pending["kind"] == "turn":
        return f"Turn {pending['turn']}: waiting for {who} to play a movement card."
    off_turn = " (a decision off their turn)" if pending["off_turn"] else ""
    return f"Waiting for {who} to choose{off_turn}: {pending['prompt']}"


def played_words(row: dict[str, Any]) -> str:
    return f"Turn {row['turn']}: {seat_name(row['seat'])} played {row['card']} on {rules.name(row['piece'])}"


def discard_words(row: dict[str, Any]) -> str:
    who = seat_name(row["seat"])
    if "cards" not in row:
        return f"Turn {row['turn']}: {who} discarded {row['count']} card(s)"
    cards = " and ".join(str(card) for card in row["cards"]) or "nothing"
    return f"Turn {row['turn']}: {who} discarded {cards}"


def as_value(action: dict[str, Any]) -> str:
    """The button's value: the action as JSON, exactly what the API takes as its payload."""
    return json.dumps(action, separators=(",", ":"))


def play_rows(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per piece a card may go on, one button per card in hand."""
    spaces = {piece["piece"]: piece["space"] for piece in view["pieces"]}
    rows: dict[str, dict[str, Any]] = {}
    for action in legal:
        if action["type"] != "play":
            continue
        piece = action["piece"]
        row = rows.setdefault(
            piece, {"piece": piece, "name": rules.name(piece), "space": spaces[piece], "buttons": []}
        )
        row["buttons"].append(
            {
                "card": action["card"],
                "label": f"Play {action['card']} on {rules.name(piece)}",
                "value": as_value(action),
            }
        )
    return list(rows.values())


def choice_label(choice, view: dict[str, Any]) -> str:
    if isinstance(choice, list):
        return "Discard " + (" and ".join(str(card) for card in choice) or "nothing")
    space = next(piece["space"] for piece in view["pieces"] if piece["piece"] == choice)
    return f"{rules.name(choice)} on space {space}"


def choice_buttons(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [
        {"label": choice_label(action["choice"], view), "value": as_value(action)}
        for action in legal
        if action["type"] == "choose"
    ]


def result_words(result: dict[str, Any] | None, names: list[str]) -> str:
    if result is None:
        return ""
    if result["winner"] is None and result.get("ended_because") == "absent":
        verdict = "Nobody wins: the DMO decides"
    elif result["winner"] is None:
        verdict = "The DMO wins: a draw"
    else:
        verdict = f"{names[result['winner']]} ({seat_name(result['winner'])}) wins"
    if result["scores"] is None:
        return f"{verdict}: {result['reason']}."
    blue, red = result["scores"]
    return f"{verdict}: {result['reason']}. Blue {blue}, Red {red}."
