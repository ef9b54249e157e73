"""A local stand-in for a push service (the kind Firefox's and Chrome's browsers subscribe to), answered by
`responses` on https://push.example.test (no network), and the browser side of a subscription.

A `Device` makes its keys as a browser does (a P-256 key pair and a 16-byte auth secret) and can read what it
is sent. The stand-in takes each push as a push service would: it checks the VAPID Authorization header
(`vapid t=<JWT>,k=<key>`: the key is the site's, the JWT's ES256 signature verifies with it, its audience is
this service's origin, it expires within a day and names a contact), that the body is aes128gcm, and the
TTL; then the device decrypts the body with its private key (http_ece). It answers 201, or whatever status
the test set for that device (404, 410, 429, 500). Anything wrong is kept in `problems` and answered 403.
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from dataclasses import dataclass, field

import http_ece
import responses
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from requests.structures import CaseInsensitiveDict

ORIGIN = "https://push.example.test"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One browser's subscription: its endpoint at the stand-in, and the keys only the browser holds."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def endpoint(self) -> str:
        return f"{ORIGIN}/wpush/v2/{self.name}"

    def subscription(self) -> dict:
        """What the browser's PushSubscription.toJSON() gives the page's script."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.secret)},
        }

    def read(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        )


@dataclass
class Push:
    device: str
    note: dict
    headers: dict
    claims: dict


class PushService:
    """The stand-in itself: `serve(mock)` puts it behind `responses`; `received` and `problems` are read."""

    def __init__(self, site_public_key: str):
        self.site_key = site_public_key
        self.devices: dict[str, Device] = {}
        self.statuses: dict[str, int] = {}
        self.received: list[Push] = []
        self.problems: list[str] = []

    def device(self, name: str) -> Device:
        self.devices[name] = Device(name)
        return self.devices[name]

    def answer(self, device: Device, status: int) -> None:
        """From now on this device's pushes are answered `status`."""
        self.statuses[device.name] = status

    def serve(self, mock: responses.RequestsMock) -> None:
        mock.add_callback(
            responses.POST, re.compile(re.escape(ORIGIN) + r"/wpush/v2/.+"), callback=self._push
        )

    def _claims(self, authorization: str) -> dict:
        scheme, _, params = authorization.partition(" ")
        assert scheme == "vapid", f"Authorization scheme {scheme!r}, not vapid (RFC 8292)"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts.get("k") == self.site_key.rstrip("="), "k is not the site's VAPID public key"
        header, claims, signature = parts["t"].split(".")
        assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64(signature)
        der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
        try:
            key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as exc:
            raise AssertionError("the VAPID JWT's signature does not verify with k") from exc
        claims = json.loads(unb64(claims))
        assert claims["aud"] == ORIGIN, f"aud {claims['aud']!r} is not the push service's origin"
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, "exp not within the next 24 hours"
        assert claims["sub"].startswith(("mailto:", "https://")), "sub names no contact"
        return claims

    def _push(self, request):
        name = request.url.rsplit("/", 1)[1]
        device = self.devices.get(name)
        if device is None:
            return 404, {}, ""
        try:
            claims = self._claims(request.headers.get("Authorization", ""))
            assert request.headers.get("Content-Encoding") == "aes128gcm", "body is not aes128gcm (RFC 8188)"
            assert int(request.headers["TTL"]) >= 0, "no TTL"
            note = device.read(request.body)
        except (AssertionError, KeyError, ValueError, http_ece.ECEException) as exc:
            self.problems.append(f"{name}: {exc}")
            return 403, {}, str(exc)
        status = self.statuses.get(name, 201)
        headers = {"Retry-After": "30"} if status == 429 else {}
        if status == 201:
            self.received.append(Push(name, note, CaseInsensitiveDict(request.headers), claims))
        return status, headers, ""
