"""The hosts' design as the game's rules read it: the snapshot copied into the state at the start, and what
keeps a design from starting."""

from __future__ import annotations

from django.db import transaction

from games.platform.kit import RulesError
from games.platform.models import Game, Season
from games.platform.services.audit import audit
from games.platform.services.games import game_create

from .models import Design, Field, PrivateColumn, PrivateValue
from .rules.fields import definition_problems, keyed
from .settings import window_minutes

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
    minutes = window_minutes(game.settings)  # the demo's windows, over the design's (settings.py)
    plans = {
        str(plan.number): {
            "title": plan.title,
            "window": {"amount": plan.window, "unit": plan.window_unit}
            if plan.window and not minutes
            else None,
            "opens": plan.opens,
        }
        for plan in design.round_plans.order_by("number")
    }
    window = {"amount": minutes, "unit": "minutes"} if minutes else None
    return {
        "rounds": design.rounds,
        "window": window or {"amount": design.window, "unit": design.window_unit},
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
            # One clause of the console's "Before the start: …; …." line.
            words = message.rstrip(".")
            problems.append(f"{name}, {label or attribute}: {words[:1].lower()}{words[1:]}")
    if design.rounds is not None:
        beyond = sorted(int(k) for k in forms if k != "game" and int(k) > design.rounds)
        if beyond:
            problems.append(f"Round {beyond[0]} has a form, but the game has {design.rounds} rounds")
    return problems


DESIGN_COPIED = ("rules", "rounds", "window", "window_unit", "opened_by_hand", "scoreboard_public", "board")


def _copy_rows(rows, *, design: Design) -> None:
    """The design's rows of one kind (its round plans, questions or columns), copied field for field onto
    `design`: every column of the model but its id and its design, so a field added later is copied too."""
    model = rows.model
    names = [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", "design_id")]
    model.objects.bulk_create(model(design=design, **{n: getattr(row, n) for n in names}) for row in rows)


@transaction.atomic
def design_copy(*, game: Game, season: Season, name: str, actor=None) -> Game:
    """A new draft game of the same type, hosts and settings in `season`, with a copy of `game`'s design:
    its rules, rounds, round plans, questions, private columns, board and scoreboard choice. Not its seats,
    private values, notes nor anything the game played (results, resolutions): a game played again."""
    design = Design.objects.get(game=game)
    copy = game_create(
        season=season,
        game_type=game.game_type,
        name=name,
        hosts=list(game.hosts.all()),
        settings=dict(game.settings or {}),
        public=game.public,
        actor=actor,
    )
    new = Design.objects.create(game=copy, **{name: getattr(design, name) for name in DESIGN_COPIED})
    for rows in (design.round_plans.all(), design.fields.all(), design.private_columns.all()):
        _copy_rows(rows, design=new)
    audit(action="host_run_design_copy", actor=actor, game=copy, copied_from=game.pk, name=name)
    return copy


# What PUT/POST /api/games/{id}/host/hidden/ takes: the hidden data (`private`, `notes`) in the shape
# `hidden_data` gives it, and, for a design set up wholly through the API, its public parts.
DESIGN_KEYS = ("rules", "board", "rounds", "window", "opened_by_hand", "scoreboard_public", "forms")
COLUMN_MAX = 40


def _text_of(data: dict, key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RulesError(f"{key} is text (Markdown).", field=key)
    return value


def _private_rows(game: Game, private) -> tuple[list[str], dict[int, dict[str, str]]]:
    """The columns (in the order first named) and each seat's values, checked: {seat: {column: text}}."""
    if not isinstance(private, dict):
        raise RulesError('private is {"seat number": {"column": "value"}}.', field="private")
    seats = set(game.seats.values_list("number", flat=True))
    columns: list[str] = []
    rows: dict[int, dict[str, str]] = {}
    for seat, values in private.items():
        number = int(seat) if str(seat).isdigit() else None
        if number not in seats:
            raise RulesError(f"There is no seat {seat} in this game (seats count from 0).", field="private")
        if not isinstance(values, dict):
            raise RulesError(f'Seat {seat}\'s values are {{"column": "value"}}.', field="private")
        for column, value in values.items():
            name = str(column).strip()
            if not name or len(name) > COLUMN_MAX:
                raise RulesError(f"A column's name is 1 to {COLUMN_MAX} characters.", field="private")
            if not isinstance(value, str | int):
                raise RulesError(f"Seat {seat}'s {name} is text.", field="private")
            if name not in columns:
                columns.append(name)
            rows.setdefault(number, {})[name] = str(value)
    return columns, rows


def _forms(forms) -> dict[str, list[dict]]:
    """{"game": [questions], "2": [questions]} checked by the one module that checks forms."""
    if not isinstance(forms, dict) or not all(isinstance(v, list) for v in forms.values()):
        raise RulesError('forms is {"game": [questions], "2": [Round 2\'s own questions]}.', field="forms")
    checked: dict[str, list[dict]] = {}
    for where, fields in forms.items():
        if where != "game" and not (str(where).isdigit() and int(where) >= 1):
            raise RulesError(f'A form is "game" or a round number from 1, not "{where}".', field="forms")
        if not all(isinstance(f, dict) for f in fields):
            raise RulesError("Each question is an object (kind, label, help, ...).", field="forms")
        if not fields and where != "game":
            continue
        name = "The game's form" if where == "game" else f"Round {where}'s form"
        for index, attribute, message in definition_problems(fields):
            which = f", question {index + 1} ({attribute})" if index is not None else ""
            raise RulesError(f"{name}{which}: {message}", field="forms")
        checked[str(where)] = keyed(fields)
        for index, field in enumerate(checked[str(where)]):
            if any(abs(field[k]) > 10**9 for k in ("minimum", "maximum") if field[k] is not None):
                raise RulesError(
                    f"{name}, question {index + 1}: keep the least and most within a billion.", field="forms"
                )
    return checked


def _design_values(data: dict) -> dict:
    values: dict = {}
    for key in ("rules", "board"):
        if key in data:
            values[key] = _text_of(data, key)
    if "rounds" in data:
        rounds = data["rounds"]
        if rounds is not None and (
            isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 99
        ):
            raise RulesError(
                "rounds is a whole number from 1 to 99, or null for an open-ended game.", field="rounds"
            )
        values["rounds"] = rounds
    if "window" in data:
        window = data["window"]
        amount = window.get("amount") if isinstance(window, dict) else None
        unit = window.get("unit", "hours") if isinstance(window, dict) else None
        if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= 10000:
            raise RulesError(
                'window is {"amount": from 1 to 10000, "unit": "hours" or "minutes"}.', field="window"
            )
        if unit not in ("hours", "minutes"):
            raise RulesError('The window\'s unit is "hours" or "minutes".', field="window")
        values.update(window=amount, window_unit=unit)
    for key in ("opened_by_hand", "scoreboard_public"):
        if key in data:
            if not isinstance(data[key], bool):
                raise RulesError(f"{key} is true or false.", field=key)
            values[key] = data[key]
    return values


@transaction.atomic
def hidden_set(game: Game, data: dict) -> None:
    """Store the hosts' data sent through the API (before the start; the service checks that): every part is
    checked before anything is stored, and a part left out stays as it was."""
    unknown = sorted(set(data) - {"private", "notes", *DESIGN_KEYS})
    if unknown:
        known = ", ".join(("private", "notes", *DESIGN_KEYS))
        raise RulesError(f"Unknown part {unknown[0]!r}: the parts are {known}.", field=unknown[0])
    values = _design_values(data)
    if "notes" in data:
        values["notes"] = _text_of(data, "notes")
    private = _private_rows(game, data["private"]) if data.get("private") is not None else None
    forms = _forms(data["forms"]) if data.get("forms") is not None else None
    design, _ = Design.objects.get_or_create(game=game)
    if values:
        Design.objects.filter(pk=design.pk).update(**values)
    if forms is not None:
        design.fields.all().delete()
        Field.objects.bulk_create(
            [
                Field(
                    design=design,
                    round_number=None if where == "game" else int(where),
                    order=order,
                    kind=f["kind"],
                    label=f["label"],
                    help=f["help"] or "",
                    required=f["required"],
                    minimum=f["minimum"],
                    maximum=f["maximum"],
                    options="\n".join(f["options"]),
                )
                for where, fields in forms.items()
                for order, f in enumerate(fields, start=1)
            ]
        )
    if private is not None:
        columns, rows = private
        design.private_columns.all().delete()
        made = PrivateColumn.objects.bulk_create(
            [PrivateColumn(design=design, order=i, name=name) for i, name in enumerate(columns, start=1)]
        )
        seats = {s.number: s for s in game.seats.all()}
        PrivateValue.objects.bulk_create(
            [
                PrivateValue(column=column, seat=seats[number], value=values_.get(column.name, ""))
                for number, values_ in rows.items()
                for column in made
            ]
        )
