"""JSON read with a depth limit: deeply nested input is a clear 400, never a RecursionError and a 500.

Python's json module recurses once per level, so `[[[[...]]]]` 100,000 deep exhausts the interpreter's
stack before any view sees it. Nothing the site takes (a round's payload, a move, a board of cells, a
game's settings) is nested more than a few levels: MAX_DEPTH leaves room and stops the rest.
"""

from __future__ import annotations

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
TOO_DEEP = f"This JSON is nested more than {MAX_DEPTH} levels deep."


class TooDeep(ValueError):
    pass


def depth_over(data, limit: int = MAX_DEPTH) -> bool:
    """True when lists and objects inside `data` nest deeper than `limit` (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in item if isinstance(child, (dict, list)))
    return False


def loads(text: str | bytes):
    """json.loads, raising TooDeep (a ValueError, as for any bad JSON) past MAX_DEPTH levels."""
    try:
        data = json.loads(text)
    except RecursionError as exc:
        raise TooDeep(TOO_DEEP) from exc
    if depth_over(data):
        raise TooDeep(TOO_DEEP)
    return data


class DepthLimitedJSONParser(JSONParser):
    """DRF's JSON parser (strict: no NaN), refusing nesting past MAX_DEPTH with a 400."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
        if depth_over(data):
            raise ParseError(TOO_DEEP)
        return data
