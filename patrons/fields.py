"""An encrypted text field: django-fernet-encrypted-fields' field, keyed from the environment.

The library derives its key from SECRET_KEY and a salt; here the Fernet keys come straight
from FIELD_ENCRYPTION_KEY (``patrons.keys``), so that rotating the Django secret never makes
ID numbers unreadable, and several keys rotate (the first encrypts, each decrypts). A value
that no key decrypts is an error, never shown as if it were the plain value (the library
would pass the ciphertext through).
"""

from __future__ import annotations

from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import cached_property
from encrypted_fields.fields import EncryptedCharField, EncryptedTextField

from .keys import encryption_keys


class Sealed:
    """The environment's Fernet keys for a django-fernet-encrypted-fields field."""

    model: Any  # set by the field it is mixed into
    name: str

    @cached_property
    def keys(self) -> list[bytes]:
        return encryption_keys()

    @cached_property
    def f(self) -> Fernet | MultiFernet:
        return MultiFernet([Fernet(key) for key in self.keys])

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if not value:
            return value
        try:
            return self.f.decrypt(value.encode()).decode()
        except InvalidToken:
            raise ImproperlyConfigured(
                f"{self.model.__name__}.{self.name} cannot be decrypted with the keys in "
                "FIELD_ENCRYPTION_KEY: a key is missing."
            ) from None


class SealedCharField(Sealed, EncryptedCharField):
    """Text encrypted at rest with the environment's Fernet keys (``max_length`` is the plain
    text's; the column is text)."""


class SealedTextField(Sealed, EncryptedTextField):
    """Long text encrypted at rest the same way (a state list's file, ID numbers in it)."""
