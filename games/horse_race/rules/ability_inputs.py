"""What each round's Clue and Utility take as input, and the check of one player's choice against a hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.platform.kit import RulesError

from .settings import HORSES, KINDS
from .state import check_horse

# Each round's two abilities: the rules' words (for the form) and the inputs they take. Input kinds:
# "cards" = {horse: copies}, "horses" = distinct horse letters, "horse" = one letter,
# "guesses" = {horse: [guess for each copy used]}.
ABILITIES: dict[tuple[int, str], tuple[str, dict[str, str]]] = {
    (0, "clue"): (
        "Use any number of horse cards. You will learn the movement values of the corresponding horses "
        "for Rounds 1 and 2.",
        {"use": "cards"},
    ),
    (0, "utility"): ("Select a horse card. You will gain a copy of it.", {"select": "horse"}),
    (1, "clue"): (
        "Select any number of horse cards, and use one of them. You will learn the sums of the movement "
        "values of the corresponding horses of the selected cards for Rounds 2, 3, and 4 (three sums).",
        {"select": "horses", "use": "cards"},
    ),
    (1, "utility"): (
        "Use any number of horse cards. For each card you discard, you will gain another card of your "
        "choice, but if you use multiple cards, you may not choose to gain two of the same card.",
        {"use": "cards", "gain": "horses"},
    ),
    (2, "clue"): (
        "Use any number of horse cards. For each card you use: a list of all horses whose movement value "
        "for Round 3 differs from that horse's by exactly 1, and the same list for Round 4.",
        {"use": "cards"},
    ),
    (2, "utility"): (
        "Use any number of horse cards. For every 2 cards you use, rounded down, the number of chips you "
        "can bet in a single round, including the current one, is permanently increased by 1.",
        {"use": "cards"},
    ),
    (3, "clue"): (
        "Use any number of horse cards. You will learn what spaces the corresponding horses will be on at "
        "the end of Round 4. If you use 2 copies of the same card, you will also learn what space the "
        "corresponding horse will be on at the end of Round 5.",
        {"use": "cards"},
    ),
    (3, "utility"): (
        "Select up to 3 horse cards. At the ends of Rounds 3, 4, and 5, you will learn the total number of "
        "chips bet on each corresponding horse that round.",
        {"select": "horses"},
    ),
    (4, "clue"): (
        "Use any number of horse cards. For each card you use, you will receive a list of all horses whose "
        "movement value for Round 5 is the same as the corresponding horse's.",
        {"use": "cards"},
    ),
    (4, "utility"): (
        "Select any number of identical horse cards, and use one of them. All of the selected cards will "
        "be duplicated (the used one too: select 3, use 1, and you end with 5).",
        {"select": "cards"},
    ),
    (5, "clue"): (
        "Use any number of horse cards. You will learn what the corresponding horses' placements will be "
        "at the end of Rounds 5 and 6.",
        {"use": "cards"},
    ),
    (5, "utility"): (
        "Use up to 2 copies of any number of horse cards, and for each copy, guess how many horses will be "
        "ahead of the corresponding horse at the end of Round 5. For each correct guess, you will gain 3 "
        "copies of the corresponding card.",
        {"guesses": "guesses"},
    ),
    (6, "clue"): (
        "Use any number of horse cards. For each card, you will learn the corresponding horse's movement "
        "values for n rounds starting from Round 7, where n is the number of copies of that card you use.",
        {"use": "cards"},
    ),
    (6, "utility"): (
        "Use any number of horse cards. For each pair of identical horse cards you use, you will learn "
        "exactly who bet how much on the corresponding horse this round.",
        {"use": "cards"},
    ),
    (7, "clue"): (
        "Use any number of horse cards. For each card, you will learn the corresponding horse's movement "
        "values for n rounds starting from Round 8, where n is the number of chips you have bet on that "
        "horse throughout Rounds 1-7, divided by 5, rounded up.",
        {"use": "cards"},
    ),
    (7, "utility"): (
        "Use any number of distinct horse cards. You will gain that number of a single horse card of your "
        "choice.",
        {"use": "cards", "gain": "horse"},
    ),
    (8, "clue"): (
        "Use any number of horse cards, and select half of them, rounded down. For the selected cards, you "
        "will learn the corresponding horses' movement values for Round 9.",
        {"use": "cards", "select": "cards"},
    ),
    (8, "utility"): (
        "Use any number of distinct horse cards. For every card you use, the number of chips you can bet "
        "in a single round, including the current one, is permanently increased by 1.",
        {"use": "cards"},
    ),
    (9, "clue"): (
        "Use any number of horse cards. You will learn the movement values of the corresponding horses for "
        "Round 10.",
        {"use": "cards"},
    ),
    (9, "utility"): (
        "Use any number of identical horse cards. You will gain 1 chip for every card you use; these chips "
        "can be used to bet in the current round.",
        {"use": "cards"},
    ),
    (10, "clue"): (
        "Use any number of horse cards. For each horse card that you use at least 3 copies of, you will "
        "learn the corresponding horse's movement values for all 10 rounds.",
        {"use": "cards"},
    ),
    (10, "utility"): (
        "Use any number of horse cards. For each card type, you will gain n² points, where n is the number "
        "of copies of that card you are using, capped at 20 points per card type.",
        {"use": "cards"},
    ),
}

MAX_ROUND3_SELECTION = 3
MAX_ROUND5_COPIES = 2


def _cards(value: object, name: str, allow_empty: bool = False) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError("Give the cards as a horse letter and a number of copies for each.", field=name)
    counts: dict[str, int] = {}
    for key, copies in value.items():
        horse = check_horse(key, name)
        if type(copies) is not int or copies < 0:
            raise RulesError(f"The number of {horse} cards must be a whole number.", field=name)
        if copies:
            counts[horse] = counts.get(horse, 0) + copies
    if not counts and not allow_empty:
        raise RulesError("Choose at least one card.", field=name)
    return {h: counts[h] for h in HORSES if h in counts}


def _horses(value: object, name: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise RulesError("Give a list of horse letters.", field=name)
    letters = [check_horse(item, name) for item in value]
    if len(set(letters)) != len(letters):
        raise RulesError("Name each horse at most once.", field=name)
    if not letters:
        raise RulesError("Choose at least one horse.", field=name)
    return sorted(letters)


def _guesses(value: object, name: str) -> dict[str, list[int]]:
    if not isinstance(value, Mapping) or not value:
        raise RulesError("Give, for each card you use, a guess of how many horses will be ahead.", field=name)
    clean: dict[str, list[int]] = {}
    for key, guesses in value.items():
        horse = check_horse(key, name)
        if isinstance(guesses, int) and not isinstance(guesses, bool):
            guesses = [guesses]
        if isinstance(guesses, str) or not isinstance(guesses, Sequence) or not guesses:
            raise RulesError(f"Give one guess for each {horse} card you use.", field=name)
        if horse in clean or len(guesses) > MAX_ROUND5_COPIES:
            raise RulesError(f"You may use at most {MAX_ROUND5_COPIES} copies of a card.", field=name)
        for guess in guesses:
            if type(guess) is not int or not 0 <= guess < len(HORSES):
                raise RulesError(f"A guess must be a whole number from 0 to {len(HORSES) - 1}.", field=name)
        clean[horse] = list(guesses)
    return {h: clean[h] for h in HORSES if h in clean}


def _parse(kind: str, value: object, name: str):
    if kind == "cards":
        return _cards(value, name)
    if kind == "horses":
        return _horses(value, name)
    if kind == "horse":
        return check_horse(value, name)
    return _guesses(value, name)


def cards_used(round_number: int, ability: dict) -> dict[str, int]:
    """The cards an already-clean ability discards."""
    if (round_number, ability["kind"]) == (4, "utility"):
        return {next(iter(ability["select"])): 1}
    if (round_number, ability["kind"]) == (5, "utility"):
        return {h: len(g) for h, g in ability["guesses"].items()}
    return dict(ability.get("use", {}))


def cards_needed(round_number: int, ability: dict) -> dict[str, int]:
    """The cards the hand must hold: every card selected or used (a card may be both)."""
    need = cards_used(round_number, ability)
    select = ability.get("select")
    if isinstance(select, str):
        select = {select: 1}
    elif isinstance(select, list):
        select = {h: 1 for h in select}
    for horse, copies in (select or {}).items():
        need[horse] = max(need.get(horse, 0), copies)
    return need


def _check_shape(round_number: int, kind: str, ability: dict) -> None:
    """The round's own conditions on the inputs, beyond their types."""
    key = (round_number, kind)
    if key == (1, "clue"):
        if sum(ability["use"].values()) != 1:
            raise RulesError("Use exactly one of the selected cards.", field="use")
        if next(iter(ability["use"])) not in ability["select"]:
            raise RulesError("The card you use must be one of the selected cards.", field="use")
    elif key == (1, "utility"):
        if len(ability["gain"]) != sum(ability["use"].values()):
            raise RulesError("Choose one different card to gain for each card you use.", field="gain")
    elif key == (3, "utility"):
        if len(ability["select"]) > MAX_ROUND3_SELECTION:
            raise RulesError(f"Select at most {MAX_ROUND3_SELECTION} horse cards.", field="select")
    elif key == (4, "utility"):
        if len(ability["select"]) != 1:
            raise RulesError("Select identical cards: copies of one horse only.", field="select")
    elif key in ((7, "utility"), (8, "utility")):
        if any(copies > 1 for copies in ability["use"].values()):
            raise RulesError("Use distinct cards: at most one copy of each horse.", field="use")
    elif key == (8, "clue"):
        half = sum(ability["use"].values()) // 2
        if sum(ability["select"].values()) != half:
            raise RulesError(
                f"Select exactly half of the cards you use, rounded down: {half}.", field="select"
            )
        for horse, copies in ability["select"].items():
            if copies > ability["use"].get(horse, 0):
                raise RulesError(
                    f"You may only select cards you use; you use no more {horse}.", field="select"
                )
    elif key == (9, "utility"):
        if len(ability["use"]) != 1:
            raise RulesError("Use identical cards: copies of one horse only.", field="use")


def _asked(name: str, input_kind: str) -> str:
    """An input a player left empty, as the form names it: "the cards to use", "the card to select"."""
    if name == "guesses":
        return "your guesses"
    return f"the card{'' if input_kind == 'horse' else 's'} to {name}"


def clean_ability(round_number: int, hand: Mapping[str, int], ability: object) -> dict | None:
    """The ability exactly as this round takes it, checked against the hand; None for no ability."""
    if ability is None or ability == {} or ability == "":
        return None
    if not isinstance(ability, Mapping):
        raise RulesError("Choose the Clue or the Utility ability, or none.", field="ability")
    kind = ability.get("kind")
    if kind in (None, "", "none"):
        return None
    if kind not in KINDS:
        raise RulesError("Choose the Clue or the Utility ability, or none.", field="ability")
    inputs = ABILITIES[(round_number, kind)][1]
    extra = sorted(set(ability) - set(inputs) - {"kind"})
    if extra:
        raise RulesError(f"This round's {kind.title()} does not take: {', '.join(extra)}.", field=extra[0])
    clean: dict = {"kind": kind}
    for name, input_kind in inputs.items():
        if (round_number, kind, name) == (8, "clue", "select"):
            clean[name] = _cards(ability.get(name, {}), name, allow_empty=True)
        elif name not in ability or ability[name] in (None, "", [], {}):
            raise RulesError(
                f"Choose {_asked(name, input_kind)} for this round's {kind.title()}.", field=name
            )
        else:
            clean[name] = _parse(input_kind, ability[name], name)
    _check_shape(round_number, kind, clean)
    for horse, copies in cards_needed(round_number, clean).items():
        if hand.get(horse, 0) < copies:
            held = hand.get(horse, 0)
            name = "use" if horse in clean.get("use", {}) else "guesses" if "guesses" in clean else "select"
            raise RulesError(
                f"You need {copies} {horse} card{'s' * (copies != 1)} for this and hold {held}.", field=name
            )
    return clean
