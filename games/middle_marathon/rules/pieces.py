"""The nine pieces of Middle Marathon: their names, their colours and who owns each."""

from __future__ import annotations

from games.platform.kit import RulesError

# Seat 0 plays Blue and seat 1 plays Red (the addendum: the DMO's chosen first player "will be Blue" is the
# default first_player=0; the host may still pick seat 1 to start).
SEAT_COLOURS = ("blue", "red")
KINDS = {"F": "Force", "G": "Gravity", "R": "Reflect", "S": "Swap", "M": "Movement"}
NEUTRAL = "M"
# The order pieces are listed in everywhere; it also breaks ties that cannot change anyone's score.
PIECES = ("FB", "GB", "RB", "SB", "FR", "GR", "RR", "SR", NEUTRAL)


def owner(piece: str) -> int | None:
    """The seat owning a piece; None for the purple Movement piece."""
    if piece == NEUTRAL:
        return None
    return 0 if piece[1] == "B" else 1


def kind(piece: str) -> str:
    """F, G, R, S or M."""
    return piece[0]


def colour(piece: str) -> str:
    seat = owner(piece)
    return "purple" if seat is None else SEAT_COLOURS[seat]


def name(piece: str) -> str:
    """How a player writes the piece: "Force (blue)"."""
    return f"{KINDS[kind(piece)]} ({colour(piece)})"


def seat_name(seat: int) -> str:
    return SEAT_COLOURS[seat].capitalize()


def parse_piece(text: object, field: str = "piece") -> str:
    """Read a piece the way the addendum asks players to name one: kind and colour, first letters fine."""
    if not isinstance(text, str):
        raise RulesError("Name a piece by its kind and colour, e.g. FB for Force (blue).", field=field)
    compact = "".join(text.upper().split()).replace("(", "").replace(")", "")
    for piece in PIECES:
        full = (KINDS[kind(piece)] + colour(piece)).upper()
        if compact in (piece, full) or (piece == NEUTRAL and compact in ("MP", "MOVEMENT")):
            return piece
    raise RulesError(f"There is no piece called {text!r}; write e.g. FB for Force (blue) or M.", field=field)
