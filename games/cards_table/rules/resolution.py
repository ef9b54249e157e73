"""The close of a round (every method that scores that round) and the end of the Main Match."""

from __future__ import annotations

from dataclasses import replace

from games.platform.kit import Announce, Ledger, Reveal, RulesError, threshold_award

from .cards import ROUNDS, Action, cell_name, index
from .play import card_at, flip_penalty, missing_action, pending_heat_judgements, scoring_cell
from .scoring import (
    board_guess_winners,
    capped,
    colour_bonus,
    crowd_values,
    nullify_points,
    scoring_card_points,
    top_seats,
    unique_each_round,
    unmatched_over_all_rounds,
)
from .state import Final, Phase, Points, RoundRecord, State

BOARD_GUESS_METHODS = ("board_numbers", "board_colours")


def resolve_round(state: State) -> tuple[State, list]:
    """Close the current round: score it, publish the primary list (and after Round 2 the secondary list),
    tell players what the rules tell them, then open the next round or end the Main Match."""
    if state.phase is not Phase.PLAYING:
        raise RulesError("The game is over.", field="round")
    waiting = pending_heat_judgements(state)
    if waiting:
        raise RulesError(
            "Judge every heat indicator guess before closing the round (seats "
            + ", ".join(map(str, waiting))
            + ").",
            field="heat_guess",
        )
    rnd, events, scored = state.round, [], []
    scored += _scoring_cards_and_nullify(state, rnd)
    scored += _penalties(state, rnd)
    scored += _board_guesses(state, rnd)
    heat_points, heat_events = _heat_guesses(state, rnd)
    scored += heat_points
    events += heat_events
    guess_points, earners, guess_events = _top_guesses(state, rnd)
    scored += guess_points
    events += guess_events
    state = replace(state, points=state.points + tuple(scored))
    if rnd == ROUNDS:
        bonus = _top_bonus(state, earners)
        state = replace(state, points=state.points + tuple(bonus))
    primary = tuple(
        sum(p.delta for p in state.points if p.seat == s and p.round == rnd) for s in range(_n(state))
    )
    secondary = ()
    if rnd == 2:
        secondary = tuple(sum(p.delta for p in state.points if p.seat == s) for s in range(_n(state)))
    record = RoundRecord(rnd, primary, top_seats(primary), tuple(earners), secondary)
    state = replace(state, records=state.records + (record,))
    events.append(
        Announce(
            f"Round {rnd} is over. Primary list (points scored this round, anonymous): "
            + ", ".join(map(str, sorted(primary, reverse=True))),
            {"round": rnd, "primary_list": sorted(primary, reverse=True)},
        )
    )
    if secondary:
        events.append(
            Announce(
                "Secondary list (total points so far, anonymous): "
                + ", ".join(map(str, sorted(secondary, reverse=True))),
                {"round": rnd, "secondary_list": sorted(secondary, reverse=True)},
            )
        )
    if rnd < ROUNDS:
        state = replace(state, round=rnd + 1)
        events.append(Announce(f"Round {rnd + 1} begins.", {"round": rnd + 1}))
        return state, events
    state, end_events = _end_of_match(state)
    return state, events + end_events


def _n(state: State) -> int:
    return state.settings.players


def _scoring_cards_and_nullify(state: State, rnd: int) -> list[Points]:
    board = state.boards[rnd - 1]
    scoring = {}
    for seat in range(_n(state)):
        cell = scoring_cell(state.seat_round(seat, rnd))
        if cell is not None:
            scoring[seat] = (cell, board[index(*cell)].number)
    nullifiers = {
        seat: state.seat_round(seat, rnd).flips[1]
        for seat in range(_n(state))
        if state.seat_round(seat, rnd).action is Action.NULLIFY
    }
    nullified = set(nullifiers.values())
    found = [
        Points(
            seat,
            rnd,
            "scoring_card",
            value,
            cell_name(*scoring[seat][0]) + (" (nullified)" if scoring[seat][0] in nullified else ""),
        )
        for seat, value in scoring_card_points(scoring, nullified, state.settings.crowd_size).items()
    ]
    # What a denied player would have scored: the card's number, as the rules' examples count it, or its
    # value after the crowd penalty (a setting); a card worth nothing denies nobody anything.
    worth = (
        crowd_values(scoring, state.settings.crowd_size)
        if state.settings.denied_after_crowd
        else {seat: number for seat, (_, number) in scoring.items()}
    )
    for seat, target in nullifiers.items():
        denied = [
            worth[o] for o, (cell, _) in scoring.items() if o != seat and cell == target and worth[o] > 0
        ]
        found.append(Points(seat, rnd, "nullify", nullify_points(denied), f"{len(denied)} player(s) denied"))
    return found


def _penalties(state: State, rnd: int) -> list[Points]:
    found = []
    for seat in range(_n(state)):
        sr = state.seat_round(seat, rnd)
        if sr.undeclared:
            found.append(Points(seat, rnd, "undeclared_action", -1, f"{sr.action.value} used for you"))
        for k in range(3, len(sr.flips) + 1):
            found.append(Points(seat, rnd, "extra_flip", flip_penalty(state.settings, k), f"flip {k}"))
    return found


def _board_guesses(state: State, rnd: int) -> list[Points]:
    board = state.boards[rnd - 1]
    numbers, colours = {}, {}
    for seat in range(_n(state)):
        guess = state.seat_round(seat, rnd).board_guess
        if guess is not None:
            numbers[seat] = sum(g.number == card.number for g, card in zip(guess, board, strict=True))
            colours[seat] = sum(g.colour == card.colour for g, card in zip(guess, board, strict=True))
    found = []
    earned = {
        seat: sum(p.delta for p in state.points if p.seat == seat and p.method in BOARD_GUESS_METHODS)
        for seat in range(_n(state))
    }
    for method, right in (("board_numbers", numbers), ("board_colours", colours)):
        for seat in sorted(board_guess_winners(right, state.settings.board_guess_threshold)):
            # No more than board_guess_cap points from board guesses over the whole game.
            point = capped(1, earned[seat], state.settings.board_guess_cap)
            if point:
                earned[seat] += point
                found.append(Points(seat, rnd, method, point, f"{right[seat]} right"))
    return found


def _heat_guesses(state: State, rnd: int) -> tuple[list[Points], list]:
    found, events = [], []
    for seat, guess in enumerate(state.heat_guesses):
        if guess is None or guess.round != rnd:
            continue
        if guess.verdict:
            found.append(Points(seat, rnd, "heat_guess", 1))
            events.append(Reveal(seat, "Your heat indicator guess is correct: 1 point.", {"correct": True}))
        else:
            events.append(
                Reveal(
                    seat,
                    "Your heat indicator guess is incorrect; you cannot guess again.",
                    {"correct": False},
                )
            )
    return found, events


def _top_guesses(state: State, rnd: int) -> tuple[list[Points], list[int], list]:
    """Guesses made in this round of who topped the previous round's primary list."""
    if rnd == 1:
        return [], [], []
    top = state.records[rnd - 2].top
    found, earners, events = [], [], []
    for seat in range(_n(state)):
        guessed = state.seat_round(seat, rnd).top_guess
        if guessed is None:
            continue
        correct = guessed in top
        if correct and seat not in top:
            found.append(Points(seat, rnd, "top_guess", 1, f"guessed seat {guessed}"))
            earners.append(seat)
        # A top player learns whether the guess was right, but not that a point was withheld.
        text = "correct" if correct else "incorrect"
        events.append(
            Reveal(
                seat,
                f"Your guess of the top of Round {rnd - 1}'s primary list is {text}.",
                {"round": rnd - 1, "correct": correct},
            )
        )
    return found, earners, events


def _top_bonus(state: State, earners_round3: list[int]) -> list[Points]:
    """1 point at the end of Round 3 for topping Rounds 1 and 2 when nobody guessed right (either/both)."""
    first, second = state.records[0], state.records[1]
    unguessed = (not second.guess_earners, not earners_round3)
    if not (all(unguessed) if state.settings.top_bonus_needs_both else any(unguessed)):
        return []
    return [Points(seat, ROUNDS, "top_bonus", 1) for seat in first.top if seat in second.top]


def _end_bonuses(state: State) -> list[Points]:
    found = []
    n = _n(state)
    scoring = [[scoring_cell(state.seat_round(s, r)) for r in range(1, ROUNDS + 1)] for s in range(n)]
    flipped = [[frozenset(state.seat_round(s, r).flips) for r in range(1, ROUNDS + 1)] for s in range(n)]
    as_sets = [[frozenset([c]) if c else frozenset() for c in row] for row in scoring]
    for seat in range(n):
        if all(scoring[seat]):
            colours = [card_at(state, r, *scoring[seat][r - 1]).colour for r in range(1, ROUNDS + 1)]
            bonus = colour_bonus(colours)
            if bonus:
                found.append(Points(seat, 0, "scoring_colours", bonus, ", ".join(c.value for c in colours)))
        others_s = [as_sets[o] for o in range(n) if o != seat]
        others_f = [flipped[o] for o in range(n) if o != seat]
        test = unique_each_round if state.settings.unique_every_round else unmatched_over_all_rounds
        if test(as_sets[seat], others_s):
            found.append(Points(seat, 0, "unique_scoring_card", 1))
        if test(flipped[seat], others_f):
            found.append(Points(seat, 0, "unique_cards", 2))
    return found


def _end_of_match(state: State) -> tuple[State, list]:
    n, settings = _n(state), state.settings
    state = replace(state, points=state.points + tuple(_end_bonuses(state)))
    missing = []
    for seat in range(n):
        if missing_action(state, seat):
            total = sum(p.delta for p in state.points if p.seat == seat)
            missing.append(
                Points(
                    seat,
                    0,
                    "missing_action",
                    settings.missing_action_total - total,
                    "not every action used: total set to 3",
                )
            )
    state = replace(state, points=state.points + tuple(missing))
    totals = tuple(sum(p.delta for p in state.points if p.seat == s) for s in range(n))
    best = max(totals)
    winners = tuple(s for s in range(n) if totals[s] == best)
    tokens = tuple(sorted(threshold_award(dict(enumerate(totals)), settings.tokens_of_life_threshold)))
    garnets = tuple(sum(total >= mark for mark in settings.garnet_marks) for total in totals)
    card_sums = tuple(
        sum(
            card_at(state, r, *cell).number
            for r in range(1, ROUNDS + 1)
            for cell in state.seat_round(s, r).flips
        )
        for s in range(n)
    )
    fewest = min(totals)
    tied = [s for s in range(n) if totals[s] == fewest]
    lowest_sum = min(card_sums[s] for s in tied)
    candidates = tuple(s for s in tied if card_sums[s] == lowest_sum)
    loser = candidates[0] if len(candidates) == 1 else None
    final = Final(totals, winners, tokens, garnets, card_sums, candidates, loser)
    phase = Phase.ENDED if loser is not None else Phase.CHOOSING_LOSER
    state = replace(state, final=final, phase=phase)
    events: list = [
        Announce(
            "The Main Match is over. Points: " + ", ".join(f"seat {s}: {totals[s]}" for s in range(n)),
            {"totals": list(totals)},
        ),
        Announce(
            "Winner(s): "
            + ", ".join(f"seat {s}" for s in winners)
            + ". Tokens of Life: "
            + (", ".join(f"seat {s}" for s in tokens) or "nobody")
            + ".",
            {"winners": list(winners), "tokens_of_life": list(tokens)},
        ),
    ]
    for p in state.points:
        events.append(
            Ledger(
                p.seat,
                "points",
                p.delta,
                p.method + (f": {p.note}" if p.note else ""),
                f"round {p.round}" if p.round else "end",
            )
        )
    for seat in range(n):
        if garnets[seat]:
            events.append(
                Ledger(seat, "garnets", garnets[seat], f"{totals[seat]} points in Cards on the Table")
            )
        if seat in tokens:
            events.append(Ledger(seat, "tokens_of_life", 1, "Cards on the Table, Threshold 5"))
    if loser is not None:
        events.append(_loser_announcement(loser, "fewest points" if len(tied) == 1 else "lowest card sum"))
    else:
        events.append(
            Announce(
                "Still tied for the fewest points and card sum: "
                + ", ".join(f"seat {s}" for s in candidates)
                + ". The winner(s) choose the elimination candidate.",
                {"loser_candidates": list(candidates)},
            )
        )
    return state, events


def _loser_announcement(loser: int, why: str) -> Announce:
    return Announce(
        f"Seat {loser} is the loser and elimination candidate ({why}).",
        {"elimination_candidate": loser, "reason": why},
    )


def submit_loser_choice(state: State, seat: int, chosen: int) -> tuple[State, list]:
    """A winner names the elimination candidate among the tied players; the first winner's choice stands."""
    if state.phase is not Phase.CHOOSING_LOSER or state.final is None:
        raise RulesError("There is no elimination candidate to choose.", field="loser")
    if seat not in state.final.winners:
        raise RulesError("Only the winner(s) choose the elimination candidate.", field="loser")
    if chosen not in state.final.loser_candidates:
        raise RulesError("Choose one of the tied players.", field="loser")
    state = replace(state, final=replace(state.final, loser=chosen), phase=Phase.ENDED)
    return state, [_loser_announcement(chosen, f"chosen by the winner, seat {seat}")]
