"""Every integer the API takes has a bound; a number past it is a 400 in words, never a 500 (issue 28, N4).

An invitation's `max_uses` of 2^31 or more overflowed Postgres's integer column and answered 500. The schema
walk makes sure no integer input goes without its bound (one added later included); the requests send each
one past it, and huge ids in the paths, as anyone could; tests/proof/test_schema_fuzz.py sends every integer
of every generated request as 2^31, 2^63 and 10^30.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

HUGE = [2**31, 2**63, 10**30, -(2**63) - 1]


def _integers(schema: dict, components: dict, where: str, seen: set) -> list[tuple[str, dict]]:
    """(name, schema) of every integer in a request body's schema, $refs followed."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        return _integers(components[name], components, where, seen | {name})
    found = [(where, schema)] if schema.get("type") == "integer" else []
    for key, sub in schema.get("properties", {}).items():
        found += _integers(sub, components, f"{where}.{key}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _integers(schema[key], components, f"{where}[]", seen)
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(key, []):
            found += _integers(sub, components, where, seen)
    return found


def test_every_integer_the_api_takes_has_a_bound(client):
    spec = client.get(reverse("api-schema"), {"format": "json"}).json()
    components = spec["components"]["schemas"]
    unbounded, inputs = [], 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            found = [
                (f"{method} {path} ?{p['name']}", p["schema"])
                for p in operation.get("parameters", [])
                if p["in"] != "path" and p.get("schema", {}).get("type") == "integer"
            ]
            for content in operation.get("requestBody", {}).get("content", {}).values():
                found += _integers(content["schema"], components, f"{method} {path} body", set())
            inputs += len(found)
            unbounded += [where for where, s in found if "maximum" not in s or "minimum" not in s]
    assert inputs >= 8 and unbounded == []


@pytest.fixture
def as_host(hank):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=hank).key}")
    return api


@pytest.fixture
def as_player(alice):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    return api


# (route, its id, who sends it, the body with the number, the field it goes in)
INPUTS = [
    ("api-invitations", "season", "host", {}, "max_uses"),
    ("api-invitations", "season", "host", {}, "hours"),
    ("api-games", None, "host", {"type": "tally", "name": "Big"}, "season"),
    ("api-host-extend", "game", "host", {}, "minutes"),
    ("api-host-replace", "game", "host", {"username": "bob"}, "seat"),
    ("api-grant", "season", "host", {"username": "alice", "what": "garnets", "reason": "big"}, "delta"),
    ("api-submission", "game", "player", {"payload": {"number": 1}}, "round"),
    ("api-transfer", "season", "player", {"to": "bob", "what": "garnets"}, "amount"),
]


@pytest.mark.parametrize("number", HUGE)
@pytest.mark.parametrize(("route", "scope", "who", "body", "field"), INPUTS)
def test_a_number_past_its_bound_is_a_400_next_to_its_field(
    tally, season, as_host, as_player, route, scope, who, body, field, number
):
    args = {"season": [season.id], "game": [tally.id], None: []}[scope]
    api = as_host if who == "host" else as_player
    answer = api.post(reverse(route, args=args), {**body, field: number}, format="json")
    if field == "season" and 0 < number < 2**63:
        assert answer.status_code == 404, answer.content  # an id a row could have: there is none
        return
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"], answer.json()


def test_an_invitation_for_more_people_than_anyone_could_invite_is_refused_in_words(season, as_host):
    answer = as_host.post(reverse("api-invitations", args=[season.id]), {"max_uses": 2**31}, format="json")
    assert answer.status_code == 400
    words = "An invitation lets at most 10000 people join; leave it empty for no limit."
    assert answer.json()["errors"]["max_uses"] == [words]
    assert as_host.post(reverse("api-invitations", args=[season.id]), {"max_uses": 10000}).status_code == 201


def test_the_hosts_admin_refuses_it_next_to_the_field(season, hank, client):
    client.force_login(hank)
    answer = client.post(
        reverse("admin:platform_invitation_add"),
        {"season": season.id, "hours": 24, "max_uses": 2**31, "note": ""},
    )
    assert answer.status_code == 200
    words = "An invitation lets at most 10000 people join; leave it empty for no limit."
    assert words in answer.content.decode()
    assert not season.invitations.exists()


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_an_id_past_any_row_in_a_path_is_a_404(tally, as_host, number):
    assert as_host.get(f"/api/games/{number}/").status_code == 404
    assert as_host.get(f"/api/games/{tally.id}/chats/{number}-1/").status_code in (400, 404)
    answer = as_host.post(f"/api/seasons/{number}/invitations/", {}, format="json")
    assert answer.status_code == 404
