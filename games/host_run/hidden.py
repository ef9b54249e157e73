"""The hosts' design as the game's rules read it: the snapshot copied into the state at the start, and what
keeps a design from starting."""

from __future__ import annotations

from games.platform.models import Game

from .models import Design, Field, PrivateValue
from .rules.fields import definition_problems, keyed

FIELD_KEYS = ("kind", "label", "help", "required", "minimum", "maximum")


def field_dict(field: Field) -> dict:
    return {
        **{k: getattr(field, k) for k in FIELD_KEYS},
        "options": [line.strip() for line in field.options.splitlines() if line.strip()],
    }


def forms_of(design: Design) -> dict[str, list[dict]]:
    """{"game": the game's form, "N": round N's own form}, each field with its key."""
    grouped: dict[str, list[dict]] = {"game": []}
    for field in design.fields.order_by("round_number", "order", "id"):
        where = "game" if field.round_number is None else str(field.round_number)
        grouped.setdefault(where, []).append(field_dict(field))
    return {where: keyed(fields) for where, fields in grouped.items()}


def private_of(design: Design, seats: list[int]) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The private columns and each seat's values ("" where the host gave none)."""
    columns = list(design.private_columns.order_by("order", "id"))
    names = [c.name for c in columns]
    values = {str(s): dict.fromkeys(names, "") for s in seats}
    rows = PrivateValue.objects.filter(column__in=columns).select_related("column", "seat")
    for row in rows:
        if str(row.seat.number) in values:
            values[str(row.seat.number)][row.column.name] = row.value
    return names, values


def snapshot(game: Game, death_match: bool) -> dict:
    """The design as `rules.new_game` takes it."""
    design = Design.objects.get(game=game)
    seats = sorted(game.seats.values_list("number", flat=True))
    columns, private = private_of(design, seats)
    plans = {
        str(plan.number): {
            "title": plan.title,
            "window": {"amount": plan.window, "unit": plan.window_unit} if plan.window else None,
            "opens": plan.opens,
        }
        for plan in design.round_plans.order_by("number")
    }
    return {
        "rounds": design.rounds,
        "window": {"amount": design.window, "unit": design.window_unit},
        "opened_by_hand": design.opened_by_hand,
        "plans": plans,
        "forms": forms_of(design),
        "rules": design.rules,
        "columns": columns,
        "private": private,
        "board": design.board,
        "scoreboard_public": design.scoreboard_public,
        "notes": design.notes,
        "seats": seats,
        "death_match": death_match,
    }


def design_problems(game: Game) -> list[str]:
    """What keeps the design from starting, one message each (the console and the admin show them)."""
    design = Design.objects.filter(game=game).first()
    if design is None:
        return ["the game has no design yet: write its rules, rounds and round form in the admin"]
    problems = []
    if design.rounds is not None and design.rounds < 1:
        problems.append("the game needs at least one round (or none given, for an open-ended game)")
    if design.window < 1:
        problems.append("each round's window must last at least 1 minute or hour")
    forms = forms_of(design)
    if not forms["game"]:
        last = design.rounds or max([int(k) for k in forms if k != "game"] + [1])
        without = [n for n in range(1, last + 1) if str(n) not in forms]
        if design.rounds is None or without:
            where = f"Round {without[0]}" if without else "the rounds after the last own form"
            problems.append(
                f"{where} has no form: add questions to the game's form or to that round's own form"
            )
    for where, fields in sorted(forms.items()):
        if not fields:  # an empty form is only a problem where a round needs it (said above)
            continue
        name = "the game's form" if where == "game" else f"Round {where}'s form"
        for index, attribute, message in definition_problems(fields):
            label = fields[index]["label"] if index is not None else ""
            problems.append(f"{name}, {label or attribute}: {message}")
    if design.rounds is not None:
        beyond = sorted(int(k) for k in forms if k != "game" and int(k) > design.rounds)
        if beyond:
            problems.append(f"Round {beyond[0]} has a form, but the game has {design.rounds} rounds")
    return problems
