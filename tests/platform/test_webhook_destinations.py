"""A host's webhook never makes the server post inside its own network (issue 17.3).

The admin refuses such a URL next to its field; at delivery the name is resolved and an inside address is
refused, and redirects are not followed. No test needs the internet: a fake name server answers for
`*.example.org`, and the receivers listen on 127.0.0.1.
"""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.urls import reverse

from games.platform.models import Webhook
from tests.api_support import api

pytestmark = pytest.mark.django_db


class Listener(BaseHTTPRequestHandler):
    """Records every request; answers with `redirect_to` as a 302 when it is set."""

    redirect_to = ""
    hits: list[str] = []

    def do_POST(self):
        Listener.hits.append(f"{self.server.server_port}{self.path}")
        if Listener.redirect_to:
            self.send_response(302)
            self.send_header("Location", Listener.redirect_to)
        else:
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        return


@pytest.fixture
def listen():
    Listener.redirect_to, Listener.hits = "", []
    servers = []

    def start() -> int:
        server = HTTPServer(("127.0.0.1", 0), Listener)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server.server_port

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture
def connections(monkeypatch):
    """Every connection the server tries, by address; only loopback ones are let through (no test sends a
    packet off this machine, even against code that would)."""
    import urllib3.util.connection

    tried: list[str] = []

    def guarded(real):
        def create_connection(address, *args, **kwargs):
            tried.append(address[0])
            if address[0] not in ("127.0.0.1", "localhost"):
                raise OSError(f"test guard: no connection to {address[0]}")
            return real(address, *args, **kwargs)

        return create_connection

    monkeypatch.setattr(socket, "create_connection", guarded(socket.create_connection))
    monkeypatch.setattr(
        urllib3.util.connection, "create_connection", guarded(urllib3.util.connection.create_connection)
    )
    return tried


@pytest.fixture
def name_server(monkeypatch, connections):
    """An attacker's DNS: names under example.org resolve to whatever the test says."""
    answers: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            family = socket.AF_INET6 if ":" in answers[host] else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


def _admin_add(client, season, url):
    return client.post(
        "/admin/platform/webhook/add/",
        {
            "season": season.id,
            "kind": "signed",
            "url": url,
            "secret": "",
            "active": "on",
            "created_at_0": "2030-01-01",
            "created_at_1": "00:00:00",
        },
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.org/x",
        "https://127.0.0.1/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]:6379/",
        "https://10.0.0.7/hook",
        "https://localhost:8000/hook",
        "https://0.0.0.0/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "ftp://hooks.example.org/x",
    ],
)
def test_the_admin_refuses_a_webhook_aimed_inside_the_network_or_not_over_https(client, hank, season, url):
    client.force_login(hank)
    response = _admin_add(client, season, url)
    assert response.status_code == 200, "the form is shown again, with the error"
    errors = response.context["adminform"].form.errors
    assert "url" in errors
    assert not Webhook.objects.exists()


def test_the_admin_takes_an_https_webhook_on_the_internet(client, hank, season):
    client.force_login(hank)
    assert _admin_add(client, season, "https://hooks.example.org/x").status_code == 302
    assert Webhook.objects.get().url == "https://hooks.example.org/x"


def _announce(game, host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answer = api(host).post(
            reverse("api-host-announce", args=[game.id]), {"text": "Round 1 opens."}, format="json"
        )
    assert answer.status_code in (200, 201)


@pytest.mark.parametrize(
    "inside", ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "fd00::1", "224.0.0.1"]
)
def test_a_name_that_resolves_inside_the_network_is_refused_at_delivery_and_not_retried(
    tally,
    hank,
    settings,
    name_server,
    connections,
    listen,
    caplog,
    django_capture_on_commit_callbacks,
    inside,
):
    settings.GENIUS_WEBHOOKS_HTTP = True
    port = listen()
    # Saved while the name pointed outside; now the attacker's DNS answers with an inside address.
    Webhook.objects.create(game=tally, url=f"http://hooks.example.org:{port}/hook")
    name_server["hooks.example.org"] = inside
    _announce(tally, hank, django_capture_on_commit_callbacks)
    assert connections == [], "no connection is even tried"
    refusals = [r for r in caplog.records if "inside the server's network" in r.getMessage()]
    assert len(refusals) == 1, "refused once, never retried"


def test_a_redirect_from_the_receiver_is_not_followed(
    tally, hank, settings, connections, listen, caplog, django_capture_on_commit_callbacks
):
    settings.GENIUS_WEBHOOKS_HTTP = True
    settings.GENIUS_WEBHOOKS_TO_LOOPBACK = True  # the first hop is this test's own receiver
    first, inside = listen(), listen()
    Listener.redirect_to = f"http://127.0.0.1:{inside}/internal"
    Webhook.objects.create(game=tally, url=f"http://127.0.0.1:{first}/hook")
    _announce(tally, hank, django_capture_on_commit_callbacks)
    assert Listener.hits == [f"{first}/hook"], "posted once, the redirect not followed nor retried"
    assert any("redirect" in r.getMessage() for r in caplog.records)


def test_delivery_to_a_stored_url_that_is_not_https_is_refused(
    tally, hank, connections, listen, django_capture_on_commit_callbacks
):
    port = listen()
    # A row saved before the admin checked URLs: delivery checks again.
    Webhook.objects.create(game=tally, url=f"http://127.0.0.1:{port}/hook")
    _announce(tally, hank, django_capture_on_commit_callbacks)
    assert connections == [] and Listener.hits == []
