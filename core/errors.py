"""Domain errors: what a service refuses, with a message a person can act on.

Views turn them into one JSON shape (``{"error": {"code", "message", "field"}}``) or a form
error next to ``field``; nothing else about HTTP lives in the services.
"""

from __future__ import annotations


class DomainError(Exception):
    """Input the rules do not allow (HTTP 422 where it reaches the API)."""

    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code


class PermissionDenied(DomainError):
    """The actor's role does not allow this action (HTTP 403)."""

    code = "forbidden"


class Conflict(DomainError):
    """The action does not fit the current state: a closed table, a taken seat (HTTP 409)."""

    code = "conflict"


class NotFound(DomainError):
    """The row the action names does not exist (HTTP 404): a service that reads its row itself,
    locked, tells so instead of the view reading it first."""

    code = "not_found"
