"""The questions of a host-run game's round form: the one module that checks what a host defines and what a
player answers.

A field definition is a dict: {"key"?, "kind", "label", "help", "required", "minimum", "maximum", "options"}.
`options` may be a list or the admin's text, one option per line. What `minimum` and `maximum` mean depends
on the kind: a whole number's least and most value, a several-choices question's at least and at most, a
text's most characters (its minimum is unused). Host text is data: it is never evaluated nor used as a
format string.

Standard library only (and the platform's kit): the game's pages, its API and its rules all check with it,
so a player reads the same words wherever they answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, NamedTuple

from games.platform.kit import RulesError

KINDS = [
    ("short_text", "Short text"),
    ("long_text", "Long text"),
    ("number", "Whole number"),
    ("choice", "One choice from a list"),
    ("choices", "Several choices from a list"),
    ("player", "One of the game's players"),
    ("yes_no", "Yes or no"),
]
KIND_WORDS = dict(KINDS)
TEXT_KINDS = ("short_text", "long_text")
# The most characters a text answer takes when the host gives no most, and the most a host may give.
TEXT_DEFAULT_MAX = {"short_text": 200, "long_text": 5000}
TEXT_LIMIT = {"short_text": 1000, "long_text": 20000}
LABEL_MAX = 80
HELP_MAX = 200
OPTION_MAX = 100
# Digits a whole number may have: enough for any game, few enough that no answer is enormous.
NUMBER_DIGITS = 15
# In describe(): a text longer than this shows its first characters, then "…".
DESCRIBE_CHARS = 80

# Names the game page posts beside the answers: no question takes them as its key.
RESERVED_KEYS = frozenset({"round_number", "save", "save_final", "csrfmiddlewaretoken"})
_WHOLE = re.compile(r"^[+-]?\d+$")
_YES = {"yes", "true", "y"}
_NO = {"no", "false", "n"}


class Problem(NamedTuple):
    """A problem of a form's definition: the question's index (None: the form as a whole), the attribute
    at fault ("label", "kind", "minimum", "maximum", "options", "help", "fields"), and what to do."""

    index: int | None
    attribute: str
    message: str


# ---- the definition -------------------------------------------------------------------------------------


def option_list(options: Any) -> list[str]:
    """The options as a list: a list as given, or the admin's text split into lines; blanks dropped, each
    stripped."""
    if options is None:
        return []
    if isinstance(options, str):
        items = options.splitlines()
    elif isinstance(options, list | tuple):
        items = [str(item) for item in options]
    else:
        items = [str(options)]
    return [item.strip() for item in items if item.strip()]


def _whole(value: Any) -> tuple[int | None, bool]:
    """A minimum or maximum as (int or None, ok): blank, (None, True); not whole, (None, False)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, True
    number = _int_of(value)
    return number, number is not None


def _int_of(value: Any) -> int | None:
    """An int, or a string of digits (an optional sign), as an int; anything else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _WHOLE.match(value.strip()) and len(value.strip()) <= NUMBER_DIGITS + 1:
        return int(value.strip())
    return None


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _required(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip().lower() not in ("false", "no", "0", "")
    return bool(value)


def definition_problems(fields: list[Mapping[str, Any]]) -> list[Problem]:
    """Every problem of a form's definition, in words a host understands; [] when the form is fine."""
    if not fields:
        return [Problem(None, "fields", "This form has no questions: add at least one.")]
    found: list[Problem] = []
    seen_labels: dict[str, int] = {}
    for index, field in enumerate(fields):
        found += _field_problems(index, field)
        label = _text(field.get("label"))
        folded = label.casefold()
        if folded and folded in seen_labels:
            found.append(
                Problem(
                    index,
                    "label",
                    f"Question {seen_labels[folded] + 1} is also called “{label}”: give each question of a "
                    "form its own label.",
                )
            )
        elif folded:
            seen_labels[folded] = index
    return found


def _field_problems(index: int, field: Mapping[str, Any]) -> list[Problem]:
    found: list[Problem] = []

    def refuse(attribute: str, message: str) -> None:
        found.append(Problem(index, attribute, message))

    label = _text(field.get("label"))
    if not label:
        refuse("label", "Give this question a label: the words the players read.")
    elif len(label) > LABEL_MAX:
        refuse("label", f"Keep the label to {LABEL_MAX} characters (it has {len(label)}).")
    if len(_text(field.get("help"))) > HELP_MAX:
        refuse("help", f"Keep the help to {HELP_MAX} characters.")
    kind = _text(field.get("kind"))
    if kind not in KIND_WORDS:
        words = ", ".join(word for _, word in KINDS)
        shown = f"“{kind}”" if kind else "none"
        refuse("kind", f"Unknown kind of question ({shown}): choose one of {words}.")
        return found
    minimum, min_ok = _whole(field.get("minimum"))
    maximum, max_ok = _whole(field.get("maximum"))
    if not min_ok:
        refuse("minimum", "The least must be a whole number, or blank.")
    if not max_ok:
        refuse("maximum", "The most must be a whole number, or blank.")
    options = option_list(field.get("options"))
    if options and kind not in ("choice", "choices"):
        refuse("options", f"Only a choice question has options: clear them for a {KIND_WORDS[kind].lower()}.")
    if kind == "number":
        if minimum is not None and maximum is not None and minimum > maximum:
            refuse("maximum", f"The most ({maximum}) is less than the least ({minimum}).")
    elif kind in TEXT_KINDS:
        if minimum is not None:
            refuse("minimum", "A text answer has no least: leave it blank (the most is its most characters).")
        if maximum is not None and maximum < 1:
            refuse("maximum", "The most characters must be at least 1, or blank.")
        elif maximum is not None and maximum > TEXT_LIMIT[kind]:
            refuse("maximum", f"The most characters of a {KIND_WORDS[kind].lower()} is {TEXT_LIMIT[kind]}.")
    elif kind in ("choice", "choices"):
        if len(options) < 2:
            refuse("options", "Give at least two options, one per line.")
        folded: set[str] = set()
        for option in options:
            if option.casefold() in folded:
                refuse("options", f"The option “{option}” is there twice: each option must differ.")
            folded.add(option.casefold())
            if len(option) > OPTION_MAX:
                refuse("options", f"Keep each option to {OPTION_MAX} characters.")
        if kind == "choice":
            if minimum is not None or maximum is not None:
                refuse(
                    "minimum" if minimum is not None else "maximum",
                    "A one-choice question has no least or most: leave them blank "
                    "(for several answers, make it “Several choices from a list”).",
                )
        else:
            count = len(options)
            if minimum is not None and not 0 <= minimum <= count:
                refuse("minimum", f"“At least” must be from 0 to {count}, the number of options.")
            if maximum is not None and not 1 <= maximum <= count:
                refuse("maximum", f"“At most” must be from 1 to {count}, the number of options.")
            if minimum is not None and maximum is not None and 0 <= minimum <= count and minimum > maximum:
                refuse("maximum", f"“At most” ({maximum}) is less than “at least” ({minimum}).")
    else:  # player, yes_no: nothing to count
        if minimum is not None or maximum is not None:
            refuse(
                "minimum" if minimum is not None else "maximum",
                f"A “{KIND_WORDS[kind]}” question has no least or most: leave them blank.",
            )
    return found


def _slug(label: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")[:40].strip("_")


def keyed(fields: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Normalized copies, each with a key unique in the form: a slug of its label ("bid", "bid_2"), or the
    key it already has (a form keyed before keeps its keys). Options a list, numbers ints (a minimum or
    maximum that is not a whole number becomes None: definition_problems says so first)."""
    result: list[dict[str, Any]] = []
    taken: set[str] = set(RESERVED_KEYS)
    given = [_text(field.get("key")) for field in fields]
    for index, field in enumerate(fields):
        key = given[index]
        if not re.fullmatch(r"[a-z0-9_]{1,60}", key) or key in taken:
            base = _slug(_text(field.get("label"))) or f"question_{index + 1}"
            key, n = base, 2
            while key in taken or key in given[index + 1 :]:
                key, n = f"{base}_{n}", n + 1
        taken.add(key)
        kind = _text(field.get("kind"))
        result.append(
            {
                "key": key,
                "kind": kind,
                "label": _text(field.get("label")),
                "help": _text(field.get("help")),
                "required": _required(field.get("required")),
                "minimum": _whole(field.get("minimum"))[0],
                "maximum": _whole(field.get("maximum"))[0],
                "options": option_list(field.get("options")) if kind in ("choice", "choices") else [],
            }
        )
    return result


def text_max(field: Mapping[str, Any]) -> int:
    """The most characters a text question takes."""
    return field.get("maximum") or TEXT_DEFAULT_MAX.get(field["kind"], TEXT_DEFAULT_MAX["short_text"])


def choices_bounds(field: Mapping[str, Any]) -> tuple[int, int]:
    """(at least, at most) for a several-choices question answered at all: at least 1 unless the host says."""
    count = len(field["options"])
    least, most = field.get("minimum"), field.get("maximum")
    return (1 if least is None else max(least, 1), count if most is None else most)


# ---- the answers ----------------------------------------------------------------------------------------

REQUIRED = "This is required."


def _number_words(field: Mapping[str, Any]) -> str:
    least, most = field.get("minimum"), field.get("maximum")
    if least is not None and most is not None:
        return f"A whole number from {least} to {most}."
    if least is not None:
        return f"A whole number, at least {least}."
    if most is not None:
        return f"A whole number, at most {most}."
    return "A whole number."


def _options_words(options: list[str], lead: str = "Choose one of") -> str:
    shown = ", ".join(options[:10]) + (", …" if len(options) > 10 else "")
    return f"{lead}: {shown}."


def _match_option(options: list[str], value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in options:
        return text
    for option in options:
        if option.casefold() == text.casefold():
            return option
    return None


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == []


def _clean_one(field: Mapping[str, Any], value: Any, players: Mapping[int, str]) -> tuple[Any, str | None]:
    """(the clean answer, None) or (None, the problem's words) for one question."""
    kind = field["kind"]
    if _blank(value):
        if field["required"]:
            return None, REQUIRED
        return ([] if kind == "choices" else None), None
    if kind in TEXT_KINDS:
        if not isinstance(value, str):
            return None, "Write your answer as text."
        text = value.replace("\r\n", "\n").replace("\r", "\n").strip()
        if kind == "short_text" and "\n" in text:
            return None, "Keep it to one line."
        most = text_max(field)
        if len(text) > most:
            return None, f"At most {most} characters (this has {len(text)})."
        return text, None
    if kind == "number":
        number = _int_of(value)
        least, most = field.get("minimum"), field.get("maximum")
        if (
            number is None
            or abs(number) >= 10**NUMBER_DIGITS
            or (least is not None and number < least)
            or (most is not None and number > most)
        ):
            return None, _number_words(field)
        return number, None
    if kind == "choice":
        option = _match_option(field["options"], value)
        if option is None:
            return None, _options_words(field["options"])
        return option, None
    if kind == "choices":
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            return None, "Choose from the list."
        chosen: set[str] = set()
        for item in items:
            option = _match_option(field["options"], item)
            if option is None:
                return None, _options_words(field["options"], "Choose from")
            if option in chosen:
                return None, f"“{option}” is chosen twice: choose each once."
            chosen.add(option)
        least, most = choices_bounds(field)
        if len(chosen) < least:
            return None, f"Choose at least {least}."
        if len(chosen) > most:
            return None, f"Choose at most {most}."
        return [option for option in field["options"] if option in chosen], None
    if kind == "player":
        seat = None
        if isinstance(value, int) and not isinstance(value, bool):
            seat = value
        elif isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 6:
            seat = int(value.strip())
        if seat is None or seat not in players:
            return None, "Choose one of the game's players."
        return seat, None
    if kind == "yes_no":
        if isinstance(value, bool):
            return value, None
        word = value.strip().lower() if isinstance(value, str) else None
        if word in _YES:
            return True, None
        if word in _NO:
            return False, None
        return None, "Answer yes or no."
    return None, "This question cannot be answered (its kind is unknown): tell the hosts."


def _check(
    fields: list[Mapping[str, Any]], payload: Any, players: Mapping[int, str]
) -> tuple[dict[str, Any], list[tuple[str | None, str, str]]]:
    """(clean answers, problems as (key, label, words)) in the form's order, then unknown keys."""
    form = keyed(fields)
    if not isinstance(payload, Mapping):
        return {}, [(None, "", "Send the answers as an object: each question's key and its answer.")]
    cleaned: dict[str, Any] = {}
    problems: list[tuple[str | None, str, str]] = []
    for field in form:
        value, problem = _clean_one(field, payload.get(field["key"]), players)
        if problem is None:
            cleaned[field["key"]] = value
        else:
            problems.append((field["key"], field["label"], problem))
    known = {field["key"] for field in form}
    for key in payload:
        if key not in known:
            problems.append((str(key), "", f"This form has no question called {key}."))
    return cleaned, problems


def answer_problems(
    fields: list[Mapping[str, Any]], payload: Any, players: Mapping[int, str]
) -> dict[str | None, str]:
    """Every problem of a player's answers at once, by question key (None: the answers as a whole), in the
    words shown next to the question ("A whole number from 0 to 10.", "This is required."); {} when fine."""
    found: dict[str | None, str] = {}
    for key, _label, words in _check(fields, payload, players)[1]:
        found.setdefault(key, words)
    return found


def clean_answers(
    fields: list[Mapping[str, Any]], payload: Any, players: Mapping[int, str]
) -> dict[str, Any]:
    """The player's answers made clean (ints, bools, seats, options as the host wrote them; a missing optional
    answer None, or [] for several choices), or RulesError for the first problem, naming its question:
    "Bid: a whole number from 0 to 10." with field="bid"."""
    cleaned, problems = _check(fields, payload, players)
    if problems:
        key, label, words = problems[0]
        message = f"{label}: {words[0].lower()}{words[1:]}" if label else words
        raise RulesError(message, field=key)
    return cleaned


# ---- the API's schema and the hosts' console --------------------------------------------------------------


def json_schema(fields: list[Mapping[str, Any]], players: Mapping[int, str] | None = None) -> dict[str, Any]:
    """A JSON Schema of the answers, for the API's OpenAPI document. (The API also takes a whole number or a
    seat as a string of digits and yes/no as words; this schema says the plain form.)"""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in keyed(fields):
        kind, optional = field["kind"], not field["required"]
        spec: dict[str, Any] = {"title": field["label"]}
        if field["help"]:
            spec["description"] = field["help"]
        if kind in TEXT_KINDS:
            spec.update(type=["string", "null"] if optional else "string", maxLength=text_max(field))
            if not optional:
                spec["minLength"] = 1
        elif kind == "number":
            spec["type"] = ["integer", "null"] if optional else "integer"
            if field["minimum"] is not None:
                spec["minimum"] = field["minimum"]
            if field["maximum"] is not None:
                spec["maximum"] = field["maximum"]
        elif kind == "choice":
            spec.update(type=["string", "null"] if optional else "string", enum=list(field["options"]))
            if optional:
                spec["enum"].append(None)
        elif kind == "choices":
            least, most = choices_bounds(field)
            spec.update(
                type="array",
                items={"type": "string", "enum": list(field["options"])},
                uniqueItems=True,
                maxItems=most,
            )
            if not optional:
                spec["minItems"] = least
            elif least > 0:
                spec["anyOf"] = [{"maxItems": 0}, {"minItems": least}]
        elif kind == "player":
            spec["type"] = ["integer", "null"] if optional else "integer"
            if players is not None:
                spec["enum"] = sorted(players) + ([None] if optional else [])
                seats = ", ".join(f"{seat} {name}" for seat, name in sorted(players.items()))
                spec["description"] = (spec.get("description", "") + f" Seats: {seats}.").strip()
            else:
                spec["minimum"] = 0
        elif kind == "yes_no":
            spec["type"] = ["boolean", "null"] if optional else "boolean"
        properties[field["key"]] = spec
        if not optional:
            required.append(field["key"])
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= DESCRIBE_CHARS else flat[:DESCRIBE_CHARS].rstrip() + "…"


def answer_words(field: Mapping[str, Any], value, names: Mapping[int, str], *, full: bool = False) -> str:
    """One answer in the hosts' words ("—" when not answered). A text shows its first 80 characters on one
    line, or, `full`, all of it as written (the results page's table of submissions)."""
    kind = field["kind"]
    if _blank(value):
        return "—"
    if kind in TEXT_KINDS:
        text = str(value)
        if full:
            return text
        shown = f"“{_short(text)}”"
        if len(" ".join(text.split())) > DESCRIBE_CHARS:
            shown += f" ({len(text)} characters)"
        return shown
    if kind == "yes_no":
        return "yes" if value is True else "no" if value is False else str(value)
    if kind == "player":
        return names.get(value, f"seat {value}") if isinstance(value, int) else str(value)
    if kind == "choices" and isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)


def describe(
    fields: list[Mapping[str, Any]], payload: Mapping[str, Any] | None, names: Mapping[int, str]
) -> str:
    """A saved submission in one line for the hosts' console: "Bid: 5; Target: ann; Ally: yes; Plan: “Go
    left at the…” (120 characters)". A text shows its first 80 characters, on one line; an unanswered
    question shows "—"."""
    payload = payload or {}
    parts = [f"{f['label']}: {answer_words(f, payload.get(f['key']), names)}" for f in keyed(fields)]
    return "; ".join(parts) if parts else "(no questions)"
