"""The keys of personal data: Fernet keys that encrypt ID numbers at rest, and the keyed hash
an ID is looked up by (never a plain hash: an ID number is guessable, a keyed hash is not
without the key)."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import unicodedata

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def encryption_keys() -> list[bytes]:
    """The Fernet keys, newest first (settings.FIELD_ENCRYPTION_KEYS, from the environment)."""
    keys = list(getattr(settings, "FIELD_ENCRYPTION_KEYS", []) or [])
    if not keys:
        raise ImproperlyConfigured("FIELD_ENCRYPTION_KEY must be set to encrypt ID numbers.")
    return [key.encode() for key in keys]


def _lookup_key() -> bytes:
    configured = getattr(settings, "ID_LOOKUP_KEY", "")
    if configured:
        return configured.encode()
    first = base64.urlsafe_b64decode(encryption_keys()[0])
    return hmac.new(first, b"cardroom: ID lookup hash", hashlib.sha256).digest()


def normal_id(number: str) -> str:
    """An ID number as compared: letters and digits only, upper case ("d123-456 7" and
    "D1234567" are the same licence)."""
    text = unicodedata.normalize("NFKC", number or "")
    return "".join(ch for ch in text if ch.isalnum()).upper()


@functools.lru_cache(maxsize=4096)  # a state list's import asks for each name several times
def normal_text(text: str) -> str:
    """A name or an issuer as compared: accents dropped, case folded, one space between
    words, punctuation gone ("O'Brien,  Seán" and "obrien sean")."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    words = "".join(ch if ch.isalnum() or ch.isspace() else "" for ch in plain).casefold()
    return " ".join(words.split())


def id_hash(id_type: str, issuer: str, number: str) -> str:
    """The keyed hash (HMAC-SHA256) of an ID's type, issuer and normalised number, stored beside
    the ciphertext so that an exclusion can be matched on the ID without decrypting."""
    message = "\x1f".join((id_type, normal_text(issuer), normal_id(number)))
    return hmac.new(_lookup_key(), message.encode(), hashlib.sha256).hexdigest()
