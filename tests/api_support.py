"""API helpers shared by the tests: a client acting as a user, and the calls every game's tests make."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient


def api(user=None) -> APIClient:
    """An API client authenticated as `user` (None: an anonymous spectator)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def page_client(user=None, *, raise_request_exception: bool = True) -> Client:
    """Django's test client as `user` reads the site's pages (None: a visitor)."""
    client = Client(raise_request_exception=raise_request_exception)
    if user is not None:
        client.force_login(user)
    return client


def submit(game, user, round_number, payload):
    return api(user).post(
        reverse("api-submission", args=[game.id]), {"round": round_number, "payload": payload}, format="json"
    )


def operate(game, user, name, payload):
    return api(user).post(reverse("api-operation", args=[game.id, name]), {"payload": payload}, format="json")


def observe(game, user=None) -> dict:
    response = api(user).get(reverse("api-game", args=[game.id]))
    assert response.status_code == 200
    return response.json()


def told(game, **filters) -> list[str]:
    """The game's events (those `filters` pick) as their readers read them: each person by the name they go
    by now, each time in UTC, named (the rows keep references, games.platform.wording)."""
    from games.platform.people import UTC
    from games.platform.wording import names_for, plain

    texts = list(game.events.filter(**filters).order_by("id").values_list("text", flat=True))
    names = names_for(texts)
    return [plain(text, names, UTC) for text in texts]
