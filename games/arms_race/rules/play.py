"""Whose decision it is, what they may do, the one door for actions, and the default when a clock runs out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from games.platform.kit import Announce, RulesError

from . import chance
from .attack import MUST_CHALLENGE, WILD, attack, challenge, must_challenge, pass_weapon, redirect
from .ending import who
from .state import Call, Phase, State
from .weapons import WEAPONS
from .wild import buy_wild, decline_wild, undecided

ACTIONS = {
    Phase.WILD_CARDS: ("buy_wild", "decline_wild"),
    Phase.ATTACK: ("attack",),
    Phase.RESPOND: ("challenge", "pass"),
    Phase.REDIRECT: ("redirect",),
}
CLAIMS = tuple(w.value for w in WEAPONS)


def pending(state: State) -> dict | None:
    """The open decision, safe to show anyone: its kind, the seats that owe it, and their public options."""
    if state.phase == Phase.OVER:
        return None
    if state.phase == Phase.WILD_CARDS:
        return {
            "kind": "wild_card",
            "seats": list(undecided(state)),
            "round": state.round + 1,
            "types": list(ACTIONS[state.phase]),
            "options": {
                "price": state.settings.wild_card_price,
                "name_weapon": state.settings.wild_declared_at == "purchase",
                "weapons": list(CLAIMS) if state.settings.wild_declared_at == "purchase" else [],
            },
        }
    flight = state.flight
    base = {"round": state.round, "turn": state.turn, "types": list(ACTIONS[state.phase])}
    if state.phase == Phase.ATTACK:
        attacker = state.attacker
        targets = [s for s in range(state.players) if s != attacker]
        return {
            "kind": "attack",
            "seats": [attacker],
            **base,
            "options": {"targets": targets, "claims": list(CLAIMS)},
        }
    if state.phase == Phase.RESPOND:
        can_pass = not must_challenge(state)
        return {
            "kind": "respond",
            "seats": [flight.last.target],
            **base,
            "types": ["challenge", "pass"] if can_pass else ["challenge"],
            "options": {"challenge": [Call.TRUTH.value, Call.LIE.value], "pass": can_pass},
        }
    passer = flight.seen[-1]
    return {
        "kind": "redirect",
        "seats": [passer],
        **base,
        "options": {"targets": list(flight.unseen(state.players)), "claims": list(CLAIMS)},
    }


def legal_actions(state: State, seat: int) -> dict | None:
    """The decision `seat` owes now with every option, their own cards included; None if they owe none."""
    decision = pending(state)
    if decision is None or seat not in decision["seats"]:
        return None
    if decision["kind"] == "attack":
        hand = state.hands[seat]
        held = state.wilds[seat]
        decision["options"]["cards"] = [w.value for w in WEAPONS if w in hand] + ([WILD] if held else [])
        if held:
            named = sorted({w.value for w in held if w is not None}, key=CLAIMS.index)
            decision["options"]["wild_as"] = (
                list(CLAIMS) if state.settings.wild_declared_at == "play" else named
            )
    return decision


def apply(state: State, seat: int, action: Mapping) -> tuple[State, list]:
    """Apply one player's action; RulesError (with the form field) for anything the rules forbid."""
    if state.phase == Phase.OVER:
        raise RulesError("The game is over.")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise RulesError("That seat is not at this table.", field="seat")
    if not isinstance(action, Mapping):
        raise RulesError("An action names its type.", field="type")
    decision = pending(state)
    if seat not in decision["seats"]:
        raise RulesError("It is not your decision now.")
    kind = action.get("type")
    if kind not in decision["types"]:
        if kind == "pass" and state.phase == Phase.RESPOND:
            raise RulesError(MUST_CHALLENGE, field="type")
        raise RulesError(f"Now you can: {', '.join(decision['types'])}.", field="type")
    if kind == "buy_wild":
        return buy_wild(state, seat, action)
    if kind == "decline_wild":
        return decline_wild(state, seat)
    if kind == "attack":
        return attack(state, seat, action)
    if kind == "pass":
        return pass_weapon(state, seat)
    if kind == "redirect":
        return redirect(state, seat, action)
    return challenge(state, seat, action)


def validate(state: State, seat: int, action: Mapping) -> None:
    """Raise RulesError if `seat` may not take `action` now; the state is not changed."""
    apply(state, seat, action)


def timeout_action(state: State, seat: int | None = None) -> dict:
    """The action taken for a player whose clock ran out (the rulings file gives the reasons)."""
    decision = pending(state)
    if decision is None:
        raise RulesError("The game is over.")
    if seat is None:
        if len(decision["seats"]) != 1:
            raise RulesError("Several players owe this decision: name the seat.", field="seat")
        seat = decision["seats"][0]
    if seat not in decision["seats"]:
        raise RulesError("It is not that player's decision now.", field="seat")
    if state.phase == Phase.WILD_CARDS:
        return {"type": "decline_wild"}
    if state.phase == Phase.RESPOND:
        return {"type": "challenge", "call": state.settings.timeout_call}
    step = 0 if state.flight is None else len(state.flight.claims)
    rng = chance.for_timeout(state.seed, state.round, state.turn, step)
    if state.phase == Phase.ATTACK:
        card = rng.choice(state.hands[seat])
        target = rng.choice([s for s in range(state.players) if s != seat])
        return {"type": "attack", "card": card.value, "target": target, "claim": card.value}
    target = rng.choice(state.flight.unseen(state.players))
    return {"type": "redirect", "target": target, "claim": state.flight.weapon.value}


def apply_timeout(state: State, seat: int | None = None) -> tuple[State, list]:
    """Apply the default action for a player whose clock ran out, saying so publicly."""
    action = timeout_action(state, seat)
    seat = pending(state)["seats"][0] if seat is None else seat
    kind = pending(state)["kind"].replace("_", " ")
    notice = Announce(
        f"{who(state, seat)}'s time ran out ({kind}).", {"event": "timeout", "seat": seat, "decision": kind}
    )
    if state.phase != Phase.WILD_CARDS:
        state = replace(state, timed_out=state.timed_out + (seat,))
    new_state, events = apply(state, seat, action)
    return new_state, [notice, *events]
