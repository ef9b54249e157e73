"""The `id` path converter: a row's id (a game, a season, a seat number) as URLs carry it.

Django's `int` takes any number of digits, and a number past what a 64-bit key holds reached the database:
SQLite refused it with an OverflowError (a 500) wherever a foreign key was compared with it (issue 28). An id
is at most 2^63 - 1, as every key of the site is; a longer one names no row, so its URL matches nothing: 404.
Every URL module that names a row imports this module (registering the converter once).
"""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # Django takes it as "no match"
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
