"""The rules state, settings and seat names of one game row, read and written through the rules' codec."""

from __future__ import annotations

import dataclasses
import re

from games.platform.kit import Announce, Reveal, RulesError
from games.platform.models import Game
from games.platform.observation import seats_with_players

from .rules import Settings, State, state_from_json, state_to_json

ROUND_OF_LOSER_CHOICE = 4  # opened only when the winners must pick the elimination candidate
SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def rules_settings(settings: dict, players: int, heat_rule: str | None = None) -> Settings:
    """The engine's Settings: the game's "rules" switches, its seat count and the host's heat rule."""
    switches = dict(settings.get("rules") or {})
    known = {f.name for f in dataclasses.fields(Settings)} - {"players", "heat_rule"}
    unknown = sorted(set(switches) - known)
    if unknown:
        raise RulesError(f"Unknown rules setting(s): {', '.join(unknown)}.", field="settings")
    if "garnet_marks" in switches:
        switches["garnet_marks"] = tuple(switches["garnet_marks"])
    return Settings(players=players, heat_rule=heat_rule, **switches)


def load(game: Game) -> State:
    if not game.state:
        raise RulesError("The game has not started yet.", field="round")
    return state_from_json(game.state)


def dump(state: State) -> dict:
    return state_to_json(state)


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: seat.user.username for seat in seats_with_players(game)}


def with_names(game: Game, events: list) -> list:
    """The rules say "seat 3"; the site says who that is (the events' data keeps the seat numbers)."""
    names = seat_names(game)

    def named(match: re.Match) -> str:
        name = names.get(int(match.group(2)))
        return name if name is not None else match.group(0)

    renamed = []
    for event in events:
        if isinstance(event, Announce):
            event = Announce(SEAT.sub(named, event.text), event.data)
        elif isinstance(event, Reveal):
            event = Reveal(event.seat, SEAT.sub(named, event.text), event.data)
        renamed.append(event)
    return renamed
