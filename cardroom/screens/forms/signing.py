"""Signature fields of the screens' forms (design.md 8): the person signing types their
password or PIN on this device, now; a second person also types who they are."""

from __future__ import annotations

from django import forms


def SECRET_FIELD(label: str = "Your password or PIN", *, required: bool = False) -> forms.CharField:  # noqa: N802 - a field factory, named as the fields it makes
    """The password or signing PIN of the person signing (never shown, never kept)."""
    return forms.CharField(
        label=label,
        required=required,
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "size": 12}),
    )


def SIGNER_FIELD(label: str) -> forms.CharField:  # noqa: N802 - a field factory
    """The username of a second person, typed by them as they sign."""
    return forms.CharField(
        label=label,
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "size": 12}),
    )
