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
    match = CODE.match(code or "")
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
