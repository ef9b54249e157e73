"""What each viewer may see: the public table, one seat's view (hand, what they saw), everything."""

from __future__ import annotations

from games.platform.kit import RulesError

from .play import legal_actions, pending
from .settings import Settings
from .state import AttackRecord, Claim, Outcome, State
from .weapons import WEAPONS


def claims_view(claims: tuple[Claim, ...]) -> list[dict]:
    return [{"pointer": c.pointer, "target": c.target, "claim": c.weapon.value} for c in claims]


def record_view(record: AttackRecord) -> dict:
    """A finished attack is public whole: the challenge revealed the card."""
    return {
        "round": record.round,
        "turn": record.turn,
        "owner": record.owner,
        "weapon": record.weapon.value,
        "wild": record.wild,
        "claims": claims_view(record.claims),
        "seen": list(record.seen),
        "passed": list(record.seen[1:]),
        "challenger": record.challenger,
        "call": record.call.value,
        "correct": record.correct,
        "wounded": record.wounded,
        "wound": record.wound,
        "timed_out": list(record.timed_out),
    }


def outcome_view(outcome: Outcome | None) -> dict | None:
    if outcome is None:
        return None
    return {
        "reason": outcome.reason,
        "loser": outcome.loser,
        "winners": list(outcome.winners),
        "original": outcome.original,
        "pointer": outcome.pointer,
        "tiebreak": outcome.tiebreak,
    }


def settings_view(settings: Settings) -> dict:
    return dict(settings.__dict__)


def public_view(state: State) -> dict:
    """Every claim, pass, challenge, revealed card and wound; never a hand or a card not yet revealed."""
    flight = state.flight
    in_flight = None
    if flight is not None:
        in_flight = {
            "owner": flight.owner,
            "wild": flight.wild,
            "claims": claims_view(flight.claims),
            "seen": list(flight.seen),
            "passed": list(flight.seen[1:]),
            "unseen": list(flight.unseen(state.players)),
            "timed_out": list(state.timed_out),
        }
    players = []
    for seat in range(state.players):
        player = {
            "seat": seat,
            "name": state.names[seat],
            "wounds": {w.wound: state.wounds_of(seat, w) for w in WEAPONS},
            "total_wounds": state.total_wounds(seat),
            "cards_in_hand": len(state.hands[seat]),
            "wild_cards_played": sum(1 for r in state.history if r.owner == seat and r.wild)
            + (1 if flight is not None and flight.wild and flight.owner == seat else 0),
        }
        if state.settings.announce_wild_purchases:
            player["wild_cards_held"] = len(state.wilds[seat])
        players.append(player)
    return {
        "game": "arms_race",
        "settings": settings_view(state.settings),
        "round": state.round,
        "rounds": state.settings.rounds,
        "order": list(state.order),
        "turn": state.turn,
        "attacker": state.attacker,
        "phase": state.phase.value,
        "decision": pending(state),
        "players": players,
        "flight": in_flight,
        "history": [record_view(r) for r in state.history],
        "outcome": outcome_view(state.outcome),
    }


def seat_view(state: State, seat: int) -> dict:
    """The public view plus this seat's hand, wild cards, the weapon in flight if they have seen it."""
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise RulesError("That seat is not at this table.", field="seat")
    view = public_view(state)
    flight = state.flight
    learned = None
    if flight is not None and seat in flight.seen:
        learned = {"owner": flight.owner, "weapon": flight.weapon.value, "wild": flight.wild}
    view.update(
        {
            "seat": seat,
            "hand": [w.value for w in state.hands[seat]],
            "wild_cards": [None if w is None else w.value for w in state.wilds[seat]],
            "weapon_in_flight": learned,
            "my_decision": legal_actions(state, seat),
        }
    )
    return view


def full_view(state: State) -> dict:
    """Everything, for hosts and for a finished game."""
    view = public_view(state)
    if state.flight is not None:
        view["flight"]["weapon"] = state.flight.weapon.value
    view.update(
        {
            "seed": state.seed,
            "hands": [[w.value for w in hand] for hand in state.hands],
            "undealt": [w.value for w in state.undealt],
            "wild_cards": [[None if w is None else w.value for w in held] for held in state.wilds],
            "decisions": {
                str(s): legal_actions(state, s)
                for s in range(state.players)
                if legal_actions(state, s) is not None
            },
        }
    )
    return view
