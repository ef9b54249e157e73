"""The end of a round: submissions settled, bets placed, cards used, horses moved, abilities answered."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from games.platform.kit import Announce, Ledger, Reveal, RulesError

from .ability_inputs import cards_used
from .ability_results import ability_result, report_text
from .ending import finish
from .settings import HORSES, ROUNDS
from .state import State
from .submission import Settled, chips_gained_now, limit_raise, settle_submission, spectating_open
from .track import exit_round, final_placements, horses_on, move
from .words import listing, ordinal, plural, seat_name

Event = Announce | Reveal | Ledger


def resolve_round(state: State, submissions: Mapping[int, object]) -> tuple[State, list[Event]]:
    """Resolve the open round from every seat's saved submission (a missing seat submitted nothing)."""
    if state.over:
        raise RulesError("The race is over; there is no round to resolve.", field="round")
    for seat in submissions:
        if type(seat) is not int or not 0 <= seat < len(state.players):
            raise RulesError(f"There is no seat {seat!r} in this game.", field="seat")
    # every submission is settled against the state as the round closes, before any of it takes effect
    settled = {
        seat: Settled()
        if submissions.get(seat) is None
        else settle_submission(state, seat, submissions[seat])
        for seat in range(len(state.players))
    }
    state = copy.deepcopy(state)
    events: list[Event] = []
    for seat, one in settled.items():
        if one.notes:
            events.append(Reveal(seat, f"Round {state.round}: " + " ".join(one.notes), {"notes": one.notes}))
    _before_bets(state, settled, events)
    _place_bets(state, settled, events)
    _use_cards(state, settled, events)
    if state.round >= 1:
        _move_horses(state, events)
    _answer_abilities(state, settled, events)
    _send_reports(state, events)
    if spectating_open(state):
        _announce_spectating(state, events)
    if state.round < ROUNDS:
        state.round += 1
        _show_current_spaces(state, state.round - 1, events)
    else:
        if state.settings.final_spectate_scored:
            _show_current_spaces(state, ROUNDS, events)
        state.round = ROUNDS + 1
        events.extend(finish(state))
    return state, events


def _before_bets(state: State, settled: dict[int, Settled], events: list[Event]) -> None:
    """Round 2's and Round 8's Utility raise the limit "including the current one", and Round 9's chips
    "can be used to bet in the current round", so these take effect before the bets are placed."""
    for seat, one in settled.items():
        player = state.players[seat]
        if state.round in (2, 8):
            player.bet_bonus += limit_raise(state.round, one.ability)
        chips = chips_gained_now(state.round, one.ability)
        if chips:
            player.chips += chips
            events.append(Ledger(seat, "chips", chips, "Round 9 utility"))


def _place_bets(state: State, settled: dict[int, Settled], events: list[Event]) -> None:
    for seat, one in settled.items():
        player = state.players[seat]
        player.bets[state.round] = dict(one.bets)
        player.spectated[state.round] = one.space
        total = sum(one.bets.values())
        if total:
            player.chips -= total
            placed = ", ".join(f"{chips} on {horse}" for horse, chips in one.bets.items())
            events.append(Ledger(seat, "chips", -total, f"Round {state.round} bets: {placed}"))


def _use_cards(state: State, settled: dict[int, Settled], events: list[Event]) -> None:
    for seat, one in settled.items():
        if one.ability is None:
            continue
        hand = state.players[seat].hand
        for horse, copies in cards_used(state.round, one.ability).items():
            hand[horse] -= copies
            events.append(Ledger(seat, "cards", -copies, f"Round {state.round} {one.ability['kind']}", horse))


def _move_horses(state: State, events: list[Event]) -> None:
    """The open round's movement; each horse that exits is announced with its placement and the movement
    values it would have had in every later round."""
    length = state.settings.track_length
    placements = final_placements(state.movement, length)
    leaving = [h for h in HORSES if exit_round(state.movement, h, length) == state.round]
    for horse in sorted(leaving, key=placements.get):
        later = range(state.round + 1, ROUNDS + 1)
        future = {str(r): move(state.movement, horse, r) for r in later}
        place = ordinal(placements[horse])
        text = f"Horse {horse} has finished the race in Round {state.round}, placing {place}."
        if future:
            text += f" Its movement values for Rounds {state.round + 1}-{ROUNDS}: "
            text += ", ".join(str(v) for v in future.values()) + "."
        data = {
            "horse": horse,
            "round": state.round,
            "placement": placements[horse],
            "future_movement": future,
        }
        events.append(Announce(text, data))


def _answer_abilities(state: State, settled: dict[int, Settled], events: list[Event]) -> None:
    bets = [player.bets[state.round] for player in state.players]
    for seat, one in settled.items():
        if one.ability is None:
            continue
        result = ability_result(state, seat, one.ability, bets)
        player = state.players[seat]
        events.append(
            Reveal(seat, result.text, {"round": state.round, "kind": one.ability["kind"], **result.data})
        )
        for horse, copies in result.gains.items():
            player.hand[horse] += copies
            events.append(Ledger(seat, "cards", copies, f"Round {state.round} {one.ability['kind']}", horse))
        if result.points:
            player.utility_points += result.points
            events.append(Ledger(seat, "points", result.points, f"Round {state.round} utility"))
        if result.report is not None:
            state.reports.append(result.report)


def _send_reports(state: State, events: list[Event]) -> None:
    """Round 3's Utility reports at the ends of Rounds 3, 4 and 5; the state remembers the pending ones."""
    bets = [player.bets[state.round] for player in state.players]
    for report in state.reports:
        if state.round in report.rounds:
            text, data = report_text(state, report, bets)
            events.append(Reveal(report.seat, text, data))
            report.rounds.remove(state.round)
    state.reports = [report for report in state.reports if report.rounds]


def _announce_spectating(state: State, events: list[Event]) -> None:
    chosen = {seat: player.spectated[state.round] for seat, player in enumerate(state.players)}
    parts = [
        f"{seat_name(s)} space {space}" if space else f"{seat_name(s)} none" for s, space in chosen.items()
    ]
    events.append(
        Announce(
            f"Round {state.round} spectating: {listing(parts)}.",
            {"round": state.round, "spectated": {str(s): space for s, space in chosen.items()}},
        )
    )


def _show_current_spaces(state: State, spectated_round: int, events: list[Event]) -> None:
    """The beginning of the next round: each seat learns what is on the space it spectated, which becomes
    its current space, and scores 1 point per horse there."""
    length = state.settings.track_length
    for seat, player in enumerate(state.players):
        space = player.spectated[spectated_round]
        player.current_space = space if spectated_round < ROUNDS else None
        if space is None:
            continue
        horses = horses_on(state.movement, space, spectated_round, length)
        when = f"Round {spectated_round + 1} begins" if spectated_round < ROUNDS else "The race is over"
        text = (
            f"{when}: on space {space}, which you spectated in Round {spectated_round}, "
            f"{'are horses ' + listing(horses) if horses else 'there are no horses'}. "
            f"You score {plural(len(horses), 'point')}."
        )
        events.append(Reveal(seat, text, {"round": spectated_round, "space": space, "horses": horses}))
        if horses:
            player.spectate_points += len(horses)
            events.append(
                Ledger(seat, "points", len(horses), f"Horses on space {space} after Round {spectated_round}")
            )
