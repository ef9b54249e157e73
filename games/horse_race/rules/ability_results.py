"""What each round's Clue and Utility give the player at the end of the round (gains, points, words)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .settings import HORSES, ROUNDS
from .state import Report, State
from .track import horses_ahead, move, space_after, standings
from .words import cards, listing, ordinal, plural, seat_name


@dataclass
class Result:
    text: str
    data: dict
    gains: dict[str, int] = field(default_factory=dict)
    points: int = 0
    report: Report | None = None


def _moves(state: State, horse: str, rounds: range) -> str:
    values = [f"{move(state.movement, horse, r)} in Round {r}" for r in rounds]
    return f"{horse} moves {listing(values)}"


def _moves_data(state: State, horse: str, rounds: range) -> dict[str, int]:
    return {str(r): move(state.movement, horse, r) for r in rounds}


def _where(state: State, horse: str, round_number: int) -> str:
    space = space_after(state.movement, horse, round_number, state.settings.track_length)
    if space > state.settings.track_length:
        return f"{horse} has finished (counted on space {space})"
    return f"{horse} is on space {space}"


def _values(state: State, ability: dict, first: int, last: int, label: str) -> Result:
    """Clues that reveal movement values of every used horse for a fixed span of rounds."""
    horses = list(ability["use"])
    rounds = range(first, last + 1)
    text = f"{label}: " + "; ".join(_moves(state, h, rounds) for h in horses) + "."
    return Result(text, {"movement": {h: _moves_data(state, h, rounds) for h in horses}})


def round0_clue(state, seat, ability, bets):
    return _values(state, ability, 1, 2, "Round 0 clue")


def round0_utility(state, seat, ability, bets):
    horse = ability["select"]
    return Result(f"Round 0 utility: you gain a copy of {horse}.", {"gain": {horse: 1}}, gains={horse: 1})


def round1_clue(state, seat, ability, bets):
    chosen = ability["select"]
    sums = {str(r): sum(move(state.movement, h, r) for h in chosen) for r in (2, 3, 4)}
    text = (
        f"Round 1 clue: the movement values of {listing(chosen)} add up to {sums['2']} in Round 2, "
        f"{sums['3']} in Round 3 and {sums['4']} in Round 4."
    )
    return Result(text, {"horses": chosen, "sums": sums})


def round1_utility(state, seat, ability, bets):
    gains = {h: 1 for h in ability["gain"]}
    return Result(f"Round 1 utility: you gain {cards(gains)}.", {"gain": gains}, gains=gains)


def round2_clue(state, seat, ability, bets):
    lists: dict[str, dict[str, list[str]]] = {}
    parts = []
    for horse in ability["use"]:
        lists[horse] = {}
        for r in (3, 4):
            mine = move(state.movement, horse, r)
            near = [h for h in HORSES if abs(move(state.movement, h, r) - mine) == 1]
            lists[horse][str(r)] = near
        parts.append(
            f"horses whose movement differs from {horse}'s by exactly 1 in Round 3: "
            f"{listing(lists[horse]['3'])}; in Round 4: {listing(lists[horse]['4'])}"
        )
    return Result("Round 2 clue: " + "; ".join(parts) + ".", {"lists": lists})


def _raise(round_number: int, by: int) -> Result:
    text = (
        f"Round {round_number} utility: the chips you can bet in a single round rise by {by}, "
        "from this round on."
    )
    return Result(text, {"limit_raise": by})


def round2_utility(state, seat, ability, bets):
    return _raise(2, sum(ability["use"].values()) // 2)


def round3_clue(state, seat, ability, bets):
    fourth = [_where(state, h, 4) for h in ability["use"]]
    twice = [h for h, copies in ability["use"].items() if copies >= 2]
    text = f"Round 3 clue: at the end of Round 4, {listing(fourth)}"
    if twice:
        text += f"; at the end of Round 5, {listing([_where(state, h, 5) for h in twice])}"
    length = state.settings.track_length
    data = {
        "4": {h: space_after(state.movement, h, 4, length) for h in ability["use"]},
        "5": {h: space_after(state.movement, h, 5, length) for h in twice},
    }
    return Result(text + ".", {"spaces": data})


def round3_utility(state, seat, ability, bets):
    horses = list(ability["select"])
    text = (
        f"Round 3 utility: at the ends of Rounds 3, 4 and 5 you will learn the chips bet on "
        f"{listing(horses)} in that round."
    )
    return Result(text, {"horses": horses}, report=Report(seat=seat, horses=horses, rounds=[3, 4, 5]))


def round4_clue(state, seat, ability, bets):
    same = {}
    for horse in ability["use"]:
        mine = move(state.movement, horse, 5)
        same[horse] = [h for h in HORSES if h != horse and move(state.movement, h, 5) == mine]
    parts = [f"horses moving the same as {h} in Round 5: {listing(others)}" for h, others in same.items()]
    return Result("Round 4 clue: " + "; ".join(parts) + ".", {"same": same})


def round4_utility(state, seat, ability, bets):
    horse, copies = next(iter(ability["select"].items()))
    text = f"Round 4 utility: your {plural(copies, f'selected {horse} card')} are duplicated."
    return Result(text, {"gain": {horse: copies}}, gains={horse: copies})


def round5_clue(state, seat, ability, bets):
    keep = state.settings.standings_keep_finish_order
    length = state.settings.track_length
    fifth, sixth = standings(state.movement, 5, length, keep), standings(state.movement, 6, length, keep)
    horses = list(ability["use"])
    parts = [
        f"{h} is {ordinal(fifth[h])} at the end of Round 5 and {ordinal(sixth[h])} at the end of Round 6"
        for h in horses
    ]
    data = {"5": {h: fifth[h] for h in horses}, "6": {h: sixth[h] for h in horses}}
    return Result("Round 5 clue: " + "; ".join(parts) + ".", {"placements": data})


def round5_utility(state, seat, ability, bets):
    gains: dict[str, int] = {}
    parts, outcomes = [], {}
    for horse, guesses in ability["guesses"].items():
        truth = horses_ahead(state.movement, horse, 5, state.settings.track_length)
        outcomes[horse] = [guess == truth for guess in guesses]
        for guess in guesses:
            right = guess == truth
            if right:
                gains[horse] = gains.get(horse, 0) + 3
            parts.append(f"{guess} ahead of {horse}: {'correct' if right else 'wrong'}")
    text = "Round 5 utility: " + "; ".join(parts) + "."
    if gains:
        text += f" You gain {cards(gains)}."
    return Result(text, {"correct": outcomes, "gain": gains}, gains=gains)


def round6_clue(state, seat, ability, bets):
    parts, data = [], {}
    for horse, copies in ability["use"].items():
        rounds = range(7, min(ROUNDS, 6 + copies) + 1)
        parts.append(_moves(state, horse, rounds))
        data[horse] = _moves_data(state, horse, rounds)
    return Result("Round 6 clue: " + "; ".join(parts) + ".", {"movement": data})


def who_bet(bets: list[dict[str, int]], horse: str) -> dict[int, int]:
    return {seat: placed[horse] for seat, placed in enumerate(bets) if placed.get(horse)}


def round6_utility(state, seat, ability, bets):
    paired = [h for h, copies in ability["use"].items() if copies >= 2]
    parts, data = [], {}
    for horse in paired:
        bettors = who_bet(bets, horse)
        data[horse] = {str(s): c for s, c in bettors.items()}
        named = [f"{seat_name(s)} bet {plural(c, 'chip')}" for s, c in bettors.items()]
        parts.append(f"on {horse}: {listing(named, 'nobody bet')}")
    text = (
        "Round 6 utility: bets this round " + "; ".join(parts) + "."
        if paired
        else ("Round 6 utility: you used no pair of identical cards, so you learn nothing.")
    )
    return Result(text, {"bets": data})


def round7_clue(state, seat, ability, bets):
    parts, data = [], {}
    history = state.players[seat].bets
    for horse in ability["use"]:
        chips = sum(history[r].get(horse, 0) for r in range(1, 8))
        rounds = range(8, min(ROUNDS, 7 + math.ceil(chips / 5)) + 1)
        data[horse] = _moves_data(state, horse, rounds)
        if rounds:
            parts.append(_moves(state, horse, rounds))
        else:
            parts.append(f"you bet no chips on {horse} in Rounds 1-7, so you learn nothing about it")
    return Result("Round 7 clue: " + "; ".join(parts) + ".", {"movement": data})


def round7_utility(state, seat, ability, bets):
    gains = {ability["gain"]: sum(ability["use"].values())}
    return Result(f"Round 7 utility: you gain {cards(gains)}.", {"gain": gains}, gains=gains)


def round8_clue(state, seat, ability, bets):
    chosen = list(ability["select"])
    if not chosen:
        return Result("Round 8 clue: you selected no cards, so you learn nothing.", {"movement": {}})
    return _values(state, {"use": {h: 1 for h in chosen}}, 9, 9, "Round 8 clue")


def round8_utility(state, seat, ability, bets):
    return _raise(8, sum(ability["use"].values()))


def round9_clue(state, seat, ability, bets):
    return _values(state, ability, 10, 10, "Round 9 clue")


def round9_utility(state, seat, ability, bets):
    chips = sum(ability["use"].values())
    text = f"Round 9 utility: you gained {plural(chips, 'chip')}, which you could bet this round."
    return Result(text, {"chips": chips})


def round10_clue(state, seat, ability, bets):
    triple = [h for h, copies in ability["use"].items() if copies >= 3]
    if not triple:
        return Result("Round 10 clue: you used no card 3 times, so you learn nothing.", {"movement": {}})
    return _values(state, {"use": {h: 3 for h in triple}}, 1, ROUNDS, "Round 10 clue")


def round10_utility(state, seat, ability, bets):
    cap = state.settings.round10_utility_cap
    per_type = {h: min(copies * copies, cap) for h, copies in ability["use"].items()}
    points = sum(per_type.values())
    parts = [f"{copies}x {h}: {per_type[h]}" for h, copies in ability["use"].items()]
    text = f"Round 10 utility: you gain {plural(points, 'point')} ({listing(parts)})."
    return Result(text, {"points": per_type}, points=points)


RESULTS = {
    (r, kind): globals()[f"round{r}_{kind}"] for r in range(ROUNDS + 1) for kind in ("clue", "utility")
}


def ability_result(state: State, seat: int, ability: dict, bets: list[dict[str, int]]) -> Result:
    """The end-of-round result of a settled ability; `bets` are every seat's bets of this round."""
    return RESULTS[(state.round, ability["kind"])](state, seat, ability, bets)


def report_text(state: State, report: Report, bets: list[dict[str, int]]) -> tuple[str, dict]:
    """Round 3's Utility at the end of the open round: the chips bet on each selected horse."""
    totals = {h: sum(placed.get(h, 0) for placed in bets) for h in report.horses}
    parts = [f"{plural(totals[h], 'chip')} on {h}" for h in report.horses]
    text = f"Round 3 utility, end of Round {state.round}: bets this round: {listing(parts)}."
    return text, {"round": state.round, "totals": totals}
