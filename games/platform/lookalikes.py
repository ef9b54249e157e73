"""Names that could pass for someone else's: the rules every new display name and username meets.

A name is shown on every page the player is in, and players trust it: `plaуer2` (a Cyrillic у), `player2`
with a zero-width space, a name that turns the text right to left, all read as `player2` (issue 28). So:

- a name is kept in NFKC form (fullwidth `ｐｌａｙｅｒ２` is `player2`), spaces collapsed;
- invisible characters (format and control characters, zero-width spaces and joiners, direction marks
  and overrides, fillers that draw nothing) are refused, naming the first one;
- a name whose confusables skeleton (Unicode TR39, computed by ICU's spoof checker through PyICU) equals the
  skeleton of another person's display name or username, case aside, is refused: `pIayer2`, `рlayer2`
  and `PLAYER2` all meet `player2`.

Names chosen before these rules are left as they are; they are checked against, and a person keeps theirs
when they save their profile without changing it.
"""

from __future__ import annotations

import re
import unicodedata

import icu

# Drawn as nothing (or as a blank) though their category says "letter" or "mark": fillers and selectors.
BLANK = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0}
BLANK_RANGES = [(0x180B, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF)]
# Control, format (zero-width, direction), private, unassigned and line/paragraph separators.
HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}

_checker = icu.SpoofChecker()


def normalized(name: str) -> str:
    """The form a name is kept in: NFKC, with each run of spaces one space, none at either end."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip()


def name_problem(name: str, others, what: str = "A display name") -> str | None:
    """Why `name` cannot be taken, in a player's words, if it cannot: it hides characters, or it could be
    mistaken for one of `others` (every other person's display name and username)."""
    hidden = hidden_character(name) or hidden_character(unicodedata.normalize("NFKC", name))
    if hidden:
        return f"{what} cannot hold invisible characters or ones that turn the text around ({hidden})."
    others = [other for other in others if other]
    if normalized(name).casefold() in {normalized(other).casefold() for other in others}:
        return "Another player already goes by that name."
    if looks_like(name, others):
        return "That looks too much like another player's name: pick one nobody could mistake for theirs."
    return None


def hidden_character(name: str) -> str | None:
    """The first character of `name` that shows nothing (or turns the text around), as "U+200B ZERO WIDTH
    SPACE", if there is one."""
    for char in name:
        point = ord(char)
        hidden = unicodedata.category(char) in HIDDEN_CATEGORIES or point in BLANK
        if hidden or any(low <= point <= high for low, high in BLANK_RANGES):
            return f"U+{point:04X} {unicodedata.name(char, 'UNNAMED')}"
    return None


def skeleton(name: str) -> str:
    """What `name` looks like, case aside: two names with the same skeleton can be mistaken for each other."""
    shape = _checker.getSkeleton(0, normalized(name))
    return _checker.getSkeleton(0, shape.casefold())


def looks_like(name: str, others) -> bool:
    """Whether `name` could be mistaken for any of `others`."""
    mine = skeleton(name)
    return any(skeleton(other) == mine for other in others)
