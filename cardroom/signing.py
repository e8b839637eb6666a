"""What the API and the screens share about a signature: the device it is given on."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest

from tables.signatures import SignatureInput, SigningDevice


def signing_device(request: HttpRequest) -> SigningDevice:
    """The session (a digest of its key) or the device token (its public key part) a
    signature comes through, and the browser or client and its address."""
    token = getattr(request, "auth", None)
    if token is not None and getattr(token, "token_key", None):
        session = f"token:{token.token_key}"
    else:
        key = getattr(getattr(request, "session", None), "session_key", None) or ""
        session = f"session:{hashlib.sha256(key.encode()).hexdigest()[:32]}" if key else ""
    agent = request.META.get("HTTP_USER_AGENT", "")[:150]
    address = request.META.get("REMOTE_ADDR", "")
    return SigningDevice(session=session, device=f"{agent} from {address}".strip())


def own_signature(request: HttpRequest, secret: str) -> SignatureInput:
    """The signed-in person signs as themselves with their password or PIN."""
    return SignatureInput(request.user.get_username(), secret, signing_device(request))


def signature(request: HttpRequest, username: str, secret: str) -> SignatureInput:
    """Another person signs on the device in use."""
    return SignatureInput(username, secret, signing_device(request))
