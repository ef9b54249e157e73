"""One player's round submission: the strict check when it is saved, and its settlement at resolution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games.platform.kit import RulesError

from .ability_inputs import clean_ability
from .settings import HORSES
from .state import State, bet_limit, check_horse, check_seat
from .track import space_after

PAYLOAD_KEYS = ("ability", "space", "bets")


@dataclass
class Settled:
    """What stands of a submission at resolution, and why anything was dropped (told to the player)."""

    ability: dict | None = None
    space: int | None = None
    bets: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def spectating_open(state: State) -> bool:
    return state.round > 0 or state.settings.round0_spectating


def horse_space_now(state: State, horse: str) -> int:
    """Where a horse stands during the open round: where the previous round's movement left it."""
    return space_after(state.movement, horse, max(state.round - 1, 0), state.settings.track_length)


def limit_raise(round_number: int, ability: dict | None, raise_for_round9: bool = True) -> int:
    """How much the seat's own ability raises this round's limit ("including the current one")."""
    if ability is None or ability["kind"] != "utility":
        return 0
    used = sum(ability.get("use", {}).values())
    if round_number == 2:
        return used // 2
    if round_number == 8:
        return used
    if round_number == 9 and raise_for_round9:
        return used
    return 0


def chips_gained_now(round_number: int, ability: dict | None) -> int:
    """Round 9's Utility chips arrive before the bets, so they can be bet in the same round."""
    if round_number == 9 and ability is not None and ability["kind"] == "utility":
        return sum(ability["use"].values())
    return 0


def _space(state: State, value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    length = state.settings.track_length
    if type(value) is not int or not 1 <= value <= length:
        raise RulesError(f"Spectate a space from 1 to {length}, or none.", field="space")
    return value


def _bet_entries(value: object) -> list[tuple[object, object]]:
    if value is None or value == "":
        return []
    if not isinstance(value, Mapping):
        raise RulesError("Give your bets as a number of chips for each horse.", field="bets")
    return list(value.items())


def _amount(value: object) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if type(value) is not int or value < 0:
        raise RulesError("Bet a whole number of chips.", field="bets")
    return value


def _bet_error(state: State, seat: int, horse: str) -> str | None:
    """Why one bet cannot stand, if it cannot: the horse must be in the seat's current space."""
    current = state.players[seat].current_space
    if current is None:
        return f"you have no current space, so you cannot bet on {horse}"
    if horse_space_now(state, horse) != current:
        return f"{horse} is not in your current space (space {current})"
    return None


def validate_submission(state: State, seat: int, payload: object) -> dict:
    """The submission cleaned, checked as it is saved; RulesError(field=...) for the first thing wrong."""
    if state.over:
        raise RulesError("The race is over; there is nothing left to submit.", field="round")
    check_seat(state, seat)
    if not isinstance(payload, Mapping):
        raise RulesError("A submission is an ability, a space and bets.", field="ability")
    extra = sorted(set(payload) - set(PAYLOAD_KEYS))
    if extra:
        raise RulesError(f"Unknown part of a submission: {', '.join(extra)}.", field=extra[0])
    player = state.players[seat]
    ability = clean_ability(state.round, player.hand, payload.get("ability"))
    if not spectating_open(state):
        if payload.get("space") not in (None, ""):
            raise RulesError("In Round 0 you only submit an ability: no space to spectate.", field="space")
        if payload.get("bets") not in (None, "", {}):
            raise RulesError("In Round 0 you only submit an ability: no bets.", field="bets")
        return {"ability": ability, "space": None, "bets": {}}
    space = _space(state, payload.get("space"))
    bets: dict[str, int] = {}
    for key, amount in _bet_entries(payload.get("bets")):
        horse = check_horse(key, "bets")
        chips = _amount(amount)
        if chips:
            problem = _bet_error(state, seat, horse)
            if problem:
                raise RulesError(f"You cannot bet on {horse}: {problem}.", field="bets")
            bets[horse] = bets.get(horse, 0) + chips
    total = sum(bets.values())
    limit = bet_limit(state, seat, limit_raise(state.round, ability, state.settings.round9_chips_raise_limit))
    if total > limit:
        raise RulesError(f"You may bet at most {limit} chips this round; you bet {total}.", field="bets")
    held = player.chips + chips_gained_now(state.round, ability)
    if total > held:
        raise RulesError(f"You have only {held} chips; you bet {total}.", field="bets")
    return {"ability": ability, "space": space, "bets": {h: bets[h] for h in HORSES if h in bets}}


def settle_submission(state: State, seat: int, payload: object) -> Settled:
    """The submission as it stands at resolution, against the state then, with the rules' consequences:
    a bad ability is no ability, a bad space no space, a bad bet on one horse voids that bet, and betting
    more chips than allowed (or held) voids the whole submission."""
    settled = Settled()
    if not isinstance(payload, Mapping):
        settled.notes.append("Your submission could not be read, so nothing was submitted.")
        return settled
    player = state.players[seat]
    try:
        settled.ability = clean_ability(state.round, player.hand, payload.get("ability"))
    except RulesError as error:
        settled.notes.append(f"No ability was used: {error.message}")
    if not spectating_open(state):
        return settled
    well_formed: dict[str, int] = {}
    try:
        entries = _bet_entries(payload.get("bets"))
    except RulesError as error:
        entries = []
        settled.notes.append(f"Your bets could not be read: {error.message}")
    for key, amount in entries:
        try:
            horse, chips = check_horse(key, "bets"), _amount(amount)
        except RulesError as error:
            settled.notes.append(f"A bet was void: {error.message}")
            continue
        if chips:
            well_formed[horse] = well_formed.get(horse, 0) + chips
    standing = {h: c for h, c in well_formed.items() if _bet_error(state, seat, h) is None}
    counted = sum((well_formed if state.settings.limit_counts_voided_bets else standing).values())
    raise_by = limit_raise(state.round, settled.ability, state.settings.round9_chips_raise_limit)
    limit = bet_limit(state, seat, raise_by)
    held = player.chips + chips_gained_now(state.round, settled.ability)
    if counted > min(limit, held):
        reason = f"the limit is {limit}" if counted > limit else f"you hold only {held} chips"
        return Settled(notes=[f"You bet {counted} chips but {reason}, so your entire submission was void."])
    for horse in well_formed:
        if horse not in standing:
            settled.notes.append(f"Your bet on {horse} was void: {_bet_error(state, seat, horse)}.")
    settled.bets = {h: standing[h] for h in HORSES if h in standing}
    try:
        settled.space = _space(state, payload.get("space"))
    except RulesError as error:
        settled.notes.append(f"No space was spectated: {error.message}")
    return settled
