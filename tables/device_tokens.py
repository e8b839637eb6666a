"""A device's token: a random secret shown once, kept as its digest only.

The digest is an HMAC-SHA256 of the secret under a fixed key of its own, so that a device
token's digest can never be taken for a user token's (knox keeps a plain SHA-512 of those):
the secret is 256 random bits, so no key is needed against guessing, and none that a
rotation of ``SECRET_KEY`` would silently invalidate. Compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

_KEY = b"cardroom.device-token.v1"
#: The characters of a token shown on screens and in the audit log to tell tokens apart.
PREFIX_LENGTH = 8


def token_new() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hmac.new(_KEY, token.encode(), hashlib.sha256).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    return hmac.compare_digest(token_digest(token), digest)


def token_prefix(token: str) -> str:
    return token[:PREFIX_LENGTH]
