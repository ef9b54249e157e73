"""The statements of the hottest paths, written once as SQL per process, not compiled by the ORM each time.

Building a query's SQL costs the ORM about a millisecond on a two-core machine: more than Postgres takes
to answer it. A player's save ran three such reads (their token, their seat, the round's lock) and one
insert (the new version), and every logged-in page one read (the session's user). The SQL here is
generated from the models' own metadata (a new column joins it by itself), built once per database; rows
read become ordinary model instances through the same converters the ORM applies, and values written go
through each field's own preparation. On Postgres each is also prepared on its connection after its second
run (settings: GENIUS_DB_PREPARE). Everything else goes through the ORM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, signals

from .models import Game, Round, Season, Seat, Submission


@dataclass(frozen=True)
class Part:
    """One model's columns in a statement's select list, under a table alias."""

    model: type[Model]
    alias: str


def _compiled_for(store: dict[str, tuple], connection, compile: Callable) -> tuple:
    """What a statement compiles from the models, kept per database alias (quoting and converters differ)."""
    if connection.alias not in store:
        store[connection.alias] = compile(connection)
    return store[connection.alias]


class Statement:
    """A one-row SELECT of whole model rows (and extra columns after them), compiled once per database.

    `parts()` names the models (called at the first use, when every app is loaded); `body(q, connection)`
    writes what follows the select list ("FROM ... WHERE ..."), quoting names with `q`; `extra` the
    columns after the models' (", EXISTS(...)"), the same way.
    """

    def __init__(self, parts: Callable, body: Callable, extra: Callable | None = None):
        self.parts = parts
        self.body = body
        self.extra = extra
        self._compiled: dict[str, tuple] = {}

    def _compile(self, connection) -> tuple:
        q = connection.ops.quote_name
        parts = self.parts()
        columns = [f"{p.alias}.{q(f.column)}" for p in parts for f in p.model._meta.concrete_fields]
        extra = self.extra(q, connection) if self.extra else ""
        sql = f"SELECT {', '.join(columns)}{extra} {self.body(q, connection)}"
        converters = []  # per part: [(index, [converter...], column)] as the ORM's compiler applies them
        for part in parts:
            mine = []
            for index, field in enumerate(part.model._meta.concrete_fields):
                column = field.get_col(part.alias)
                found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if found:
                    mine.append((index, found, column))
            converters.append(mine)
        return sql, parts, converters

    def one(self, params: list, using: str = DEFAULT_DB_ALIAS) -> tuple | None:
        """The models of the first row (then its extra columns), or None when there is no row."""
        connection = connections[using]
        sql, parts, converters = _compiled_for(self._compiled, connection, self._compile)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        out, start = [], 0
        for part, mine in zip(parts, converters, strict=True):
            fields = part.model._meta.concrete_fields
            values = list(row[start : start + len(fields)])
            for index, found, column in mine:
                for convert in found:
                    values[index] = convert(values[index], column, connection)
            out.append(part.model.from_db(connection.alias, [f.attname for f in fields], values))
            start += len(fields)
        return (*out, *row[start:])


class Insert:
    """An INSERT of one new model row RETURNING its primary key, written once per database.

    Each value goes through its field's own `pre_save` and `get_db_prep_save` (defaults, the JSON adapter,
    the datetime's), as `Model.save` sends it. The model's `save()` and its signals are not run: a model
    with listeners on its save signals, or a database that cannot return the new key, goes through the
    ORM instead.
    """

    def __init__(self, model: Callable):
        self.model = model
        self._compiled: dict[str, tuple] = {}

    def _compile(self, connection) -> tuple:
        q = connection.ops.quote_name
        meta = self.model()._meta
        fields = [f for f in meta.concrete_fields if f is not meta.auto_field and not f.generated]
        sql = (
            f"INSERT INTO {q(meta.db_table)} ({', '.join(q(f.column) for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {q(meta.pk.column)}"
        )
        return sql, fields

    def save(self, obj: Model, using: str = DEFAULT_DB_ALIAS) -> Model:
        connection = connections[using]
        model = self.model()
        if (
            not connection.features.can_return_columns_from_insert
            or signals.pre_save.has_listeners(model)
            or signals.post_save.has_listeners(model)
        ):
            obj.save(force_insert=True, using=using)
            return obj
        sql, fields = _compiled_for(self._compiled, connection, self._compile)
        params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            obj.pk = cursor.fetchone()[0]
        obj._state.adding = False
        obj._state.db = using
        return obj


def _table(model: type[Model], q) -> str:
    return q(model._meta.db_table)


def _column(model: type[Model], name: str, q) -> str:
    return q(model._meta.get_field(name).column)


def _token():
    from rest_framework.authtoken.models import Token  # loaded with the apps, after this module

    return Token


def _user_body(q, c):
    User = get_user_model()
    return f"FROM {_table(User, q)} u WHERE u.{q(User._meta.pk.column)} = %s"


def _token_body(q, c):
    Token, User = _token(), get_user_model()
    return (
        f"FROM {_table(Token, q)} t INNER JOIN {_table(User, q)} u"
        f" ON u.{q(User._meta.pk.column)} = t.{_column(Token, 'user', q)}"
        f" WHERE t.{_column(Token, 'key', q)} = %s"
    )


def _seat_body(q, c):
    return (
        f"FROM {_table(Seat, q)} s"
        f" INNER JOIN {_table(Game, q)} g ON g.{q(Game._meta.pk.column)} = s.{_column(Seat, 'game', q)}"
        f" INNER JOIN {_table(Season, q)} n ON n.{q(Season._meta.pk.column)} = g.{_column(Game, 'season', q)}"
        f" WHERE s.{_column(Seat, 'game', q)} = %s AND s.{_column(Seat, 'user', q)} = %s"
    )


def _seat_hosted(q, c):
    hosts = Game.hosts.through
    return (
        f", EXISTS(SELECT 1 FROM {_table(hosts, q)} h"
        f" WHERE h.{_column(hosts, 'game', q)} = s.{_column(Seat, 'game', q)}"
        f" AND h.{_column(hosts, 'user', q)} = s.{_column(Seat, 'user', q)})"
    )


def _round_body(q, c):
    # FOR SHARE on Postgres (see round_shared); SQLite has no row locks and writes one at a time anyway.
    lock = " FOR SHARE" if c.vendor == "postgresql" else ""
    return (
        f"FROM {_table(Round, q)} r"
        f" WHERE r.{_column(Round, 'game', q)} = %s AND r.{_column(Round, 'number', q)} = %s{lock}"
    )


_user_by_id = Statement(lambda: (Part(get_user_model(), "u"),), _user_body)
_token_and_user = Statement(lambda: (Part(_token(), "t"), Part(get_user_model(), "u")), _token_body)
_player_seat = Statement(
    lambda: (Part(Seat, "s"), Part(Game, "g"), Part(Season, "n")), _seat_body, extra=_seat_hosted
)
_round_shared = Statement(lambda: (Part(Round, "r"),), _round_body)


def user_by_id(user_id) -> Model | None:
    found = _user_by_id.one([user_id])
    return found[0] if found else None


def token_with_user(key: str):
    found = _token_and_user.one([key])
    if found is None:
        return None
    token, user = found
    token.user = user
    return token


def player_seat(game_id: int, user_id: int) -> tuple[Seat, bool] | None:
    """The user's seat in the game, with its game and season, and whether they also host the game."""
    found = _player_seat.one([game_id, user_id])
    if found is None:
        return None
    seat, game, season, hosts_it = found
    game.season = season
    seat.game = game
    return seat, bool(hosts_it)


def round_shared(game_id: int, number: int) -> Round | None:
    """The game's round of that number, locked against its resolution but not against other players' saves.

    On Postgres a FOR SHARE lock until the transaction ends: saves of one round hold it side by side (a
    durable commit takes milliseconds, and an exclusive lock would queue every player's save behind the
    others'), while the resolution's FOR UPDATE waits for them, and a save that waited behind a resolution
    reads the round again and finds it closed.
    """
    low, high = connections[DEFAULT_DB_ALIAS].ops.integer_field_range(
        Round._meta.get_field("number").get_internal_type()
    )
    if not low <= number <= high:  # a number no round can have (beyond the column's range)
        return None
    found = _round_shared.one([game_id, number])
    return found[0] if found else None


_submission_insert = Insert(lambda: Submission)


def submission_insert(submission: Submission) -> Submission:
    """A new saved version of a submission, written without the ORM compiling its INSERT each time."""
    return _submission_insert.save(submission)
