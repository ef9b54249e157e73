"""What each viewer may see: the public, one seat (its own hand, chips and bets), and the hosts (all)."""

from __future__ import annotations

import copy

from .ability_inputs import ABILITIES
from .ending import pending_decisions
from .exchange import purchase_cost
from .settings import HORSES, ROUNDS
from .state import State, bet_limit, check_seat
from .submission import spectating_open
from .track import exit_round, final_placements, horses_on, move, spaces_after


def _moved_through(state: State) -> int:
    """The last round whose movement has happened."""
    return min(state.round - 1, ROUNDS) if state.round > 0 else 0


def public_view(state: State) -> dict:
    """Everything announced: exits with placements and later movement, who spectated what; at the end the
    movement table, the final placements, the scoreboard, the Tokens of Life and the Elimination Candidate."""
    length = state.settings.track_length
    done = _moved_through(state)
    placements = final_placements(state.movement, length)
    exits = []
    for horse in HORSES:
        when = exit_round(state.movement, horse, length)
        if when is not None and when <= done:
            later = {str(r): move(state.movement, horse, r) for r in range(when + 1, ROUNDS + 1)}
            exits.append(
                {"horse": horse, "round": when, "placement": placements[horse], "future_movement": later}
            )
    exits.sort(key=lambda e: e["placement"])
    spectating = {
        str(r): [player.spectated[r] for player in state.players]
        for r in range(0 if state.settings.round0_spectating else 1, min(state.round, ROUNDS + 1))
    }
    view = {
        "game": "horse_race",
        "round": state.round,
        "over": state.over,
        "seats": len(state.players),
        "horses": list(HORSES),
        "track_length": length,
        "spectating_open": spectating_open(state) if not state.over else False,
        "exits": exits,
        "spectating": spectating,
        "settings": state.settings.to_json(),
    }
    if state.over:
        ending = state.ending
        view.update(
            movement=copy.deepcopy(state.movement),
            placements=placements,
            scores=list(ending.scores),
            bet_points=list(ending.bet_points),
            garnets=list(ending.garnets),
            tokens_of_life_won=list(ending.tols_won),
            tokens_of_life_given=list(ending.tols_given),
            elimination_candidate=ending.elimination_candidate,
            ec_candidates=list(ending.ec_candidates),
            ec_voters=list(ending.ec_voters),
            pending=pending_decisions(state),
        )
    return view


def _player(state: State, seat: int) -> dict:
    player = state.players[seat]
    current = player.current_space
    seen = None
    if current is not None and not state.over:
        seen = horses_on(state.movement, current, _moved_through(state), state.settings.track_length)
    return {
        "seat": seat,
        "hand": dict(player.hand),
        "chips": player.chips,
        "bet_limit": bet_limit(state, seat),
        "bet_bonus": player.bet_bonus,
        "current_space": current,
        "horses_in_current_space": seen,
        "spectated": list(player.spectated),
        "bets": [dict(b) for b in player.bets],
        "spectate_points": player.spectate_points,
        "utility_points": player.utility_points,
        "purchases": player.purchases,
        "next_purchase_cost": purchase_cost(state, seat),
        "pending_reports": [
            {"horses": list(r.horses), "rounds": list(r.rounds)} for r in state.reports if r.seat == seat
        ],
    }


def abilities_now(state: State) -> dict:
    """The open round's two abilities: the rules' words and the inputs each takes (for the form)."""
    if state.over:
        return {}
    return {
        kind: {"text": ABILITIES[(state.round, kind)][0], "inputs": dict(ABILITIES[(state.round, kind)][1])}
        for kind in ("clue", "utility")
    }


def seat_view(state: State, seat: int) -> dict:
    """The public view plus this seat's own hand, chips, limit, current space, bets, points and decisions."""
    check_seat(state, seat)
    view = public_view(state)
    view["you"] = _player(state, seat)
    view["abilities"] = abilities_now(state)
    view["your_decisions"] = [
        d
        for d in pending_decisions(state)
        if d.get("seat") == seat or (d["kind"] == "ec_vote" and seat in d["voters"])
    ]
    if state.ending is not None:
        view["your_vote"] = state.ending.votes[seat]
    return view


def full_view(state: State) -> dict:
    """Everything, for hosts and after the game: the movement table, positions and every seat."""
    view = public_view(state)
    view.update(
        movement=copy.deepcopy(state.movement),
        placements=final_placements(state.movement, state.settings.track_length),
        spaces=spaces_after(state.movement, _moved_through(state), state.settings.track_length),
        players=[_player(state, seat) for seat in range(len(state.players))],
        reports=[{"seat": r.seat, "horses": list(r.horses), "rounds": list(r.rounds)} for r in state.reports],
        abilities=abilities_now(state),
        pending=pending_decisions(state),
    )
    if state.ending is not None:
        view["votes"] = list(state.ending.votes)
        view["choice"] = state.ending.choice
        view["chooser"] = state.ending.chooser
    return view
