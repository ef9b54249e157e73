"""The round forms the hosts define: their checks, the players' answers, and those answers in words.

A STOPGAP written by the hr-core helper so the game type's tests run before the hr-fields helper's module is
merged: the hr-fields version replaces this file whole (same functions, same signatures). Host text is data:
never evaluated, never formatted as code.
"""

from __future__ import annotations

import re

from games.platform.kit import RulesError

KINDS = ("short_text", "long_text", "number", "choice", "choices", "player", "yes_no")


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")[:40] or "answer"


def keyed(fields: list[dict]) -> list[dict]:
    """Each field with a `key` from its label, unique within the form."""
    seen: set[str] = set()
    out = []
    for field in fields:
        key = base = _slug(field.get("label") or "")
        n = 2
        while key in seen:
            key, n = f"{base}_{n}", n + 1
        seen.add(key)
        out.append(dict(field, key=key))
    return out


def definition_problems(fields: list[dict]) -> list[tuple[int | None, str, str]]:
    problems: list[tuple[int | None, str, str]] = []
    for i, field in enumerate(fields):
        if field.get("kind") not in KINDS:
            problems.append((i, "kind", f"The kind is one of {', '.join(KINDS)}."))
        if not (field.get("label") or "").strip():
            problems.append((i, "label", "Every question needs a label."))
        if field.get("kind") in ("choice", "choices") and not field.get("options"):
            problems.append((i, "options", "A choice needs options, one a line."))
        low, high = field.get("minimum"), field.get("maximum")
        if low is not None and high is not None and low > high:
            problems.append((i, "minimum", "The least is above the most."))
    return problems


def _options(field: dict) -> list[str]:
    options = field.get("options") or []
    if isinstance(options, str):
        options = options.splitlines()
    return [o.strip() for o in options if o.strip()]


def clean_answers(fields: list[dict], payload: dict, players: dict[int, str]) -> dict:
    """The answers checked against the form: {key: value}, or RulesError(message, field=key)."""
    if not isinstance(payload, dict):
        raise RulesError("A submission is a set of answers.", field="payload")
    cleaned: dict = {}
    for field in fields:
        key, kind, label = field["key"], field["kind"], field["label"]
        value = payload.get(key)
        empty = value in (None, "", []) or (kind == "yes_no" and value is None)
        if empty:
            if field.get("required", True):
                raise RulesError(f"{label}: an answer is needed.", field=key)
            cleaned[key] = [] if kind == "choices" else None
            continue
        low, high = field.get("minimum"), field.get("maximum")
        if kind in ("short_text", "long_text"):
            if not isinstance(value, str):
                raise RulesError(f"{label}: write text.", field=key)
            value = value.strip()
            if high is not None and len(value) > high:
                raise RulesError(f"{label}: at most {high} characters.", field=key)
        elif kind == "number":
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise RulesError(f"{label}: a whole number.", field=key) from None
            if low is not None and value < low:
                raise RulesError(f"{label}: at least {low}.", field=key)
            if high is not None and value > high:
                raise RulesError(f"{label}: at most {high}.", field=key)
        elif kind == "choice":
            if value not in _options(field):
                raise RulesError(f"{label}: choose one of the options.", field=key)
        elif kind == "choices":
            if not isinstance(value, list) or any(v not in _options(field) for v in value):
                raise RulesError(f"{label}: choose among the options.", field=key)
            value = [o for o in _options(field) if o in value]
            if low is not None and len(value) < low:
                raise RulesError(f"{label}: choose at least {low}.", field=key)
            if high is not None and len(value) > high:
                raise RulesError(f"{label}: choose at most {high}.", field=key)
        elif kind == "player":
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise RulesError(f"{label}: name a player of this game.", field=key) from None
            if value not in players:
                raise RulesError(f"{label}: name a player of this game.", field=key)
        elif kind == "yes_no":
            if not isinstance(value, bool):
                raise RulesError(f"{label}: yes or no.", field=key)
        cleaned[key] = value
    return cleaned


def json_schema(fields: list[dict]) -> dict:
    types = {
        "short_text": {"type": "string"},
        "long_text": {"type": "string"},
        "number": {"type": "integer"},
        "choice": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "string"}},
        "player": {"type": "integer"},
        "yes_no": {"type": "boolean"},
    }
    return {
        "type": "object",
        "properties": {f["key"]: dict(types[f["kind"]], title=f["label"]) for f in fields},
        "required": [f["key"] for f in fields if f.get("required", True)],
    }


def describe(fields: list[dict], payload: dict, names: dict[int, str]) -> str:
    """The answers in words: "Bid: 5; Target: ann; Ally? yes"."""
    parts = []
    for field in fields:
        value = (payload or {}).get(field["key"])
        if value in (None, "", []):
            shown = "(no answer)"
        elif field["kind"] == "player":
            shown = names.get(int(value), f"seat {int(value) + 1}")
        elif field["kind"] == "yes_no":
            shown = "yes" if value else "no"
        elif field["kind"] == "choices":
            shown = ", ".join(value)
        else:
            shown = str(value)
        label = field["label"]
        parts.append(f"{label} {shown}" if label.endswith("?") else f"{label}: {shown}")
    return "; ".join(parts)
