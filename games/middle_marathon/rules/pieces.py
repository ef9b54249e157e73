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


# Where the two words of a name may be split: "Force B", "Swap(r)", "Reflect - blue".
SEPARATORS = str.maketrans("", "", " \t()[]{}-_,./:")
# "please specify both the name of the piece (first letter is fine) and the color of it (first letter is
# fine)": each word whole or by its first letter, in any case.
KIND_WORDS = {spelling: letter for letter, word in KINDS.items() for spelling in (letter, word.upper())}
COLOUR_WORDS = {
    spelling: word for word in ("blue", "red", "purple") for spelling in (word[0].upper(), word.upper())
}


def read_words(compact: str) -> tuple[str | None, str | None]:
    """The kind letter and the colour a name gives, either first: "FORCEB" and "BF" are Force, blue."""
    if compact in KIND_WORDS:
        return KIND_WORDS[compact], None  # "R" alone reads as Reflect: a colour alone names nothing
    if compact in COLOUR_WORDS:
        return None, COLOUR_WORDS[compact]
    for kind_word, letter in KIND_WORDS.items():
        for colour_word, word in COLOUR_WORDS.items():
            if compact in (kind_word + colour_word, colour_word + kind_word):
                return letter, word
    return None, None


def parse_piece(text: object, field: str = "piece") -> str:
    """Read a piece the way the addendum asks players to name one: kind and colour, first letters fine."""
    if not isinstance(text, str):
        raise RulesError("Name a piece by its kind and colour, e.g. FB for Force (blue).", field=field)
    letter, word = read_words(text.upper().translate(SEPARATORS))
    if letter == NEUTRAL and word in (None, "purple"):
        return NEUTRAL  # the only purple piece needs no colour to be told apart
    if letter == NEUTRAL:
        raise RulesError("Movement is the neutral piece, purple: write M.", field=field)
    if letter is not None and word is None:
        kind_name = KINDS[letter]
        raise RulesError(
            f"Name the colour too: {letter}B is {kind_name} (blue), {letter}R is {kind_name} (red).",
            field=field,
        )
    if letter is not None and word == "purple":
        raise RulesError(f"There is no purple {KINDS[letter]}: it is blue or red.", field=field)
    if letter is not None:
        return letter + word[0].upper()
    if word is not None:
        raise RulesError("Name the kind of piece too, e.g. FB for Force (blue).", field=field)
    raise RulesError(
        f"There is no piece called {text!r}. Name its kind and its colour, first letters fine: "
        "FB, Force B, Blue Force or Swap (r); M for the purple Movement.",
        field=field,
    )
