"""The site's URL list made concrete: every pattern of the resolver, its path parameters filled from objects.

A pattern whose parameters the filler cannot fill is reported by name, so a new route joins the crawl (or
fails it) without anybody remembering to add it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RegexPattern, RoutePattern

ROUTE_PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")
NAMED_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>")


@dataclass
class Route:
    """One URL pattern of the site: its full name and its path as literal text and parameter names."""

    name: str
    tokens: list = field(default_factory=list)  # str literals and ("param", name) pairs
    callback: object = None

    @property
    def params(self) -> list[str]:
        return [t[1] for t in self.tokens if isinstance(t, tuple)]

    def build(self, values: dict) -> str:
        return "/" + "".join(t if isinstance(t, str) else str(values[t[1]]) for t in self.tokens)


class Unfillable(Exception):
    pass


def _regex_tokens(regex: str) -> list:
    """A named-group regex as tokens; any other regex construct outside the groups is unfillable."""
    regex = regex.removeprefix("^").removesuffix("$").removesuffix(r"\Z")
    tokens: list = []
    pos = 0
    for match in NAMED_GROUP.finditer(regex):
        if match.start() < pos:
            continue
        tokens.append(regex[pos : match.start()])
        depth, i = 1, match.end()
        while depth:
            if regex[i] == "\\":
                i += 2
                continue
            depth += {"(": 1, ")": -1}.get(regex[i], 0)
            i += 1
        tokens.append(("param", match.group("name")))
        pos = i
    tokens.append(regex[pos:])
    out = []
    for token in tokens:
        if isinstance(token, str):
            if re.search(r"(?<!\\)[()\[\]*+?|{}]", token):
                raise Unfillable(f"regex construct outside a named group: {regex!r}")
            token = re.sub(r"\\(.)", r"\1", token)
        out.append(token)
    return out


def _pattern_tokens(pattern) -> list:
    if isinstance(pattern, RoutePattern):
        text = str(pattern._route)
        tokens, pos = [], 0
        for match in ROUTE_PARAM.finditer(text):
            tokens.append(text[pos : match.start()])
            tokens.append(("param", match.group("name")))
            pos = match.end()
        tokens.append(text[pos:])
        return tokens
    if isinstance(pattern, RegexPattern):
        return _regex_tokens(pattern._regex)
    raise Unfillable(f"unknown pattern type {type(pattern).__name__}")


def routes() -> tuple[list[Route], list[str]]:
    """Every URL pattern of the site, and the names of those this module cannot even parse."""
    found: list[Route] = []
    problems: list[str] = []

    def walk(patterns, prefix: list, namespace: str):
        for entry in patterns:
            try:
                tokens = prefix + _pattern_tokens(entry.pattern)
            except Unfillable as exc:
                problems.append(f"{namespace}{getattr(entry, 'name', None) or entry.pattern}: {exc}")
                continue
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                walk(entry.url_patterns, tokens, inner)
            elif isinstance(entry, URLPattern):
                name = f"{namespace}{entry.name}" if entry.name else f"{namespace}<unnamed {entry.pattern}>"
                found.append(Route(name=name, tokens=[t for t in tokens if t != ""], callback=entry.callback))

    walk(get_resolver().url_patterns, [], "")
    return found, problems


def resolves_to(url: str, route: Route) -> bool:
    match = resolve(url.split("?")[0])
    return match.func is route.callback or getattr(match.func, "__wrapped__", None) is getattr(
        route.callback, "__wrapped__", route.callback
    )
