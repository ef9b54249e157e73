"""The hidden data hosts seed: the boards as they type them (one short code per card, "2R" is a red 2), heat
overrides as text, or the boards drawn from the game's seed."""

from __future__ import annotations

import random
import re

from games.platform.kit import RulesError

from .rules import Boards, Card, Colour, HeatIndicator, Shade, generate_boards

CODE = re.compile(r"^\s*([123])\s*([RBY])\s*$", re.IGNORECASE)
LETTER = {"R": Colour.RED, "B": Colour.BLUE, "Y": Colour.YELLOW}
SHADE = {"W": Shade.WHITE, "G": Shade.GREY, "B": Shade.BLACK}
OVERRIDE = re.compile(r"^\s*R?([123])\s+R([1-5])C([1-5])\s+([WGB]{5})\s*$", re.IGNORECASE)
OVERRIDE_HELP = (
    "One card per line: round, card, then five letters W (white), G (grey) or B (black) for the top, right, "
    "bottom and left triangles and the background. Example: 2 R3C4 BWGGB"
)


def card_from_code(code: str) -> Card:
    match = CODE.match(code) if isinstance(code, str) else None
    if match is None:
        raise RulesError("Type a number 1-3 and a colour letter R, B or Y, like 2R.", field="card")
    return Card(int(match.group(1)), LETTER[match.group(2).upper()])


def code_of(card: Card) -> str:
    return f"{card.number}{card.colour.value[0].upper()}"


def boards_from_codes(codes: list) -> Boards | None:
    """The three boards from 3 x 25 codes, or None while any card is missing or unreadable."""
    if not isinstance(codes, list) or len(codes) != 3 or any(len(board or []) != 25 for board in codes):
        return None
    try:
        return tuple(tuple(card_from_code(code) for code in board) for board in codes)
    except RulesError:
        return None


def codes_problem(codes) -> str | None:
    """What is wrong with the shape of boards a host sent (three lists of up to 25 short texts); None when
    they can be stored. A missing card (a blank code) is not wrong yet: it blocks the start, and says so."""
    if not (isinstance(codes, list) and len(codes) == 3 and all(isinstance(b, list) for b in codes)):
        return 'Send {"boards": [three lists of 25 codes like "2R"], "heat_rule": ...}.'
    for number, board in enumerate(codes, start=1):
        if len(board) > 25:
            return f"Board {number} has {len(board)} cards; a board has 25."
        for index, code in enumerate(board):
            if not isinstance(code, str) or len(code) > 8:
                where = f"Board {number}, R{index // 5 + 1}C{index % 5 + 1}"
                return f'{where}: a card is a code like "2R" (a number 1-3 and R, B or Y), not {code!r:.40}.'
    return None


SIDES = ("top", "right", "bottom", "left", "background")


def overrides_problem(rows) -> str | None:
    """What is wrong with heat overrides sent as rows ({"round", "row", "col", and the five sides}); None
    when every row is one the start can apply."""
    if not isinstance(rows, list):
        return (
            "heat_overrides is a list of rows like "
            + '{"round": 2, "row": 3, "col": 4, "top": "black", ...}.'
        )
    shades = {shade.value for shade in Shade}
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or set(row) != {"round", "row", "col", *SIDES}:
            return f"Override {number} needs exactly round, row, col, {', '.join(SIDES)}."
        for key, most in (("round", 3), ("row", 5), ("col", 5)):
            if type(row[key]) is not int or not 1 <= row[key] <= most:
                return f"Override {number}: {key} must be a whole number from 1 to {most}."
        for side in SIDES:
            if row[side] not in shades:
                return f"Override {number}: {side} must be one of {', '.join(sorted(shades))}."
    return None


def codes_of(boards: Boards) -> list[list[str]]:
    return [[code_of(card) for card in board] for board in boards]


def parse_overrides(text: str) -> list[dict]:
    """Lines like "2 R3C4 BWGGB" into override rows; a RulesError names the first line that is wrong."""
    rows = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        match = OVERRIDE.match(line)
        if match is None:
            raise RulesError(f"Line {number} ({line.strip()!r}) is not like 2 R3C4 BWGGB.", field="overrides")
        shades = [SHADE[s].value for s in match.group(4).upper()]
        rows.append(
            {
                "round": int(match.group(1)),
                "row": int(match.group(2)),
                "col": int(match.group(3)),
                **dict(zip(("top", "right", "bottom", "left", "background"), shades, strict=True)),
            }
        )
    return rows


def overrides_text(rows: list[dict]) -> str:
    letters = {shade.value: letter for letter, shade in SHADE.items()}
    return "\n".join(
        f"{r['round']} R{r['row']}C{r['col']} "
        + "".join(letters[r[side]] for side in ("top", "right", "bottom", "left", "background"))
        for r in rows
    )


def indicator_of(row: dict) -> HeatIndicator:
    return HeatIndicator(
        **{side: Shade(row[side]) for side in ("top", "right", "bottom", "left", "background")}
    )


def boards_from_seed(game) -> list[list[str]]:
    """The three boards the game's seed draws (the hosts' one-click set, and the demo's)."""
    diagonal = bool((game.settings.get("rules") or {}).get("diagonal_adjacency", False))
    return codes_of(generate_boards(random.Random(game.seed), diagonal))
