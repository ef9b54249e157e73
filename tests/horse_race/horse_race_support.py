"""Shared by the Horse Race rules tests: a hand-made movement table worked out by hand, and helpers."""

from __future__ import annotations

import random

from games.horse_race.rules import HORSES, State, initial_state, resolve_round
from games.horse_race.rules.ability_inputs import ABILITIES
from games.horse_race.rules.state import bet_limit
from games.horse_race.rules.submission import chips_gained_now, horse_space_now, limit_raise

# Rounds 1-10. Spaces at the end of each round, worked out by hand (start on space 1):
# A 4 7 10 13 16(exits R5)         B 4 7 10 13 16(exits R5)   -> tie in R5 on distance: A 1st, B 2nd
# C 4 7 10 13 14 17(exits R6)      D 4 7 10 13 15 18(exits R6) -> D further past the line: D 3rd, C 4th
# E 3 5 7 9 11 13 15 17(exits R8)  -> 5th
# F 2 3 4 5 6 7 8 9 10 11          G 2 3 4 5 6 7 8 9 10 12    H as G
# I 3 4 6 9 10 11 12 13 14 15      -> on the track after R10: I (15) 6th, G 7th, H 8th (12, by letter), F 9th
TABLE = {
    "A": [3, 3, 3, 3, 3, 1, 1, 1, 1, 1],
    "B": [3, 3, 3, 3, 3, 2, 2, 2, 2, 2],
    "C": [3, 3, 3, 3, 1, 3, 2, 2, 2, 2],
    "D": [3, 3, 3, 3, 2, 3, 1, 2, 3, 1],
    "E": [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    "F": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    "G": [1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
    "H": [1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
    "I": [2, 1, 2, 3, 1, 1, 1, 1, 1, 1],
}
FINAL = {"A": 1, "B": 2, "D": 3, "C": 4, "E": 5, "I": 6, "G": 7, "H": 8, "F": 9}


def table() -> dict[str, list[int]]:
    return {h: list(v) for h, v in TABLE.items()}


def at_round(round_number: int, seats: int = 9, **hands) -> State:
    """A hand-made state with `round_number` open (the horses moved through the round before); hands are
    given as seat0={"A": 2, ...} to replace the starting hand of one card of each horse."""
    state = initial_state(table(), seats)
    state.round = round_number
    for name, hand in hands.items():
        state.players[int(name.removeprefix("seat"))].hand = {h: hand.get(h, 0) for h in HORSES}
    return state


def play(state: State, submissions: dict | None = None):
    return resolve_round(state, submissions or {})


def texts(events, seat=None, kind=None) -> list[str]:
    found = []
    for event in events:
        if kind is not None and type(event).__name__ != kind:
            continue
        if seat is not None and getattr(event, "seat", None) != seat:
            continue
        if hasattr(event, "text"):
            found.append(event.text)
    return found


def random_ability(round_number: int, hand: dict[str, int], rng: random.Random) -> dict | None:
    """A legal ability for this hand, chosen at random (or none)."""
    held = [h for h in HORSES if hand[h] > 0]
    if not held or rng.random() < 0.15:
        return None
    kind = rng.choice(["clue", "utility"])
    assert (round_number, kind) in ABILITIES

    def some(max_per: int | None = None) -> dict[str, int]:
        counts = {}
        for horse in held:
            top = hand[horse] if max_per is None else min(hand[horse], max_per)
            copies = rng.randint(0, top)
            if copies:
                counts[horse] = copies
        return counts or {rng.choice(held): 1}

    key = (round_number, kind)
    if key == (0, "utility"):
        return {"kind": kind, "select": rng.choice(held)}
    if key == (1, "clue"):
        chosen = rng.sample(held, rng.randint(1, len(held)))
        return {"kind": kind, "select": chosen, "use": {rng.choice(chosen): 1}}
    if key == (1, "utility"):
        use = some(1)
        return {"kind": kind, "use": use, "gain": rng.sample(HORSES, sum(use.values()))}
    if key == (3, "utility"):
        return {"kind": kind, "select": rng.sample(held, rng.randint(1, min(3, len(held))))}
    if key == (4, "utility"):
        horse = rng.choice(held)
        return {"kind": kind, "select": {horse: rng.randint(1, hand[horse])}}
    if key == (5, "utility"):
        chosen = rng.sample(held, rng.randint(1, len(held)))
        return {
            "kind": kind,
            "guesses": {
                h: [rng.randint(0, 8) for _ in range(rng.randint(1, min(2, hand[h])))] for h in chosen
            },
        }
    if key == (7, "utility"):
        return {"kind": kind, "use": some(1), "gain": rng.choice(HORSES)}
    if key == (8, "clue"):
        use = some()
        pool = [h for h, n in use.items() for _ in range(n)]
        select: dict[str, int] = {}
        for horse in rng.sample(pool, len(pool) // 2):
            select[horse] = select.get(horse, 0) + 1
        return {"kind": kind, "use": use, "select": select}
    if key == (8, "utility"):
        return {"kind": kind, "use": some(1)}
    if key == (9, "utility"):
        horse = rng.choice(held)
        return {"kind": kind, "use": {horse: rng.randint(1, hand[horse])}}
    return {"kind": kind, "use": some()}


def random_submission(state: State, seat: int, rng: random.Random) -> dict:
    """A legal submission for the open round, at random: ability, space and bets within every limit."""
    player = state.players[seat]
    ability = random_ability(state.round, player.hand, rng)
    if state.round == 0:
        return {"ability": ability}
    space = rng.choice([None, *range(1, 16)])
    bets: dict[str, int] = {}
    if player.current_space is not None:
        here = [h for h in HORSES if horse_space_now(state, h) == player.current_space]
        clean = None if ability is None else {"kind": ability["kind"], **ability}
        room = min(
            bet_limit(state, seat, limit_raise(state.round, clean)),
            player.chips + chips_gained_now(state.round, clean),
        )
        for _ in range(rng.randint(0, room)):
            if here:
                horse = rng.choice(here)
                bets[horse] = bets.get(horse, 0) + 1
    return {"ability": ability, "space": space, "bets": bets}
