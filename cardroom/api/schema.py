"""The OpenAPI schema documents the errors every operation may answer, in the one shape
(``{"error": {"code", "message", "field"}}``), so that a client (and schemathesis) finds no
status code the schema does not name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter

from .idempotency import HEADER

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "example": "invalid"},
                "message": {"type": "string", "example": "The period must end after it starts."},
                "field": {"type": "string", "nullable": True, "example": "end"},
            },
            "required": ["code", "message", "field"],
        }
    },
    "required": ["error"],
}

#: Every error status the API answers, and what it means.
ERRORS = {
    "400": "Malformed: the body is not JSON, too deep or too large, or a value is of the wrong "
    "type or missing (the field is named).",
    "401": "No credentials, or a wrong username, password or token.",
    "403": "The role, or the rules (a dealer off duty, R17's dual control), do not allow this.",
    "404": "Nothing has this id, or no such URL.",
    "405": "The endpoint does not serve this method.",
    "406": "The Accept header asks for a format the endpoint does not give.",
    "409": "The action does not fit the current state (a settled hand, a closed table).",
    "415": "The body is of a media type the endpoint does not read.",
    "422": "The rules refuse the input, or a field is unknown (the field is named).",
    "428": "The request moves money and came without an Idempotency-Key header.",
    "429": "Too many failed logins: wait as Retry-After says.",
    "500": "The server failed; the error is logged under the X-Request-ID the answer carries.",
    "503": "The database is not answering: try again after Retry-After seconds.",
}


def add_error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's POSTPROCESSING_HOOKS: the Error component, and each error status on
    each operation (an operation's own description of a status is kept)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERRORS.items():
                responses.setdefault(code, {"description": description, "content": reference})
    return result


class CardroomAutoSchema(AutoSchema):
    """drf-spectacular's schema of an operation, with the Idempotency-Key header on every
    POST: required where the POST moves money (a 428 without it), optional elsewhere; not on
    the few that take no key (``takes_idempotency_key = False``: an answer holding a secret
    shown once, a device's message numbered by its own sequence)."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.method == "POST" and getattr(self.view, "takes_idempotency_key", True):
            required = bool(getattr(self.view, "moves_money", False))
            parameters.append(
                OpenApiParameter(
                    HEADER,
                    str,
                    OpenApiParameter.HEADER,
                    required=required,
                    description="A new key for each action, the same key when retrying it: "
                    "a retry answers as the first did and changes nothing."
                    + (" Required: this request moves money." if required else ""),
                )
            )
        return parameters
