"""The site's VAPID key pair (RFC 8292): what signs every push, so a push service knows which server sends it.

The keys come from the environment (settings.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT), in the
form browsers and the other Web Push libraries use: base64url of the public key's uncompressed P-256 point
(65 bytes, what the page hands to `pushManager.subscribe`) and of the private key's 32 bytes.
`manage.py vapid_keys` prints a new pair. Any of the three missing, or a pair that does not match: push is
off, and `problem()` says why in words an operator understands.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def new_pair() -> tuple[str, str]:
    """A fresh (public, private) pair, each base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(_public_point(key)), _b64(private)


def _private_key() -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(_unb64(settings.VAPID_PRIVATE_KEY), "big"), ec.SECP256R1())


def problem() -> str:
    """Why the site cannot send pushes, or "" when it can."""
    if not (settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY and settings.VAPID_SUBJECT):
        return "Push notifications are off on this site (its VAPID keys are not set)."
    if not settings.VAPID_SUBJECT.startswith(("mailto:", "https://")):
        return "VAPID_SUBJECT must be a mailto: address or an https:// page the push services can write to."
    try:
        if _b64(_public_point(_private_key())) != settings.VAPID_PUBLIC_KEY.rstrip("="):
            return "VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY."
    except ValueError:
        return "VAPID_PRIVATE_KEY is not a base64url P-256 private key (run manage.py vapid_keys)."
    return ""


def public_key() -> str:
    """What the page gives `pushManager.subscribe` as its applicationServerKey; "" when push is off."""
    return "" if problem() else settings.VAPID_PUBLIC_KEY.rstrip("=")


def signer() -> Vapid:
    """The key that signs each push's Authorization header (`vapid t=<JWT>,k=<public key>`)."""
    return Vapid(_private_key())
