"""A signature in an API body (design.md 8): the person signing authenticates in the request
that signs, with their password or PIN — an id picked from a list is never a signature."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request

from cardroom.signing import signing_device
from tables.signatures import SignatureInput

from .inputs import StrictSerializer


@extend_schema_serializer(component_name="Signature")
class SignatureIn(StrictSerializer):
    """``{"username", "secret"}``: who signs (left out: the requester signs as themselves) and
    their password or signing PIN."""

    username = serializers.CharField(max_length=150, required=False, default="")
    secret = serializers.CharField(max_length=128, trim_whitespace=False)


@extend_schema_serializer(component_name="SecondSignature")
class SecondSignatureIn(StrictSerializer):
    """``{"username", "secret"}``: a second person signs on the device in use, typing who they
    are and their own password or signing PIN."""

    username = serializers.CharField(max_length=150)
    secret = serializers.CharField(max_length=128, trim_whitespace=False)


def signature_input(request: Request, data: dict[str, Any] | None) -> SignatureInput | None:
    """The service's input for a parsed ``SignatureIn`` (None when the body had none)."""
    if not data:
        return None
    username = data.get("username") or request.user.get_username()
    return SignatureInput(username, data["secret"], signing_device(request))


class ChangeDecisionIn(StrictSerializer):
    """A decision on a two-person change: a reason, and for an approval the approver's
    signature."""

    reason = serializers.CharField(max_length=2000, required=False, default="")
    signature = SignatureIn(required=False)
