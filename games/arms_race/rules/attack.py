"""An attack: a card aimed with a claim, then challenged ("truth" or "lie") or passed on and redirected."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from games.platform.kit import Announce, Reveal, RulesError

from .ending import end_by_wounds, who
from .flow import finish_turn
from .state import WEAPONS, AttackRecord, Call, Claim, Flight, Phase, State
from .weapons import Weapon, counted, weapon_named, without_one

WILD = "wild"
MUST_CHALLENGE = "Everyone else has seen this weapon: you cannot pass, you must challenge."


def seat_field(value: object, state: State, field: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.players:
        raise RulesError("Choose one of the players at the table.", field=field)
    return value


def wild_weapon(state: State, seat: int, action: Mapping) -> tuple[Weapon, tuple]:
    """The weapon a wild card is played as, and the wild cards the player keeps."""
    held = state.wilds[seat]
    if not held:
        raise RulesError("You hold no wild card.", field="card")
    named = action.get("wild_as")
    if state.settings.wild_declared_at == "play":
        # "when using a wild-card, you have to choose which weapon it is before playing it"
        weapon = weapon_named(named, "wild_as")
        return weapon, without_one(held, None)
    if named in (None, "") and len(set(held)) == 1:
        return held[0], held[1:]
    weapon = weapon_named(named, "wild_as")
    if weapon not in held:
        raise RulesError("You hold no wild card named as that weapon.", field="wild_as")
    return weapon, without_one(held, weapon)


def attack(state: State, seat: int, action: Mapping) -> tuple[State, list]:
    """The player whose turn it is aims one weapon at another player and claims what it is."""
    card = action.get("card")
    hands, wilds = list(state.hands), list(state.wilds)
    if isinstance(card, str) and card.strip().lower() == WILD:
        weapon, wilds[seat] = wild_weapon(state, seat, action)
        wild = True
    else:
        weapon = weapon_named(card, "card")
        if weapon not in state.hands[seat]:
            raise RulesError(f"You have no {weapon.title} left in your hand.", field="card")
        hands[seat] = without_one(state.hands[seat], weapon)
        wild = False
    target = seat_field(action.get("target"), state, "target")
    if target == seat:
        raise RulesError("Aim your weapon at another player.", field="target")
    claim = weapon_named(action.get("claim"), "claim")
    flight = Flight(seat, weapon, wild, (Claim(seat, target, claim),), (seat,))
    state = replace(state, hands=tuple(hands), wilds=tuple(wilds), flight=flight, phase=Phase.RESPOND)
    events: list = []
    if wild:
        events.append(
            Announce(f"{who(state, seat)} is playing a wild card.", {"event": "wild_played", "seat": seat})
        )
    events.append(claim_announcement(state, flight.last, first=True))
    return state, events


def claim_announcement(state: State, claim: Claim, first: bool) -> Announce:
    verb = "aims a weapon at" if first else "points the weapon at"
    pointer, target = who(state, claim.pointer), who(state, claim.target)
    text = f"{pointer} {verb} {target}, claiming it is a {claim.weapon.title}."
    data = {"event": "claim", "pointer": claim.pointer, "target": claim.target, "claim": claim.weapon.value}
    return Announce(text, data)


def must_challenge(state: State) -> bool:
    """The targeted player is the last one who has not seen the weapon: they cannot pass."""
    return state.flight is not None and len(state.flight.unseen(state.players)) <= 1


def pass_weapon(state: State, seat: int) -> tuple[State, list]:
    """The targeted player passes: they see the real card, and will aim it at someone who has not seen it."""
    flight = state.flight
    if must_challenge(state):
        raise RulesError(MUST_CHALLENGE, field="type")
    flight = replace(flight, seen=flight.seen + (seat,))
    state = replace(state, flight=flight, phase=Phase.REDIRECT)
    events = [
        Announce(f"{who(state, seat)} passes and looks at the weapon.", {"event": "pass", "seat": seat}),
        seen_reveal(state, seat),
    ]
    return state, events


def seen_reveal(state: State, seat: int) -> Reveal:
    """The private message that shows a passer the weapon in flight."""
    flight = state.flight
    what = f"a wild card played as a {flight.weapon.title}" if flight.wild else f"a {flight.weapon.title}"
    return Reveal(
        seat,
        f"You looked at the weapon {who(state, flight.owner)} played: it is {what}.",
        {"event": "seen", "owner": flight.owner, "weapon": flight.weapon.value, "wild": flight.wild},
    )


def redirect(state: State, seat: int, action: Mapping) -> tuple[State, list]:
    """The player who passed aims the weapon at a player who has not seen it, with a claim of their own."""
    flight = state.flight
    target = seat_field(action.get("target"), state, "target")
    if target in flight.seen:
        raise RulesError(
            f"{who(state, target)} has already seen this weapon: aim it at someone who has not.",
            field="target",
        )
    claim = Claim(seat, target, weapon_named(action.get("claim"), "claim"))
    state = replace(state, flight=replace(flight, claims=flight.claims + (claim,)), phase=Phase.RESPOND)
    return state, [claim_announcement(state, claim, first=False)]


def challenge(state: State, seat: int, action: Mapping) -> tuple[State, list]:
    """The target calls the last claim "truth" or "lie"; whoever is wrong takes the real weapon's wound."""
    raw = action.get("call")
    if raw not in (Call.TRUTH.value, Call.LIE.value):
        raise RulesError('Say "truth" or "lie".', field="call")
    call = Call(raw)
    flight = state.flight
    last = flight.last
    correct = (call == Call.TRUTH) == (last.weapon == flight.weapon)
    # Whoever pointed it last is "the attacker" the challenger answers: they take the wound if caught.
    wounded = last.pointer if correct else seat
    index = WEAPONS.index(flight.weapon)
    wounds = list(state.wounds)
    wounds[wounded] = tuple(c + (i == index) for i, c in enumerate(wounds[wounded]))
    record = AttackRecord(
        round=state.round,
        turn=state.turn,
        owner=flight.owner,
        weapon=flight.weapon,
        wild=flight.wild,
        claims=flight.claims,
        seen=flight.seen,
        challenger=seat,
        call=call,
        correct=correct,
        wounded=wounded,
        timed_out=state.timed_out,
    )
    state = replace(state, wounds=tuple(wounds), history=state.history + (record,))
    real = f"a wild card played as a {flight.weapon.title}" if flight.wild else f"a {flight.weapon.title}"
    text = (
        f"{who(state, seat)} challenges {who(state, last.pointer)}'s claim of {last.weapon.title}: "
        f'"{call.value}". The weapon was {real}. {who(state, seat)} was {"right" if correct else "wrong"}: '
        f"{who(state, wounded)} takes a {record.wound} "
        f"({counted(state.wounds_of(wounded, flight.weapon), record.wound)}, "
        f"{counted(state.total_wounds(wounded), 'wound')} in all)."
    )
    data = {
        "event": "challenge",
        "challenger": seat,
        "pointer": last.pointer,
        "claim": last.weapon.value,
        "call": call.value,
        "weapon": flight.weapon.value,
        "wild": flight.wild,
        "correct": correct,
        "wounded": wounded,
        "wound": record.wound,
    }
    events: list = [Announce(text, data)]
    if state.wounds_of(wounded, flight.weapon) >= state.settings.wounds_to_lose:
        state, more = end_by_wounds(state, record)
    else:
        state, more = finish_turn(state)
    return state, events + more
