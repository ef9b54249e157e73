"""The state as plain JSON for the database's JSON column, and back, exactly."""

from __future__ import annotations

from dataclasses import asdict

from .settings import Settings
from .state import AttackRecord, Call, Claim, Flight, Outcome, Phase, State
from .weapons import Weapon


def _weapons(items) -> list:
    return [None if w is None else w.value for w in items]


def _claims_to(claims) -> list:
    return [[c.pointer, c.target, c.weapon.value] for c in claims]


def _claims_from(items) -> tuple[Claim, ...]:
    return tuple(Claim(p, t, Weapon(w)) for p, t, w in items)


def state_to_json(state: State) -> dict:
    flight = state.flight
    return {
        "settings": asdict(state.settings),
        "seed": state.seed,
        "names": list(state.names),
        "hands": [_weapons(h) for h in state.hands],
        "undealt": _weapons(state.undealt),
        "wilds": [_weapons(h) for h in state.wilds],
        "wounds": [list(w) for w in state.wounds],
        "round": state.round,
        "order": list(state.order),
        "turn": state.turn,
        "phase": state.phase.value,
        "flight": None
        if flight is None
        else {
            "owner": flight.owner,
            "weapon": flight.weapon.value,
            "wild": flight.wild,
            "claims": _claims_to(flight.claims),
            "seen": list(flight.seen),
        },
        "wild_decided": list(state.wild_decided),
        "wild_bought": list(state.wild_bought),
        "timed_out": list(state.timed_out),
        "history": [
            {
                "round": r.round,
                "turn": r.turn,
                "owner": r.owner,
                "weapon": r.weapon.value,
                "wild": r.wild,
                "claims": _claims_to(r.claims),
                "seen": list(r.seen),
                "challenger": r.challenger,
                "call": r.call.value,
                "correct": r.correct,
                "wounded": r.wounded,
                "timed_out": list(r.timed_out),
            }
            for r in state.history
        ],
        "outcome": None
        if state.outcome is None
        else {
            **asdict(state.outcome),
            "winners": list(state.outcome.winners),
        },
    }


def state_from_json(d: dict) -> State:
    flight = d["flight"]
    outcome = d["outcome"]
    return State(
        settings=Settings(**d["settings"]),
        seed=d["seed"],
        names=tuple(d["names"]),
        hands=tuple(tuple(Weapon(w) for w in h) for h in d["hands"]),
        undealt=tuple(Weapon(w) for w in d["undealt"]),
        wilds=tuple(tuple(None if w is None else Weapon(w) for w in h) for h in d["wilds"]),
        wounds=tuple(tuple(w) for w in d["wounds"]),
        round=d["round"],
        order=tuple(d["order"]),
        turn=d["turn"],
        phase=Phase(d["phase"]),
        flight=None
        if flight is None
        else Flight(
            flight["owner"],
            Weapon(flight["weapon"]),
            flight["wild"],
            _claims_from(flight["claims"]),
            tuple(flight["seen"]),
        ),
        wild_decided=tuple(d["wild_decided"]),
        wild_bought=tuple(d["wild_bought"]),
        timed_out=tuple(d["timed_out"]),
        history=tuple(
            AttackRecord(
                r["round"],
                r["turn"],
                r["owner"],
                Weapon(r["weapon"]),
                r["wild"],
                _claims_from(r["claims"]),
                tuple(r["seen"]),
                r["challenger"],
                Call(r["call"]),
                r["correct"],
                r["wounded"],
                tuple(r["timed_out"]),
            )
            for r in d["history"]
        ),
        outcome=None
        if outcome is None
        else Outcome(
            outcome["reason"],
            outcome["loser"],
            tuple(outcome["winners"]),
            outcome["original"],
            outcome["pointer"],
            outcome["tiebreak"],
        ),
    )
