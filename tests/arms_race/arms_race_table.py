"""A table set by hand for the Arms Race rules tests: a known deal, a chosen order, wounds placed at will."""

from __future__ import annotations

import random
from dataclasses import replace

from games.arms_race.rules import DECK, WEAPONS, Settings, State, Weapon, new_game

# The deck in its printed order, nine cards a seat:
# seat 0: 8 Dagger + 1 Bat      seat 1: 7 Bat + 2 Whip       seat 2: 6 Whip + 3 Katana
# seat 3: 5 Katana + 4 Crossbow seat 4: 4 Crossbow + 5 Taser seat 5: 3 Taser + 6 Pistol
# seat 6: 2 Pistol + 7 Flamethrower; one Flamethrower is left undealt.
ORDERED_DEAL = [[w.value for w in DECK[i * 9 : (i + 1) * 9]] for i in range(7)]


def table(settings: Settings | None = None, order: tuple[int, ...] = tuple(range(7)), seed: int = 7) -> State:
    state, _ = new_game(random.Random(seed), settings, deal=ORDERED_DEAL)
    return replace(state, order=order, turn=0)


def with_wounds(state: State, seat: int, weapon: Weapon, count: int) -> State:
    wounds = list(state.wounds)
    wounds[seat] = tuple(count if w == weapon else c for w, c in zip(WEAPONS, wounds[seat], strict=True))
    return replace(state, wounds=tuple(wounds))


def texts(events) -> list[str]:
    return [e.text for e in events]
